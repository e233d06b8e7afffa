#pragma once
/// @file
/// A preconditioner M^-1 of A built once and applied to vectors, for callers
/// that run their own iteration: scipy's solvers (hsparse.preconditioner in
/// Python wraps one as a LinearOperator), or a user's own Krylov loop. The
/// same M^-1 that solve() builds for SolverOptions::preconditioner (one
/// implementation: the solvers' KrylovOps), on either executor.
#include <memory>
#include <span>
#include <string>

#include "hsparse/core/executor.hpp"
#include "hsparse/formats/csr.hpp"
#include "hsparse/solvers/krylov.hpp"

namespace hsparse {

/// M^-1 of a square matrix, built once on an executor and applied to vectors.
template <class V, class I>
class PreconditionerPlan {
 public:
  /// M^-1 of the square `a` for options.preconditioner (jacobi,
  /// block_jacobi, chebyshev, ilu0 or ic0; options.block_size and
  /// chebyshev_degree as for solve()), on `ex`. The errors solve() gives
  /// (a zero pivot naming its row, a singular block, an indefinite matrix
  /// for Chebyshev); Error(invalid_argument) for none.
  PreconditionerPlan(ExecutorPtr ex, const Csr<V, I>& a, const SolverOptions& options);
  ~PreconditionerPlan();
  PreconditionerPlan(PreconditionerPlan&&) noexcept;             ///< takes the other's M^-1
  PreconditionerPlan& operator=(PreconditionerPlan&&) noexcept;  ///< releases this one's, takes the other's
  /// z = M^-1 r: n entries each in the executor's memory (z != r).
  void apply(const V* r, V* z) const;
  /// The same with host spans (copied to the executor and back); sizes checked.
  void apply(std::span<const V> r, std::span<V> z) const;
  /// What M^-1 is, in words ("block Jacobi, 400 blocks of 4 (detected)").
  std::string description() const;
  std::int64_t rows() const;             ///< the matrix's rows (and columns)
  const ExecutorPtr& executor() const;   ///< where M^-1 applies

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace hsparse
