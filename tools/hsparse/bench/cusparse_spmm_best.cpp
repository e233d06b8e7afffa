// The fastest correct cuSPARSE SpMM (cusparse_spmm_best.hpp).
#include "cusparse_spmm_best.hpp"

#include <algorithm>
#include <complex>
#include <cstdio>
#include <limits>

#include "call_timing.hpp"
#include "hsparse/backends/cuda/cusparse_spmv.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::bench {

template <class V, class I>
std::optional<SpmmBaseline> fastest_cusparse_spmm(const Executor& ex, const cuda::DeviceCsr<V, I>& a_device, const Csr<V, I>& a, const std::vector<V>& xh,
                                                  const DenseMatrix<V>& x, DenseMatrix<V>& y, const std::vector<V>& expect, double min_time_s,
                                                  int min_repetitions, const std::atomic<bool>* stop) {
  const long long k = x.cols();
  // X stored row by row, as a user of the row-major variants holds it (the transposition is not timed): X^T column-major, k x cols.
  std::vector<V> xr(xh.size());
  for (long long j = 0; j < k; ++j)
    for (long long i = 0; i < a.cols; ++i) xr[static_cast<std::size_t>(i * k + j)] = xh[static_cast<std::size_t>(j * a.cols + i)];
  const DenseMatrix<V> xt(y.executor(), k, a.cols, std::span<const V>(xr));
  DenseMatrix<V> yt(y.executor(), k, a.rows);
  const double bound = std::is_same_v<real_type_t<V>, float> ? 1e-4 : 1e-10;  // hsparse's own SpMM is held to the same
  std::optional<SpmmBaseline> best;
  for (const auto& variant : cuda::cusparse_spmm_variants()) {
    if (stop && *stop) break;
    const bool row_major = variant.order == cuda::DenseOrder::row_major;
    DenseMatrix<V>& out = row_major ? yt : y;
    try {
      // NaN first (beta = 0 must not read Y, and every entry must be written); before the baseline takes Y's address: this replaces Y's array.
      const std::vector<V> nan(static_cast<std::size_t>(out.rows() * out.cols()), V(std::numeric_limits<real_type_t<V>>::quiet_NaN()));
      out = DenseMatrix<V>(out.executor(), out.rows(), out.cols(), std::span<const V>(nan));
      const cuda::CusparseSpmm<V, I> baseline(cuda_executor(ex, "the cuSPARSE SpMM"), a_device, row_major ? xt.view() : x.view(), out.view(), variant);
      baseline.apply(V(1), V(0));
      ex.synchronize();
      const auto got = out.to_host();
      double worst = 0;
      for (long long j = 0; j < k; ++j) {
        for (long long i = 0; i < a.rows; ++i) {
          const auto e = std::complex<double>(expect[static_cast<std::size_t>(j * a.rows + i)]);
          const auto g = std::complex<double>(got[static_cast<std::size_t>(row_major ? i * k + j : j * a.rows + i)]);
          worst = std::max(worst, std::abs(g - e) / std::max(1.0, std::abs(e)));
        }
      }
      if (!(worst <= bound)) {
        std::printf("    cuSPARSE SpMM %-22s relative difference %.3g from the reference (bound %.0e): not taken as the baseline\n", variant.name().c_str(),
                    worst, bound);
        continue;
      }
      const TimingSummary t = time_calls(ex, [&] { baseline.apply(V(1), V(0)); }, min_time_s, min_repetitions);
      std::printf("    cuSPARSE SpMM %-22s %10.3f ms\n", variant.name().c_str(), t.median_s * 1e3);
      if (!best || t.median_s < best->timing.median_s) best = SpmmBaseline{variant.name(), t};
    } catch (const Error& e) {
      std::printf("    cuSPARSE SpMM %-22s not run: %s\n", variant.name().c_str(), e.what());
    }
  }
  return best;
}

#define HSPARSE_INSTANTIATE(V, I)                                                                                                                   \
  template std::optional<SpmmBaseline> fastest_cusparse_spmm<V, I>(const Executor&, const cuda::DeviceCsr<V, I>&, const Csr<V, I>&,             \
                                                                   const std::vector<V>&, const DenseMatrix<V>&, DenseMatrix<V>&,              \
                                                                   const std::vector<V>&, double, int, const std::atomic<bool>*);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::bench
