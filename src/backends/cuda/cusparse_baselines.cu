// The solver benchmark's preconditioned baselines (backends/cuda/cusparse_baselines.hpp):
// PCG and right-preconditioned BiCGStab from cuSPARSE's CSR SpMV (ALG1,
// preprocessed, as the CG baseline), cuBLAS level-1 calls in host pointer
// mode (every dot waits for the GPU, as in cublas_cg.cu) and cuSPARSE's
// ILU(0) / IC(0) applied by SpSV (cusparse_incomplete_factor.cu). One
// stream (the executor's) orders everything.
#include <cstdint>
#include <memory>
#include <string>

#include "baseline_common.cuh"
#include "cublas_handle.hpp"
#include "cusparse_incomplete_factor.hpp"
#include "hsparse/backends/cuda/cusparse_baselines.hpp"
#include "hsparse/backends/cuda/cusparse_spmv.hpp"
#include "hsparse/backends/cuda/device_formats.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda {

namespace {

// The triangular-solve pair a Krylov baseline times when asked (after its iterations).
constexpr int pair_repetitions = 10;

// What both methods set up alike, all of it setup time: the matrix on the
// device, cuSPARSE's SpMV on it, the incomplete factors when asked for,
// and cuBLAS on the executor's stream.
template <class V>
struct System {
  DeviceCsr<V, std::int32_t> m;
  CusparseSpmv<V, std::int32_t> spmv;
  std::unique_ptr<CusparseIncompleteFactor<V>> factor;  // null: no preconditioner
  baseline::Blas blas;
  std::size_t n;

  System(const Executor& ex, const Csr<V, std::int32_t>& a, BaselinePreconditioner pre, BaselineFactorTimes* times)
      : m(DeviceCsr<V, std::int32_t>::upload(a)),
        spmv(ex, m, CusparseAlgorithm::csr_alg1, true),
        factor(pre == BaselinePreconditioner::none ? nullptr : std::make_unique<CusparseIncompleteFactor<V>>(ex, m, pre, times)),
        blas{cublas_handle(ex), a.rows},
        n(static_cast<std::size_t>(a.rows)) {}

  // A work vector that only a preconditioned run needs.
  DeviceArray<V> preconditioned_vector() const { return DeviceArray<V>(factor ? n : 0); }
  // M^-1 v into out; v itself without a preconditioner (out is not touched).
  const V* precondition(const V* v, DeviceArray<V>& out) const {
    if (!factor) return v;
    factor->apply(v, out.data());
    return out.data();
  }
  // r = b - A x.
  void residual(const V* b, const V* x, V* r) const {
    blas.copy(b, r);
    spmv.apply(V(-1), x, V(1), r);
  }
  // One triangular-solve pair's time into times (when asked for), on in.
  void time_pair(const V* in, BaselineFactorTimes* times) const {
    if (!times || !factor) return;
    DeviceArray<V> out(n);
    times->triangular_pair_seconds = factor->seconds_per_apply(in, out.data(), pair_repetitions);
  }
};

void check_square(std::int32_t rows, std::int32_t cols, const char* what) {
  if (rows != cols) throw Error(ErrorCode::invalid_argument, std::string(what) + " needs a square matrix");
}

// What both methods do around their iterations: the setup (timed as such),
// the trivial right-hand side, iterate(sys, run) (from x to the stop), the
// result's message, and the triangular-solve pair's time (after the run,
// counted in neither part).
template <class V, class Iterate>
BaselineCgResult run_baseline(const char* method, const Executor& ex, const Csr<V, std::int32_t>& a, BaselinePreconditioner pre, const V* b,
                              double tolerance, bool record_history, BaselineFactorTimes* times, const Iterate& iterate) {
  check_square(a.rows, a.cols, method);
  baseline::Progress run(tolerance, record_history);
  const System<V> sys(ex, a, pre, times);
  if (run.trivial_right_hand_side(sys.blas.dot(b, b))) return run.result();
  iterate(sys, run);
  auto result = run.finish(ex, std::string("cuSPARSE + cuBLAS ") + method + " (" + preconditioner_name(pre) + ")");
  sys.time_pair(b, times);
  return result;
}

}  // namespace

// Saad, Alg. 9.1, with rho = (r, z); the test is on ||r||, z = M^-1 r.
template <class V>
BaselineCgResult cusparse_cublas_pcg(const Executor& ex, const Csr<V, std::int32_t>& a, BaselinePreconditioner pre, const V* b, V* x, double tolerance,
                                     int max_iterations, bool record_history, BaselineFactorTimes* times) {
  return run_baseline("PCG", ex, a, pre, b, tolerance, record_history, times, [&](const System<V>& sys, baseline::Progress& run) {
    const baseline::Blas& blas = sys.blas;
    DeviceArray<V> r(sys.n), p(sys.n), ap(sys.n), z_work = sys.preconditioned_vector();
    sys.residual(b, x, r.data());
    const V* z = sys.precondition(r.data(), z_work);
    double rz = blas.dot(r.data(), z);
    blas.copy(z, p.data());
    run.start_iterations(sys.factor ? blas.dot(r.data(), r.data()) : rz);
    for (int k = 1; k <= max_iterations && !run.converged(); ++k) {
      sys.spmv.apply(V(1), p.data(), V(0), ap.data());
      const double pap = blas.dot(p.data(), ap.data());
      if (!run.holds(pap > 0, pap, "(p, Ap)", k)) break;
      const double alpha = rz / pap;
      blas.axpy(static_cast<V>(alpha), p.data(), x);
      blas.axpy(static_cast<V>(-alpha), ap.data(), r.data());
      const double rr = blas.dot(r.data(), r.data());
      if (!run.record(k, rr) || run.converged()) break;
      z = sys.precondition(r.data(), z_work);
      const double rz_next = sys.factor ? blas.dot(r.data(), z) : rr;
      if (!run.holds(rz_next > 0, rz_next, "(r, M^-1 r)", k)) break;
      blas.scal(static_cast<V>(rz_next / rz), p.data());  // p = z + beta p
      blas.axpy(V(1), z, p.data());
      rz = rz_next;
    }
  });
}

