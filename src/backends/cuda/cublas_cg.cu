// The benchmark's baseline CG (backends/cuda/cublas_cg.hpp): cuSPARSE CSR SpMV +
// cuBLAS dot/axpy/scal/copy, host pointer mode, so every dot waits for the
// GPU: the "BLAS-based implementation" of Rupp's lecture, and the issue's
// anchor (72 us per iteration at 10^4 unknowns on an H200).
#include <cublas_v2.h>

#include <cmath>
#include <string>

#include "cublas_handle.hpp"
#include "device_common.cuh"
#include "hsparse/backends/cuda/cusparse_spmv.hpp"
#include "hsparse/backends/cuda/device_formats.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/backends/cuda/cublas_cg.hpp"

namespace hsparse::cuda {

namespace {
void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw Error(ErrorCode::cuda, std::string("cuBLAS ") + what + " failed (status " + std::to_string(static_cast<int>(s)) + ")");
}
// The four cuBLAS calls CG needs, for float and double.
struct Blas {
  cublasHandle_t h;
  int n;
  double dot(const double* a, const double* b) const { double r; check(cublasDdot(h, n, a, 1, b, 1, &r), "dot"); return r; }
  double dot(const float* a, const float* b) const { float r; check(cublasSdot(h, n, a, 1, b, 1, &r), "dot"); return r; }
  void axpy(double a, const double* x, double* y) const { check(cublasDaxpy(h, n, &a, x, 1, y, 1), "axpy"); }
  void axpy(float a, const float* x, float* y) const { check(cublasSaxpy(h, n, &a, x, 1, y, 1), "axpy"); }
  void scal(double a, double* x) const { check(cublasDscal(h, n, &a, x, 1), "scal"); }
  void scal(float a, float* x) const { check(cublasSscal(h, n, &a, x, 1), "scal"); }
  void copy(const double* x, double* y) const { check(cublasDcopy(h, n, x, 1, y, 1), "copy"); }
  void copy(const float* x, float* y) const { check(cublasScopy(h, n, x, 1, y, 1), "copy"); }
};
}  // namespace

namespace {
const char* stop_name(BaselineCgResult::Stop s) {
  switch (s) {
    case BaselineCgResult::Stop::converged: return "converged";
    case BaselineCgResult::Stop::max_iterations: return "max_iterations";
    case BaselineCgResult::Stop::breakdown: return "breakdown";
    case BaselineCgResult::Stop::non_finite: return "non_finite";
  }
  return "?";
}
}  // namespace

template <class V>
BaselineCgResult cusparse_cublas_cg(const Executor& ex, const Csr<V, std::int32_t>& a, const V* b, V* x, double tolerance, int max_iterations,
                                    bool record_history) {
  if (a.rows != a.cols) throw Error(ErrorCode::invalid_argument, "CG needs a square matrix");
  using Stop = BaselineCgResult::Stop;
  BaselineCgResult res;
  Stopwatch watch;
  const auto m = DeviceCsr<V, std::int32_t>::upload(a);
  const CusparseSpmv<V, std::int32_t> spmv(ex, m, CusparseAlgorithm::csr_alg1, true);
  const Blas blas{cublas_handle(ex), a.rows};
  const std::size_t n = static_cast<std::size_t>(a.rows);
  DeviceArray<V> r(n), p(n), ap(n);
  const double bnorm = std::sqrt(static_cast<double>(blas.dot(b, b)));
  if (bnorm == 0 || !std::isfinite(bnorm)) {
    res.stop = bnorm == 0 ? Stop::converged : Stop::non_finite;
    res.message = "trivial right-hand side";
    return res;
  }
  blas.copy(b, r.data());
  spmv.apply(V(-1), x, V(1), r.data());
  double rr = blas.dot(r.data(), r.data());
  blas.copy(r.data(), p.data());
  res.setup_seconds = watch.seconds();
  watch.restart();
  res.relative_residual = std::sqrt(rr) / bnorm;
  if (record_history) res.history.push_back(res.relative_residual);
  res.stop = Stop::max_iterations;
  for (int k = 1; k <= max_iterations && res.relative_residual > tolerance; ++k) {
    spmv.apply(V(1), p.data(), V(0), ap.data());
    const double pap = blas.dot(p.data(), ap.data());
    if (!(pap > 0) || !std::isfinite(pap)) {
      res.stop = std::isfinite(pap) ? Stop::breakdown : Stop::non_finite;
      break;
    }
    const double alpha = rr / pap;
    blas.axpy(static_cast<V>(alpha), p.data(), x);
    blas.axpy(static_cast<V>(-alpha), ap.data(), r.data());
    const double rr_new = blas.dot(r.data(), r.data());
    res.iterations = k;
    res.relative_residual = std::sqrt(rr_new) / bnorm;
    if (record_history) res.history.push_back(res.relative_residual);
    if (!std::isfinite(rr_new)) {
      res.stop = Stop::non_finite;
      break;
    }
    blas.scal(static_cast<V>(rr_new / rr), p.data());
    blas.axpy(V(1), r.data(), p.data());
    rr = rr_new;
  }
  if (res.relative_residual <= tolerance) res.stop = Stop::converged;
  ex.synchronize();
  res.seconds = watch.seconds();
  res.message = std::string("cuSPARSE + cuBLAS CG: ") + stop_name(res.stop);
  return res;
}

template BaselineCgResult cusparse_cublas_cg(const Executor&, const Csr<float, std::int32_t>&, const float*, float*, double, int, bool);
template BaselineCgResult cusparse_cublas_cg(const Executor&, const Csr<double, std::int32_t>&, const double*, double*, double, int, bool);

}  // namespace hsparse::cuda
