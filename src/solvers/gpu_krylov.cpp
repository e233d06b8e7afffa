// The Krylov solvers on the GPU: CG and GMRES are krylov_algorithms.hpp with
// device vectors and the CUDA vector kernels; pipelined CG is the
// device-resident version (backends/cuda/pipelined_cg.cu).
#include "hsparse/solvers/gpu_krylov.hpp"

#include "../backends/cuda/pipelined_cg.hpp"
#include "hsparse/backends/cuda/vector_ops.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/solvers/cpu_krylov.hpp"
#include "krylov_algorithms.hpp"

namespace hsparse::cuda {

namespace {

template <class V, class I>
class GpuKrylovOps {
 public:
  using value_type = V;
  using Vector = DeviceArray<V>;

  GpuKrylovOps(const Executor& ex, const GpuSpmvPlan<V, I>& op, long long n, const V* dinv) : ex_(ex), op_(op), n_(n), dinv_(dinv) {}

  Vector vector() const {
    Vector v(static_cast<std::size_t>(n_));
    fill_zero<V>(ex_, n_, v.data());
    return v;
  }
  void spmv(const Vector& in, Vector& out) const { op_.apply(V(1), in.data(), V(0), out.data()); }
  void residual(const Vector& b, const Vector& x, Vector& r) const {
    cuda::axpby<V>(ex_, n_, V(1), b.data(), V(0), r.data());
    op_.apply(V(-1), x.data(), V(1), r.data());
  }
  double dot(const Vector& a, const Vector& b) const { return dot_host<V>(ex_, n_, a.data(), b.data(), scratch_); }
  double norm(const Vector& a) const { return std::sqrt(dot(a, a)); }
  void axpy(V a, const Vector& x, Vector& y) const { cuda::axpby<V>(ex_, n_, a, x.data(), V(1), y.data()); }
  void axpby(V a, const Vector& x, V b, Vector& y) const { cuda::axpby<V>(ex_, n_, a, x.data(), b, y.data()); }
  void copy(const Vector& src, Vector& dst) const { cuda::axpby<V>(ex_, n_, V(1), src.data(), V(0), dst.data()); }
  void zero(Vector& x) const { fill_zero<V>(ex_, n_, x.data()); }
  bool preconditioned() const { return dinv_ != nullptr; }
  void precondition(const Vector& r, Vector& z) const { scale_by<V>(ex_, n_, dinv_, r.data(), z.data()); }
  void mdot(const Vector& w, const std::vector<const Vector*>& basis, std::span<double> out) const {
    mdot_host<V>(ex_, n_, w.data(), pointers(basis), out, scratch_);
  }
  void maxpy_sub(std::span<const double> coef, const std::vector<const Vector*>& basis, Vector& w) const {
    cuda::maxpy_sub<V>(ex_, n_, coef, pointers(basis), w.data());
  }
  // Not used: the GPU's pipelined CG is pipelined_cg_on_device.
  PipelinedCgUpdateDots pipelined_update(V, V, const Vector&, Vector&, Vector&, Vector&, Vector&) const { return {}; }
  PipelinedCgSpmvDots pipelined_spmv_dots(const Vector&, Vector&) const { return {}; }

 private:
  static std::vector<const V*> pointers(const std::vector<const Vector*>& basis) {
    std::vector<const V*> p;
    for (const Vector* v : basis) p.push_back(v->data());
    return p;
  }
  const Executor& ex_;
  const GpuSpmvPlan<V, I>& op_;
  long long n_;
  const V* dinv_;
  mutable ReductionScratch scratch_;
};

}  // namespace

template <class V, class I>
SolverResult solve(const Executor& ex, const Csr<V, I>& a, const GpuSpmvPlan<V, I>& op, const V* b, V* x, const SolverOptions& o) {
  if (a.rows != a.cols) {
    throw Error(ErrorCode::invalid_argument, "a Krylov solve needs a square matrix, not " + std::to_string(a.rows) + " x " + std::to_string(a.cols));
  }
  if (o.tolerance < 0 || o.max_iterations < 0 || o.restart < 1) {
    throw Error(ErrorCode::invalid_argument, "solver options: tolerance and max_iterations must be >= 0, restart >= 1");
  }
  Stopwatch setup;
  const long long n = a.rows;
  DeviceArray<V> dinv;
  if (o.preconditioner == Preconditioner::jacobi) dinv = DeviceArray<V>(inverse_diagonal(a));
  const V* d = o.preconditioner == Preconditioner::jacobi ? dinv.data() : nullptr;
  const double jacobi_s = setup.seconds();
  SolverResult r;
  if (o.method == KrylovMethod::pipelined_cg) {
    const std::function<void(const V*, V*)> spmv = [&op](const V* in, V* out) { op.apply(V(1), in, V(0), out); };
    r = pipelined_cg_on_device<V>(ex, n, spmv, d, b, x, o);
  } else {
    GpuKrylovOps<V, I> ops(ex, op, n, d);
    DeviceArray<V> bv = ops.vector(), xv = ops.vector();
    cuda::axpby<V>(ex, n, V(1), b, V(0), bv.data());
    cuda::axpby<V>(ex, n, V(1), x, V(0), xv.data());
    r = o.method == KrylovMethod::cg ? hsparse::detail::krylov_cg(ops, bv, xv, o) : hsparse::detail::krylov_gmres(ops, bv, xv, o);
    cuda::axpby<V>(ex, n, V(1), xv.data(), V(0), x);
    ex.synchronize();
  }
  r.setup_seconds += jacobi_s;
  return r;
}

#define HSPARSE_INSTANTIATE(V, I) \
  template SolverResult solve(const Executor&, const Csr<V, I>&, const GpuSpmvPlan<V, I>&, const V*, V*, const SolverOptions&);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