// Saad, Alg. 7.7, on A M^-1 (right preconditioning): p^ = M^-1 p and
// s^ = M^-1 s take p's and s's place in the products and in x's update, and
// r stays b - A x. s is kept in r's vector.
template <class V>
BaselineCgResult cusparse_cublas_bicgstab(const Executor& ex, const Csr<V, std::int32_t>& a, BaselinePreconditioner pre, const V* b, V* x,
                                          double tolerance, int max_iterations, bool record_history, BaselineFactorTimes* times) {
  return run_baseline("BiCGStab", ex, a, pre, b, tolerance, record_history, times, [&](const System<V>& sys, baseline::Progress& run) {
    const baseline::Blas& blas = sys.blas;
    DeviceArray<V> r(sys.n), r0(sys.n), p(sys.n), v(sys.n), t(sys.n);
    DeviceArray<V> p_work = sys.preconditioned_vector(), s_work = sys.preconditioned_vector();
    sys.residual(b, x, r.data());
    blas.copy(r.data(), r0.data());
    blas.copy(r.data(), p.data());
    double rho = blas.dot(r0.data(), r.data());
    run.start_iterations(rho);
    for (int k = 1; k <= max_iterations && !run.converged(); ++k) {
      const V* p_hat = sys.precondition(p.data(), p_work);
      sys.spmv.apply(V(1), p_hat, V(0), v.data());
      const double r0v = blas.dot(r0.data(), v.data());
      if (!run.holds(r0v != 0, r0v, "(r0hat, v)", k)) break;
      const double alpha = rho / r0v;
      blas.axpy(static_cast<V>(-alpha), v.data(), r.data());  // r holds s = r - alpha v
      blas.axpy(static_cast<V>(alpha), p_hat, x);
      const double ss = blas.dot(r.data(), r.data());
      if (run.converged_at(ss)) {  // the half step meets the test: x is done
        run.record(k, ss);
        break;
      }
      const V* s_hat = sys.precondition(r.data(), s_work);
      sys.spmv.apply(V(1), s_hat, V(0), t.data());
      const double tt = blas.dot(t.data(), t.data());
      if (!run.holds(tt != 0, tt, "(t, t)", k)) break;
      const double omega = blas.dot(t.data(), r.data()) / tt;
      if (!run.holds(omega != 0, omega, "omega = (t, s) / (t, t)", k)) break;
      blas.axpy(static_cast<V>(omega), s_hat, x);
      blas.axpy(static_cast<V>(-omega), t.data(), r.data());
      if (!run.record(k, blas.dot(r.data(), r.data())) || run.converged()) break;
      const double rho_next = blas.dot(r0.data(), r.data());
      if (!run.holds(rho_next != 0, rho_next, "rho = (r0hat, r)", k)) break;
      blas.axpy(static_cast<V>(-omega), v.data(), p.data());  // p = r + beta (p - omega v)
      blas.scal(static_cast<V>((rho_next / rho) * (alpha / omega)), p.data());
      blas.axpy(V(1), r.data(), p.data());
      rho = rho_next;
    }
  });
}

template <class V>
BaselineFactorTimes cusparse_factor_and_apply(const Executor& ex, const Csr<V, std::int32_t>& a, BaselinePreconditioner pre, const V* b, V* x,
                                              int repetitions) {
  if (pre == BaselinePreconditioner::none) {
    throw Error(ErrorCode::invalid_argument, "cusparse_factor_and_apply: the preconditioner must be ilu0 or ic0, not none");
  }
  if (repetitions < 1) throw Error(ErrorCode::invalid_argument, "cusparse_factor_and_apply: repetitions must be >= 1");
  BaselineFactorTimes times;
  const auto m = DeviceCsr<V, std::int32_t>::upload(a);
  const CusparseIncompleteFactor<V> factor(ex, m, pre, &times);
  times.triangular_pair_seconds = factor.seconds_per_apply(b, x, repetitions);
  ex.synchronize();
  return times;
}

#define HSPARSE_INSTANTIATE(V)                                                                                                                    \
  template BaselineCgResult cusparse_cublas_pcg(const Executor&, const Csr<V, std::int32_t>&, BaselinePreconditioner, const V*, V*, double, int, bool, \
                                                BaselineFactorTimes*);                                                                            \
  template BaselineCgResult cusparse_cublas_bicgstab(const Executor&, const Csr<V, std::int32_t>&, BaselinePreconditioner, const V*, V*, double, int,  \
                                                     bool, BaselineFactorTimes*);                                                                 \
  template BaselineFactorTimes cusparse_factor_and_apply(const Executor&, const Csr<V, std::int32_t>&, BaselinePreconditioner, const V*, V*, int);
HSPARSE_INSTANTIATE(float)
HSPARSE_INSTANTIATE(double)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
