#pragma once
// The Krylov solvers (solvers/krylov.hpp) on the GPU: the operator is a
// GpuSpmvPlan (any format and kernel), b and x are device vectors. CG and
// GMRES take their scalars to the host (two and 2(j+1)+1 synchronisations
// per iteration); pipelined CG keeps them on the device and synchronises
// every options.check_every iterations. CUDA builds only.
#include "hsparse/formats/csr.hpp"
#include "hsparse/plans/gpu_spmv_plan.hpp"
#include "hsparse/solvers/krylov.hpp"

namespace hsparse::cuda {

// Solves A x = b from the x given. `a` is the host matrix the plan was made
// from (sizes; its diagonal for Jacobi).
template <class V, class I>
SolverResult solve(const Executor& ex, const Csr<V, I>& a, const GpuSpmvPlan<V, I>& op, const V* b, V* x, const SolverOptions& options);

// The baseline of the benchmark: unpreconditioned CG built from cuSPARSE's
// CSR SpMV (generic API, default algorithm) and cuBLAS dot/axpy/scal/copy in
// host pointer mode, the textbook "BLAS-based" CG of Rupp's lecture.
template <class V>
SolverResult cusparse_cublas_cg(const Executor& ex, const Csr<V, std::int32_t>& a, const V* b, V* x, const SolverOptions& options);

}  // namespace hsparse::cuda
