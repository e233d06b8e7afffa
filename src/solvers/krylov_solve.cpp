// The Krylov solvers (solvers/krylov.hpp): the algorithms of
// krylov_algorithms.hpp over KrylovOps (krylov_ops.hpp), which dispatches
// every vector operation by the plan's executor. Nothing here knows a backend.
#include <cmath>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/solvers/krylov.hpp"
#include "krylov_algorithms.hpp"
#include "krylov_ops.hpp"

namespace hsparse {

template <class V, class I>
SolverResult solve(const Csr<V, I>& a, const SpmvPlan<V, I>& op, const Array<V>& b, Array<V>& x, const SolverOptions& o) {
  if (a.rows != a.cols) {
    throw Error(ErrorCode::invalid_argument, "a Krylov solve needs a square matrix, not " + std::to_string(a.rows) + " x " + std::to_string(a.cols));
  }
  if (op.rows() != a.rows || op.cols() != a.cols) {
    throw Error(ErrorCode::invalid_argument, "solve: the plan is " + std::to_string(op.rows()) + " x " + std::to_string(op.cols()) +
                                                 ", the matrix " + std::to_string(a.rows) + " x " + std::to_string(a.cols));
  }
  check_spmv_sizes(a, x.size(), b.size());
  for (const Array<V>* v : {&b, static_cast<const Array<V>*>(&x)}) {
    if (v->size() > 0 && v->executor()->backend() != op.backend()) {
      throw Error(ErrorCode::invalid_argument, "solve: b and x must be on the plan's executor (" + op.executor()->description() + "), not " +
                                                   v->executor()->description());
    }
  }
  if (o.tolerance < 0 || o.max_iterations < 0 || o.restart < 1) {
    throw Error(ErrorCode::invalid_argument, "solver options: tolerance and max_iterations must be >= 0, restart >= 1");
  }
  Stopwatch setup;
  detail::KrylovOps<V, I> ops(op, x.size(), o.preconditioner == Preconditioner::jacobi ? inverse_diagonal(a) : std::vector<V>{});
  const double jacobi_s = setup.seconds();
  SolverResult r;
  switch (o.method) {
    case KrylovMethod::cg: r = detail::krylov_cg(ops, b, x, o); break;
    case KrylovMethod::pipelined_cg: r = detail::krylov_pipelined_cg(ops, b, x, o); break;
    case KrylovMethod::gmres: r = detail::krylov_gmres(ops, b, x, o); break;
  }
  op.executor()->synchronize();
  r.setup_seconds += jacobi_s;
  return r;
}

template <class V, class I>
SolverResult solve(const Csr<V, I>& a, const SpmvPlan<V, I>& op, std::span<const V> b, std::span<V> x, const SolverOptions& o) {
  check_spmv_sizes(a, x.size(), b.size());
  const Array<V> bv(op.executor(), b);
  Array<V> xv(op.executor(), std::span<const V>(x.data(), x.size()));
  SolverResult r = solve(a, op, bv, xv, o);
  const std::vector<V> xh = xv.to_host();
  std::copy(xh.begin(), xh.end(), x.begin());
  return r;
}

template <class V, class I>
double true_relative_residual(const Csr<V, I>& a, std::span<const V> b, std::span<const V> x) {
  check_spmv_sizes(a, x.size(), b.size());
  double rr = 0, bb = 0;
  for (I i = 0; i < a.rows; ++i) {
    double s = 0;
    for (auto k = a.row_ptr[static_cast<std::size_t>(i)]; k < a.row_ptr[static_cast<std::size_t>(i) + 1]; ++k) {
      s += static_cast<double>(a.values[static_cast<std::size_t>(k)]) * static_cast<double>(x[static_cast<std::size_t>(a.col_idx[static_cast<std::size_t>(k)])]);
    }
    const double bi = b[static_cast<std::size_t>(i)];
    rr += (bi - s) * (bi - s);
    bb += bi * bi;
  }
  return bb == 0 ? std::sqrt(rr) : std::sqrt(rr / bb);
}

#define HSPARSE_INSTANTIATE(V, I)                                                                                                    \
  template SolverResult solve(const Csr<V, I>&, const SpmvPlan<V, I>&, const Array<V>&, Array<V>&, const SolverOptions&);            \
  template SolverResult solve(const Csr<V, I>&, const SpmvPlan<V, I>&, std::span<const V>, std::span<V>, const SolverOptions&); \
  template double true_relative_residual(const Csr<V, I>&, std::span<const V>, std::span<const V>);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
