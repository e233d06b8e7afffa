#pragma once
// The Krylov solvers (solvers/krylov.hpp) on the CPU: the operator is a
// CpuSpmvPlan (any format and kernel), vectors are host arrays, the vector
// kernels the OpenMP ones (kernels/vector_ops.hpp).
#include <span>
#include <vector>

#include "hsparse/formats/csr.hpp"
#include "hsparse/plans/cpu_spmv_plan.hpp"
#include "hsparse/solvers/krylov.hpp"

namespace hsparse {

// Jacobi's M^-1: the inverse of A's diagonal. Error(invalid_matrix) naming
// the first row whose diagonal entry is missing or zero; the matrix must be square.
template <class V, class I>
std::vector<V> inverse_diagonal(const Csr<V, I>& a);

// Solves A x = b from the x given (the initial guess). `a` is the matrix
// the plan was made from (its diagonal for Jacobi; its sizes are checked).
template <class V, class I>
SolverResult solve(const Csr<V, I>& a, const CpuSpmvPlan<V, I>& op, std::span<const V> b, std::span<V> x, const SolverOptions& options);

// ||b - A x|| / ||b|| in double (the check the solver's own residual is held to).
template <class V, class I>
double true_relative_residual(const Csr<V, I>& a, std::span<const V> b, std::span<const V> x);

}  // namespace hsparse
