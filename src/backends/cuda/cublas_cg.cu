// The benchmark's baseline CG (backends/cuda/cublas_cg.hpp): cuSPARSE CSR SpMV +
// cuBLAS dot/axpy/scal/copy, host pointer mode, so every dot waits for the
// GPU: the "BLAS-based implementation" of Rupp's lecture, and the issue's
// anchor (72 us per iteration at 10^4 unknowns on an H200).
#include "baseline_common.cuh"
#include "cublas_handle.hpp"
#include "hsparse/backends/cuda/cusparse_spmv.hpp"
#include "hsparse/backends/cuda/device_formats.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/backends/cuda/cublas_cg.hpp"

namespace hsparse::cuda {

template <class V>
BaselineCgResult cusparse_cublas_cg(const Executor& ex, const Csr<V, std::int32_t>& a, const V* b, V* x, double tolerance, int max_iterations,
                                    bool record_history) {
  if (a.rows != a.cols) throw Error(ErrorCode::invalid_argument, "CG needs a square matrix");
  baseline::Progress run(tolerance, record_history);
  const auto m = DeviceCsr<V, std::int32_t>::upload(a);
  const CusparseSpmv<V, std::int32_t> spmv(ex, m, CusparseAlgorithm::csr_alg1, true);
  const baseline::Blas blas{cublas_handle(ex), a.rows};
  const std::size_t n = static_cast<std::size_t>(a.rows);
  DeviceArray<V> r(n), p(n), ap(n);
  if (run.trivial_right_hand_side(blas.dot(b, b))) return run.result();
  blas.copy(b, r.data());
  spmv.apply(V(-1), x, V(1), r.data());
  double rr = blas.dot(r.data(), r.data());
  blas.copy(r.data(), p.data());
  run.start_iterations(rr);
  for (int k = 1; k <= max_iterations && !run.converged(); ++k) {
    spmv.apply(V(1), p.data(), V(0), ap.data());
    const double pap = blas.dot(p.data(), ap.data());
    if (!run.holds(pap > 0, pap, "(p, Ap)", k)) break;
    const double alpha = rr / pap;
    blas.axpy(static_cast<V>(alpha), p.data(), x);
    blas.axpy(static_cast<V>(-alpha), ap.data(), r.data());
    const double rr_new = blas.dot(r.data(), r.data());
    if (!run.record(k, rr_new)) break;
    blas.scal(static_cast<V>(rr_new / rr), p.data());
    blas.axpy(V(1), r.data(), p.data());
    rr = rr_new;
  }
  return run.finish(ex, "cuSPARSE + cuBLAS CG");
}

template BaselineCgResult cusparse_cublas_cg(const Executor&, const Csr<float, std::int32_t>&, const float*, float*, double, int, bool);
template BaselineCgResult cusparse_cublas_cg(const Executor&, const Csr<double, std::int32_t>&, const double*, double*, double, int, bool);

}  // namespace hsparse::cuda
