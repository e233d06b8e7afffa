// SELL-C-sigma on the CPU: its registration and builder
// (kernels/spmv_registry.hpp). The model (0.95 of the read bandwidth, x's
// gathers at 0.95) is compared with CSR's in plans/csr.cpp. The model does
// not see that sorting all rows (the sigma storing least on circuit's hub
// rows) costs x's locality: circuit's SELL then ran at 0.90x CSR's speed,
// and auto's total there was 89% of the best.
#include <vector>

#include "format_plan.hpp"

#include "hsparse/core/host_system.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/kernels/block_format_spmm.hpp"
#include "hsparse/kernels/format_spmv.hpp"

namespace hsparse::openmp {

BackendFormat registration_sell() {
  return {{{"auto", "the fastest of the SIMD kernel this CPU has and the portable one, timed at setup", {"sigma=1", "sigma=256"}},
           {"avx512", "AVX-512 intrinsics, one lane per chunk row (real values)", {}},
           {"avx2", "AVX2 intrinsics (real values)", {}},
           {"portable", "compiler-vectorised scalar loads", {}},
           reference_kernel()},
          {[](int) { return 0.95; }, rows, kConversion, 0, nullptr, 0.95}};
}

namespace {

// The SIMD width of the kernel that will run: one lane per chunk row.
template <class V>
int default_chunk(const std::string& kernel) {
  if (is_complex_v<V>) return 4;  // the portable kernel; a complex value is two lanes
  const bool avx512 = kernel == "avx512" || (kernel != "avx2" && simd_level() == SimdLevel::avx512);
  return std::is_same_v<V, double> ? (avx512 ? 8 : 4) : (avx512 ? 16 : 8);
}

// Gathers are slow on some CPUs (Intel's 2023 Gather Data Sampling microcode
// makes vgatherdpd several times slower), where the compiler's scalar-load
// kernel wins. "auto" therefore times the intrinsic kernel against the
// portable one on this matrix and keeps the intrinsic one unless the
// portable one is clearly faster: after a warm-up of each, five rounds of
// one product each, the two alternating, medians compared, the portable
// kernel taken only when it needs less than kPortableShare of the time. The
// race is for gathers several times slower; three products each, one
// kernel after the other, flipped between two near-equal kernels on noise:
// the same stencil's plans took the portable kernel once and AVX-512 once
// in one bench run (9.93 against 8.83 ms, 2-core build machine).
// A few SpMVs of setup, once per plan.
constexpr double kPortableShare = 0.8;

template <class V, class I>
openmp::SellKernel faster_sell_kernel(const SellCSigma<V, I>& m, openmp::SellKernel simd) {
  std::vector<V> x(static_cast<std::size_t>(m.cols), V(1)), y(static_cast<std::size_t>(m.rows));
  auto once = [&](openmp::SellKernel k) { return time_repeated([&] { openmp::sell_spmv<V, I>(V(1), m, x, V(0), y, k); }, 1, 0).median_s; };
  once(simd);
  once(openmp::SellKernel::portable);
  std::vector<double> simd_s, portable_s;
  for (int round = 0; round < 5; ++round) {
    simd_s.push_back(once(simd));
    portable_s.push_back(once(openmp::SellKernel::portable));
  }
  const double portable = summarize_times(std::move(portable_s)).median_s, intrinsic = summarize_times(std::move(simd_s)).median_s;
  return portable < kPortableShare * intrinsic ? openmp::SellKernel::portable : simd;
}

}  // namespace

template <class V, class I>
Built<V> build_sell(const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
  FormatOptions layout = o.layout;
  if (layout.chunk <= 0) layout.chunk = default_chunk<V>(kernel);
  if (layout.sigma <= 0) layout.sigma = 256;
  auto m = std::make_shared<const SellCSigma<V, I>>(FormatStorage<Format::sell>::from_csr(a, layout));
  Built<V> b;
  b.matrix = m;
  b.bytes = FormatStorage<Format::sell>::bytes(*m);
  b.stored = FormatStorage<Format::sell>::stored(*m);
  b.shape = "-" + std::to_string(layout.chunk) + "-" + std::to_string(m->sigma);
  // SpMM (kernels/block_format_spmm.hpp): the chunks read once per 32 columns.
  b.apply_block = [m, reference = kernel == "reference"](V al, const ConstDenseView<V>& x, V be, const DenseView<V>& y) {
    if (reference) reference::sell_spmm<V, I>(al, *m, x, be, y);
    else openmp::sell_spmm<V, I>(al, *m, x, be, y);
  };
  if (kernel == "reference") {
    b.apply = bind(m, reference::sell_spmv<V, I>);
    b.kernel = kernel;
    return b;
  }
  auto k = kernel == "avx512" ? openmp::SellKernel::avx512 : kernel == "avx2" ? openmp::SellKernel::avx2
           : kernel == "portable" ? openmp::SellKernel::portable : openmp::best_sell_kernel(*m);
  openmp::require_sell_kernel(*m, k);  // fail now, not at the first product
  if (kernel == "auto" && k != openmp::SellKernel::portable) k = faster_sell_kernel(*m, k);
  const auto schedule = openmp::choose_sell_schedule(*m);
  b.apply = [m, k, schedule](V al, std::span<const V> xx, V be, std::span<V> yy) { openmp::sell_spmv<V, I>(al, *m, xx, be, yy, k, schedule); };
  b.kernel = std::string(openmp::to_string(k)) + (kernel == "auto" ? "(auto)" : "");
  return b;
}

#define HSPARSE_INSTANTIATE(V, I) template Built<V> build_sell(const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
