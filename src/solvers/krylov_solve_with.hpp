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

// The solve (see the file's comment).
template <class V, class Op>
SolverResult solve_with(const Op& op, const std::function<std::vector<V>()>& dinv, const Array<V>& b, Array<V>& x, const SolverOptions& o) {
  if (o.tolerance < 0 || o.max_iterations < 0 || o.restart < 1) {
    throw Error(ErrorCode::invalid_argument, "solver options: tolerance and max_iterations must be >= 0, restart >= 1");
  }
  Stopwatch setup;
  detail::KrylovOps<V, Op> ops(op, x.size(), dinv ? dinv() : std::vector<V>{});
  const double jacobi_s = setup.seconds();
  SolverResult r;
  switch (o.method) {
    case KrylovMethod::cg: r = detail::krylov_cg(ops, b, x, o); break;
    case KrylovMethod::pipelined_cg: r = detail::krylov_pipelined_cg(ops, b, x, o); break;
    case KrylovMethod::pipelined_cg_gv: r = detail::krylov_pipelined_cg_gv(ops, b, x, o); break;
    case KrylovMethod::gmres: r = detail::krylov_gmres(ops, b, x, o); break;
  }
  op.executor()->synchronize();
  r.setup_seconds += jacobi_s;
  return r;
}

}  // namespace detail

}  // namespace hsparse
