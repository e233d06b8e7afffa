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

template <class V>
SolverResult cusparse_cublas_cg(const Executor& ex, const Csr<V, std::int32_t>& a, const V* b, V* x, const SolverOptions& o) {
  if (a.rows != a.cols) throw Error(ErrorCode::invalid_argument, "CG needs a square matrix");
  SolverResult res;
  Stopwatch watch;
  const auto m = DeviceCsr<V, std::int32_t>::upload(a);
  const CusparseSpmv<V, std::int32_t> spmv(ex, m, CusparseAlgorithm::csr_alg1, true);
  const Blas blas{cublas_handle(ex), a.rows};
  const std::size_t n = static_cast<std::size_t>(a.rows);
  DeviceArray<V> r(n), p(n), ap(n);
  const double bnorm = std::sqrt(static_cast<double>(blas.dot(b, b)));
  if (bnorm == 0 || !std::isfinite(bnorm)) {
    res.status = bnorm == 0 ? SolverStatus::converged : SolverStatus::non_finite;
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
  if (o.record_history) res.history.push_back(res.relative_residual);
  res.status = SolverStatus::max_iterations;
  for (int k = 1; k <= o.max_iterations && res.relative_residual > o.tolerance; ++k) {
    spmv.apply(V(1), p.data(), V(0), ap.data());
    const double pap = blas.dot(p.data(), ap.data());
    if (!(pap > 0) || !std::isfinite(pap)) {
      res.status = std::isfinite(pap) ? SolverStatus::breakdown : SolverStatus::non_finite;
      break;
    }
    const double alpha = rr / pap;
    blas.axpy(static_cast<V>(alpha), p.data(), x);
    blas.axpy(static_cast<V>(-alpha), ap.data(), r.data());
    const double rr_new = blas.dot(r.data(), r.data());
    res.iterations = k;
    res.relative_residual = std::sqrt(rr_new) / bnorm;
    if (o.record_history) res.history.push_back(res.relative_residual);
    if (!std::isfinite(rr_new)) {
      res.status = SolverStatus::non_finite;
      break;
    }
    blas.scal(static_cast<V>(rr_new / rr), p.data());
    blas.axpy(V(1), r.data(), p.data());
    rr = rr_new;
  }
  if (res.relative_residual <= o.tolerance) res.status = SolverStatus::converged;
  ex.synchronize();
  res.seconds = watch.seconds();
  res.message = std::string("cuSPARSE + cuBLAS CG: ") + to_string(res.status);
  return res;
}

template SolverResult cusparse_cublas_cg(const Executor&, const Csr<float, std::int32_t>&, const float*, float*, const SolverOptions&);
template SolverResult cusparse_cublas_cg(const Executor&, const Csr<double, std::int32_t>&, const double*, double*, const SolverOptions&);

}  // namespace hsparse::cuda
