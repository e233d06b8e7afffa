#pragma once
// A preconditioner that is not a diagonal (solvers/krylov.hpp's
// Preconditioner: block Jacobi, ILU(0), IC(0)): z = M^-1 r on vectors in the
// executor's memory. Jacobi stays a diagonal that the fused kernels of
// pipelined CG read directly, and Chebyshev a polynomial that KrylovOps
// applies with its own SpMV (krylov_ops.hpp), so neither is one of these.
#include <memory>
#include <string>

#include "hsparse/core/executor.hpp"
#include "hsparse/formats/csr.hpp"
#include "hsparse/solvers/krylov.hpp"

namespace hsparse::detail {

template <class V>
class PreconditionerOp {
 public:
  virtual ~PreconditionerOp() = default;
  // z = M^-1 r (n entries each, z != r), ordered on the executor's stream.
  virtual void apply(const V* r, V* z) const = 0;
  // What it is, in words: "block Jacobi, 1024 blocks of 4 (detected)".
  virtual std::string description() const = 0;
};

template <class V>
using PreconditionerPtr = std::unique_ptr<const PreconditionerOp<V>>;

// Block Jacobi on `ex`: the diagonal blocks of `a` (block_size rows each,
// the last one shorter; 0: block_jacobi_size(a)) inverted on the host by LU
// with partial pivoting, then applied as a BCSR product of the
// block-diagonal inverse (the SpMV plans' own kernels, on either
// executor). Error(invalid_matrix) naming the rows of a singular block.
template <class V, class I>
PreconditionerPtr<V> make_block_jacobi(const ExecutorPtr& ex, const Csr<V, I>& a, int block_size);

// ILU(0) or IC(0) of `a` on `ex` (incomplete_lu.cpp): the factorisation's
// Error names the row of a zero or non-positive pivot.
// options.preconditioner is ilu0 or ic0; options.triangular, triangular_sweeps
// and single_factors say how the factors are applied.
template <class V, class I>
PreconditionerPtr<V> make_incomplete(const ExecutorPtr& ex, const Csr<V, I>& a, const SolverOptions& options);

// M^-1 from the assembled matrix for options.preconditioner: block Jacobi,
// ILU(0) or IC(0) (Error(invalid_argument) for another).
template <class V, class I>
PreconditionerPtr<V> make_from_matrix(const ExecutorPtr& ex, const Csr<V, I>& a, const SolverOptions& options);

}  // namespace hsparse::detail
