// The Krylov solvers on the CPU: the algorithms of krylov_algorithms.hpp
// with host vectors, a CpuSpmvPlan and the OpenMP vector kernels.
#include "hsparse/solvers/cpu_krylov.hpp"

#include <cmath>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "krylov_algorithms.hpp"

namespace hsparse {

namespace {

template <class V, class I>
class CpuKrylovOps {
 public:
  using value_type = V;
  using Vector = std::vector<V>;

  CpuKrylovOps(const CpuSpmvPlan<V, I>& op, std::size_t n, std::vector<V> dinv) : op_(op), n_(n), dinv_(std::move(dinv)) {}

  Vector vector() const { return Vector(n_, V(0)); }
  void spmv(const Vector& in, Vector& out) const { op_.apply(V(1), in, V(0), out); }
  void residual(const Vector& b, const Vector& x, Vector& r) const {
    std::copy(b.begin(), b.end(), r.begin());
    op_.apply(V(-1), x, V(1), r);
  }
  double dot(const Vector& a, const Vector& b) const { return openmp::dot<V>(a, b); }
  double norm(const Vector& a) const { return openmp::norm2<V>(a); }
  void axpy(V a, const Vector& x, Vector& y) const { openmp::axpy<V>(a, x, y); }
  void axpby(V a, const Vector& x, V b, Vector& y) const { openmp::axpby<V>(a, x, b, y); }
  void copy(const Vector& src, Vector& dst) const { openmp::axpby<V>(V(1), src, V(0), dst); }
  void zero(Vector& x) const { std::fill(x.begin(), x.end(), V(0)); }
  bool preconditioned() const { return !dinv_.empty(); }
  void precondition(const Vector& r, Vector& z) const {
    const auto n = static_cast<long long>(n_);
#pragma omp parallel for simd schedule(static)
    for (long long i = 0; i < n; ++i) z[static_cast<std::size_t>(i)] = dinv_[static_cast<std::size_t>(i)] * r[static_cast<std::size_t>(i)];
  }
  PipelinedCgUpdateDots pipelined_update(V alpha, V beta, const Vector& ap, Vector& x, Vector& r, Vector& z, Vector& p) const {
    return openmp::pipelined_cg_update<V>(alpha, beta, ap, dinv_, x, r, z, p);
  }
  PipelinedCgSpmvDots pipelined_spmv_dots(const Vector& p, Vector& ap) const {
    spmv(p, ap);
    return openmp::pipelined_cg_dots<V>(p, ap, dinv_);
  }
  void mdot(const Vector& w, const std::vector<const Vector*>& basis, std::span<double> out) const {
    openmp::mdot<V>(w, pointers(basis), out);
  }
  void maxpy_sub(std::span<const double> coef, const std::vector<const Vector*>& basis, Vector& w) const {
    openmp::maxpy_sub<V>(coef, pointers(basis), w);
  }

 private:
  static std::vector<const V*> pointers(const std::vector<const Vector*>& basis) {
    std::vector<const V*> p;
    for (const Vector* v : basis) p.push_back(v->data());
    return p;
  }
  const CpuSpmvPlan<V, I>& op_;
  std::size_t n_;
  std::vector<V> dinv_;
};

}  // namespace

template <class V, class I>
SolverResult solve(const Csr<V, I>& a, const CpuSpmvPlan<V, I>& op, std::span<const V> b, std::span<V> x, const SolverOptions& o) {
  if (a.rows != a.cols) {
    throw Error(ErrorCode::invalid_argument, "a Krylov solve needs a square matrix, not " + std::to_string(a.rows) + " x " + std::to_string(a.cols));
  }
  check_spmv_sizes(a, x.size(), b.size());
  if (o.tolerance < 0 || o.max_iterations < 0 || o.restart < 1) {
    throw Error(ErrorCode::invalid_argument, "solver options: tolerance and max_iterations must be >= 0, restart >= 1");
  }
  Stopwatch setup;
  CpuKrylovOps<V, I> ops(op, x.size(), o.preconditioner == Preconditioner::jacobi ? inverse_diagonal(a) : std::vector<V>{});
  const std::vector<V> bv(b.begin(), b.end());
  std::vector<V> xv(x.begin(), x.end());
  const double jacobi_s = setup.seconds();
  SolverResult r = o.method == KrylovMethod::cg             ? detail::krylov_cg(ops, bv, xv, o)
                   : o.method == KrylovMethod::pipelined_cg ? detail::krylov_pipelined_cg(ops, bv, xv, o)
                                                            : detail::krylov_gmres(ops, bv, xv, o);
  r.setup_seconds += jacobi_s;
  std::copy(xv.begin(), xv.end(), x.begin());
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

#define HSPARSE_INSTANTIATE(V, I)                                                                                              \
  template SolverResult solve(const Csr<V, I>&, const CpuSpmvPlan<V, I>&, std::span<const V>, std::span<V>, const SolverOptions&); \
  template double true_relative_residual(const Csr<V, I>&, std::span<const V>, std::span<const V>);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
