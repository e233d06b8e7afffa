// The Krylov solvers (solvers/krylov.hpp): the algorithms of
// krylov_algorithms.hpp over KrylovOps (krylov_ops.hpp), which dispatches
// every vector operation by the plan's executor. Nothing here knows a backend.
#include <algorithm>
#include <functional>
#include <cmath>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/kernels/vector_ops.hpp"
#include "hsparse/solvers/krylov.hpp"
#include "krylov_ops.hpp"
#include "krylov_solve_with.hpp"
#include "preconditioner_op.hpp"

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
  detail::PreconditionerSource<V> source;
  source.inverse_diagonal = [&] { return inverse_diagonal(a); };
  source.from_matrix = [&](const SolverOptions& so) { return detail::make_from_matrix(op.executor(), a, so); };
  return detail::solve_with(op, source, b, x, o);
}

template <class V>
SolverResult solve(const LinearOperator<V>& op, const std::vector<V>& inverse_diagonal, const Array<V>& b, Array<V>& x, const SolverOptions& o) {
  const auto n = static_cast<std::size_t>(op.rows());
  if (b.size() != n || x.size() != n) {
    throw Error(ErrorCode::invalid_argument, "solve: b has " + std::to_string(b.size()) + " and x " + std::to_string(x.size()) + " values for the " +
                                                 std::to_string(n) + "-row operator " + op.description());
  }
  for (const Array<V>* v : {&b, static_cast<const Array<V>*>(&x)}) {
    if (v->size() > 0 && v->executor()->backend() != op.backend()) {
      throw Error(ErrorCode::invalid_argument, "solve: b and x must be on the operator's executor (" + op.executor()->description() + "), not " +
                                                   v->executor()->description());
    }
  }
  const bool diagonal = o.preconditioner == Preconditioner::jacobi || o.preconditioner == Preconditioner::chebyshev;
  if (diagonal && inverse_diagonal.size() != n) {
    throw Error(ErrorCode::invalid_argument, std::string("solve: ") + to_string(o.preconditioner) + " needs the operator's inverse diagonal (" +
                                                 std::to_string(n) + " values), given " + std::to_string(inverse_diagonal.size()));
  }
  detail::PreconditionerSource<V> source;
  source.inverse_diagonal = [&] { return inverse_diagonal; };
  return detail::solve_with(op, source, b, x, o);
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
std::vector<SolverResult> solve_many(const Csr<V, I>& a, const SpmvPlan<V, I>& op, const DenseMatrix<V>& b, DenseMatrix<V>& x,
                                     const SolverOptions& o) {
  if (o.method != KrylovMethod::cg) {
    throw Error(ErrorCode::invalid_argument, std::string("several right-hand sides are solved by CG only, not ") + to_string(o.method));
  }
  if (a.rows != a.cols || b.rows() != a.rows || x.rows() != a.rows || b.cols() != x.cols()) {
    throw Error(ErrorCode::invalid_argument, "solve_many: A " + std::to_string(a.rows) + " x " + std::to_string(a.cols) + ", B " +
                                                 std::to_string(b.rows()) + " x " + std::to_string(b.cols()) + ", X " + std::to_string(x.rows()) +
                                                 " x " + std::to_string(x.cols()) + " (A square, B and X with its rows and as many columns)");
  }
  for (const ExecutorPtr* e : {&b.executor(), &x.executor()}) {
    if ((*e)->backend() != op.backend()) throw Error(ErrorCode::invalid_argument, "solve_many: B and X must be on the plan's executor");
  }
  if (o.tolerance < 0 || o.max_iterations < 0) throw Error(ErrorCode::invalid_argument, "solver options: tolerance and max_iterations must be >= 0");
  const long long k = b.cols(), n = a.rows;
  const auto& ex = op.executor();
  Stopwatch watch;
  detail::KrylovOps<V, SpmvPlan<V, I>> ops(op, static_cast<std::size_t>(n), o.preconditioner == Preconditioner::jacobi ? inverse_diagonal(a) : std::vector<V>{});
  DenseMatrix<V> r(ex, n, k), p(ex, n, k), ap(ex, n, k);
  DenseMatrix<V> z = ops.preconditioned() ? DenseMatrix<V>(ex, n, k) : DenseMatrix<V>();
  auto zc = [&](long long j) { return ops.preconditioned() ? z.column(j) : r.column(j); };
  std::vector<SolverResult> res(static_cast<std::size_t>(k));
  SolverOptions per_column = o;
  per_column.progress = nullptr;  // one progress report for all columns, below
  std::vector<detail::KrylovMonitor> m;
  for (long long j = 0; j < k; ++j) m.push_back({per_column, res[static_cast<std::size_t>(j)]});
  std::vector<double> rz(static_cast<std::size_t>(k), 0);
  std::vector<char> running(static_cast<std::size_t>(k), 1);
  // R = B - A X (one SpMM), Z = M^-1 R, P = Z.
  for (long long j = 0; j < k; ++j) ops.axpby(V(1), b.column(j), V(0), r.column(j));
  op.apply(V(-1), x, V(1), r);
  for (long long j = 0; j < k; ++j) {
    auto& mj = m[static_cast<std::size_t>(j)];
    mj.bnorm = std::sqrt(ops.dot(b.column(j), b.column(j)));
    bool done = false;
    if (mj.bnorm == 0) {
      ex->fill_zero(x.column(j), static_cast<std::size_t>(n) * sizeof(V));
      if (o.record_history) res[static_cast<std::size_t>(j)].history.push_back(0);
      done = mj.stop(SolverStatus::converged, "b = 0: x = 0");
    } else if (!std::isfinite(mj.bnorm)) {
      done = mj.stop(SolverStatus::non_finite, "||b|| is not finite");
    } else {
      done = mj.record(0, std::sqrt(ops.dot(r.column(j), r.column(j))));
    }
    if (ops.preconditioned()) ops.precondition(r.column(j), z.column(j));
    ops.axpby(V(1), zc(j), V(0), p.column(j));
    rz[static_cast<std::size_t>(j)] = ops.dot(r.column(j), zc(j));
    if (done) {
      running[static_cast<std::size_t>(j)] = 0;
      ex->fill_zero(p.column(j), static_cast<std::size_t>(n) * sizeof(V));  // a stopped column's direction: its products are zeros
    }
  }
  const double setup = watch.seconds();
  watch.restart();
  for (int it = 1; it <= o.max_iterations; ++it) {
    if (std::none_of(running.begin(), running.end(), [](char c) { return c != 0; })) break;
    op.apply(V(1), p, V(0), ap);  // one SpMM for every column
    for (long long j = 0; j < k; ++j) {
      const auto jj = static_cast<std::size_t>(j);
      if (!running[jj]) continue;
      auto& mj = m[jj];
      const double pap = ops.dot(p.column(j), ap.column(j));
      bool done = mj.bad_curvature(pap, it);
      if (!done) {
        const double alpha = rz[jj] / pap;
        ops.axpby(static_cast<V>(alpha), p.column(j), V(1), x.column(j));
        ops.axpby(static_cast<V>(-alpha), ap.column(j), V(1), r.column(j));
        const double rnorm = std::sqrt(ops.dot(r.column(j), r.column(j)));
        done = mj.record(it, rnorm);
        if (!done) {
          double rz_new = rnorm * rnorm;
          if (ops.preconditioned()) {
            ops.precondition(r.column(j), z.column(j));
            rz_new = ops.dot(r.column(j), z.column(j));
          }
          const double beta = rz_new / rz[jj];
          rz[jj] = rz_new;
          ops.axpby(V(1), zc(j), static_cast<V>(beta), p.column(j));
        }
      }
      if (done) {
        running[jj] = 0;
        ex->fill_zero(p.column(j), static_cast<std::size_t>(n) * sizeof(V));
      }
    }
    if (o.progress) {  // the worst column still running
      double worst = 0;
      for (long long j = 0; j < k; ++j) {
        if (running[static_cast<std::size_t>(j)]) worst = std::max(worst, res[static_cast<std::size_t>(j)].relative_residual);
      }
      o.progress(it, worst);
    }
  }
  ex->synchronize();
  const double seconds = watch.seconds();
  for (long long j = 0; j < k; ++j) {
    m[static_cast<std::size_t>(j)].out_of_iterations();
    res[static_cast<std::size_t>(j)].seconds = seconds;
    res[static_cast<std::size_t>(j)].setup_seconds = setup;
  }
  return res;
}

template <class V, class I>
double true_relative_residual(const Csr<V, I>& a, std::span<const V> b, std::span<const V> x) {
  check_spmv_sizes(a, x.size(), b.size());
  using S = dot_t<V>;  // double, or complex<double>
  double rr = 0, bb = 0;
  for (I i = 0; i < a.rows; ++i) {
    S s = 0;
    for (auto k = a.row_ptr[static_cast<std::size_t>(i)]; k < a.row_ptr[static_cast<std::size_t>(i) + 1]; ++k) {
      s += static_cast<S>(a.values[static_cast<std::size_t>(k)]) * static_cast<S>(x[static_cast<std::size_t>(a.col_idx[static_cast<std::size_t>(k)])]);
    }
    const S bi = static_cast<S>(b[static_cast<std::size_t>(i)]);
    rr += std::norm(bi - s);
    bb += std::norm(bi);
  }
  return bb == 0 ? std::sqrt(rr) : std::sqrt(rr / bb);
}

#define HSPARSE_INSTANTIATE(V, I)                                                                                                    \
  template SolverResult solve(const Csr<V, I>&, const SpmvPlan<V, I>&, const Array<V>&, Array<V>&, const SolverOptions&);            \
  template SolverResult solve(const Csr<V, I>&, const SpmvPlan<V, I>&, std::span<const V>, std::span<V>, const SolverOptions&); \
  template double true_relative_residual(const Csr<V, I>&, std::span<const V>, std::span<const V>);                            \
  template std::vector<SolverResult> solve_many(const Csr<V, I>&, const SpmvPlan<V, I>&, const DenseMatrix<V>&, DenseMatrix<V>&, const SolverOptions&);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE
// Complex systems: CG (Hermitian positive definite), GMRES and BiCGStab, on the CPU.
#define HSPARSE_INSTANTIATE_COMPLEX(V, I)                                                                                    \
  template SolverResult solve(const Csr<V, I>&, const SpmvPlan<V, I>&, const Array<V>&, Array<V>&, const SolverOptions&); \
  template SolverResult solve(const Csr<V, I>&, const SpmvPlan<V, I>&, std::span<const V>, std::span<V>, const SolverOptions&); \
  template double true_relative_residual(const Csr<V, I>&, std::span<const V>, std::span<const V>);
HSPARSE_FOR_EACH_COMPLEX_VALUE_INDEX(HSPARSE_INSTANTIATE_COMPLEX)
#undef HSPARSE_INSTANTIATE_COMPLEX
template SolverResult solve(const LinearOperator<float>&, const std::vector<float>&, const Array<float>&, Array<float>&, const SolverOptions&);
template SolverResult solve(const LinearOperator<double>&, const std::vector<double>&, const Array<double>&, Array<double>&, const SolverOptions&);

}  // namespace hsparse
