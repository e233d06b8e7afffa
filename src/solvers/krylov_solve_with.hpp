#pragma once
// One solve over any operator type (krylov_ops.hpp's Op: an SpmvPlan, a
// LinearOperator, a DistributedSpmv): the options checked, the
// preconditioner's inverse diagonal from `dinv` (none when it is empty),
// the method run, the executor synchronised. Shared by krylov_solve.cpp and
// distributed_krylov.cpp, so that no method exists twice.
#include <functional>
#include <vector>

#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/solvers/krylov.hpp"
#include "krylov_algorithms.hpp"
#include "krylov_ops.hpp"

namespace hsparse {

namespace detail {

// Where a solve's M^-1 comes from: the operator's inverse diagonal (Jacobi,
// and Chebyshev's scaling; empty: the operator has none) and, for the
// preconditioners built from the assembled matrix (block Jacobi, ILU(0),
// IC(0)), a builder (empty: the operator is not a matrix).
template <class V>
struct PreconditionerSource {
  std::function<std::vector<V>()> inverse_diagonal;
  std::function<PreconditionerPtr<V>(const SolverOptions&)> from_matrix;
};

// Lanczos steps for Chebyshev's eigenvalue bounds (chebyshev.hpp): PETSc's
// default for its estimate is 10.
constexpr int kChebyshevLanczosSteps = 10;

// The preconditioner's own options, within their ranges.
inline void check_preconditioner_options(const SolverOptions& o) {
  if (o.block_size < 0 || o.block_size > 32) {
    throw Error(ErrorCode::invalid_argument, "solver options: block_size " + std::to_string(o.block_size) + " is outside 0..32 (0: detected)");
  }
  if (o.chebyshev_degree < 1 || o.chebyshev_degree > 64) {
    throw Error(ErrorCode::invalid_argument, "solver options: chebyshev_degree " + std::to_string(o.chebyshev_degree) + " is outside 1..64");
  }
  const std::string& t = o.triangular;
  if (t != "auto" && t != "level-scheduled" && t != "sync-free" && t != "serial" && t != "jacobi") {
    throw Error(ErrorCode::invalid_argument, "solver options: triangular '" + t + "': valid values are auto, level-scheduled, sync-free, serial and jacobi");
  }
  if (o.triangular_sweeps < 1 || o.triangular_sweeps > 50) {
    throw Error(ErrorCode::invalid_argument, "solver options: triangular_sweeps " + std::to_string(o.triangular_sweeps) + " is outside 1..50");
  }
  if (o.single_factors && t != "jacobi") {
    throw Error(ErrorCode::invalid_argument, "solver options: single_factors stores the factors for Jacobi sweeps; set triangular to jacobi");
  }
}

// The solve (see the file's comment).
template <class V, class Op>
SolverResult solve_with(const Op& op, const PreconditionerSource<V>& source, const Array<V>& b, Array<V>& x, const SolverOptions& o) {
  if (o.tolerance < 0 || o.max_iterations < 0 || o.restart < 1 || !(o.divergence_tolerance > 0)) {
    throw Error(ErrorCode::invalid_argument, "solver options: tolerance and max_iterations must be >= 0, restart >= 1, divergence_tolerance > 0");
  }
  check_preconditioner_options(o);
  const Preconditioner pre = o.preconditioner;
  const bool diagonal = pre == Preconditioner::jacobi || pre == Preconditioner::chebyshev;
  const bool matrix = pre == Preconditioner::block_jacobi || pre == Preconditioner::ilu0 || pre == Preconditioner::ic0;
  if ((diagonal && !source.inverse_diagonal) || (matrix && !source.from_matrix)) {
    throw Error(ErrorCode::invalid_argument, std::string("the preconditioner ") + to_string(pre) + " needs " +
                                                 (matrix ? "the assembled matrix" : "the operator's diagonal") + ", which this operator (" +
                                                 op.executor()->description() + ") does not give; use " + (source.inverse_diagonal ? "none, jacobi or chebyshev" : "none"));
  }
  if (is_complex_v<V> && (o.method == KrylovMethod::pipelined_cg || o.method == KrylovMethod::pipelined_cg_gv)) {
    throw Error(ErrorCode::unsupported, std::string("the pipelined CG methods are real so far; a complex Hermitian system takes cg, a general one gmres or bicgstab, not ") +
                                            to_string(o.method));
  }
  Stopwatch setup;
  detail::KrylovOps<V, Op> ops(op, x.size(), diagonal ? source.inverse_diagonal() : std::vector<V>{}, matrix ? source.from_matrix(o) : nullptr);
  if (pre == Preconditioner::chebyshev) ops.use_chebyshev(o.chebyshev_degree, kChebyshevLanczosSteps);
  const double preconditioner_s = setup.seconds();
  SolverResult r;
  switch (o.method) {
    case KrylovMethod::cg: r = detail::krylov_cg(ops, b, x, o); break;
    case KrylovMethod::pipelined_cg:  // the fused kernels apply a diagonal M^-1; any other goes the general way
      if constexpr (!is_complex_v<V>) r = ops.diagonal_or_none() ? detail::krylov_pipelined_cg(ops, b, x, o) : detail::krylov_pipelined_cg_general(ops, b, x, o);
      break;
    case KrylovMethod::pipelined_cg_gv:
      if constexpr (!is_complex_v<V>) r = detail::krylov_pipelined_cg_gv(ops, b, x, o);
      break;
    case KrylovMethod::gmres: r = detail::krylov_gmres(ops, b, x, o); break;
    case KrylovMethod::bicgstab: r = detail::krylov_bicgstab(ops, b, x, o); break;
    case KrylovMethod::pipelined_bicgstab: r = detail::krylov_pipelined_bicgstab(ops, b, x, o); break;
  }
  op.executor()->synchronize();
  r.setup_seconds += preconditioner_s;
  r.preconditioner = ops.preconditioner_description();
  return r;
}

}  // namespace detail

}  // namespace hsparse
