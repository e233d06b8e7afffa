// OpenMP SELL-C-sigma SpMV (Kreutzer et al. 2014, listing 4): a thread owns
// whole chunks; within a chunk the C rows are the SIMD lanes, so the inner
// loop needs no horizontal reduction and no remainder loop. This file holds
// the portable kernel (C a compile-time constant for 4, 8, 16, 32, left to
// the compiler's vectoriser) and the run-time choice between it and the
// AVX2 / AVX-512 intrinsic kernels (sell_spmv_avx2.cpp, sell_spmv_avx512.cpp).
#include <cmath>
#include <vector>

#include "hsparse/formats/row_statistics.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/host_system.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/kernels/format_spmv.hpp"
#include "sell_chunk.hpp"

namespace hsparse::openmp {

namespace {

template <int CT, class V, class I>
void sell_portable(V alpha, const SellCSigma<V, I>& a, const V* __restrict x, V beta, V* __restrict y, bool guided) {
  const int C = CT > 0 ? CT : a.chunk;
  const std::int64_t chunks = static_cast<std::int64_t>(a.chunks());
  const V* __restrict vals = a.values.data();
  const I* __restrict cols = a.col_idx.data();
#pragma omp parallel
  {
    std::vector<V> dynamic_sums(CT > 0 ? 0 : static_cast<std::size_t>(C));
    auto chunk_body = [&](std::int64_t c) {
      V fixed_sums[CT > 0 ? CT : 1];
      V* sums = CT > 0 ? fixed_sums : dynamic_sums.data();
      for (int j = 0; j < C; ++j) sums[j] = V(0);
      const std::size_t base = static_cast<std::size_t>(a.chunk_ptr[c]);
      for (I k = 0; k < a.chunk_len[c]; ++k) {
        const std::size_t off = base + static_cast<std::size_t>(k) * C;
#pragma omp simd
        for (int j = 0; j < C; ++j) sums[j] += vals[off + j] * x[cols[off + j]];
      }
      detail::write_chunk(a, static_cast<std::size_t>(c), sums, x, alpha, beta, y);
    };
    if (guided) {
#pragma omp for schedule(guided, 1)
      for (std::int64_t c = 0; c < chunks; ++c) chunk_body(c);
    } else {
#pragma omp for schedule(static)
      for (std::int64_t c = 0; c < chunks; ++c) chunk_body(c);
    }
  }
}

bool cpu_has_avx2() { return simd_level() >= SimdLevel::avx2; }
bool cpu_has_avx512() { return simd_level() == SimdLevel::avx512; }

template <class V, class I>
bool avx2_fits(const SellCSigma<V, I>& a) {
  return !is_complex_v<V> && std::is_same_v<I, std::int32_t> && a.chunk == (std::is_same_v<V, double> ? 4 : 8);
}
template <class V, class I>
bool avx512_fits(const SellCSigma<V, I>& a) {
  return !is_complex_v<V> && std::is_same_v<I, std::int32_t> && a.chunk == (std::is_same_v<V, double> ? 8 : 16);
}

}  // namespace

const char* to_string(SellKernel k) {
  switch (k) {
    case SellKernel::automatic: return "auto";
    case SellKernel::portable: return "portable";
    case SellKernel::avx2: return "avx2";
    case SellKernel::avx512: return "avx512";
  }
  return "?";
}

template <class V, class I>
SellKernel best_sell_kernel(const SellCSigma<V, I>& a) {
  if (avx512_fits(a) && cpu_has_avx512()) return SellKernel::avx512;
  if (avx2_fits(a) && cpu_has_avx2()) return SellKernel::avx2;
  return SellKernel::portable;
}

template <class V, class I>
Schedule choose_sell_schedule(const SellCSigma<V, I>& a) {
  // Eq. (15) on chunk work: guided when the chunks differ much in length.
  double sum = 0, sum_sq = 0;
  for (I len : a.chunk_len) {
    sum += len;
    sum_sq += static_cast<double>(len) * len;
  }
  const double n = std::max<double>(1.0, static_cast<double>(a.chunk_len.size())), mean = sum / n;
  const double cv = mean > 0 ? std::sqrt(std::max(0.0, sum_sq / n - mean * mean)) / mean : 0;
  return choose_schedule(a.bytes(), cv);
}

template <class V, class I>
void require_sell_kernel(const SellCSigma<V, I>& a, SellKernel kernel) {
  if (kernel != SellKernel::avx2 && kernel != SellKernel::avx512) return;
  const bool avx512 = kernel == SellKernel::avx512;
  if (!(avx512 ? avx512_fits(a) : avx2_fits(a))) {
    throw Error(ErrorCode::unsupported, std::string("SELL-C-sigma ") + to_string(kernel) + " kernel needs real values, int32 indices and C = " +
                                            (avx512 ? (std::is_same_v<V, double> ? "8" : "16") : (std::is_same_v<V, double> ? "4" : "8")) +
                                            " for " + type_name<V>() + " (matrix has C = " + std::to_string(a.chunk) + ", " +
                                            type_name<I>() + " indices)");
  }
  if (!(avx512 ? cpu_has_avx512() : cpu_has_avx2())) {
    throw Error(ErrorCode::unsupported, std::string("this CPU lacks ") + (avx512 ? "AVX-512F" : "AVX2 and FMA"));
  }
}

template <class V, class I>
void sell_spmv(V alpha, const SellCSigma<V, I>& a, std::span<const V> x, V beta, std::span<V> y, SellKernel kernel,
               std::optional<Schedule> schedule) {
  check_spmv_dimensions(a.rows, a.cols, x.size(), y.size());
  if (kernel == SellKernel::automatic) kernel = best_sell_kernel(a);
  const bool guided = schedule.value_or(choose_sell_schedule(a)) == Schedule::guided_rows;
  if (kernel == SellKernel::avx2 || kernel == SellKernel::avx512) {
    require_sell_kernel(a, kernel);
    const bool avx512 = kernel == SellKernel::avx512;
    if constexpr (std::is_same_v<I, std::int32_t> && !is_complex_v<V>) {
      if (avx512) detail::sell_spmv_avx512(alpha, a, x.data(), beta, y.data(), guided);
      else detail::sell_spmv_avx2(alpha, a, x.data(), beta, y.data(), guided);
    }
    return;
  }
  switch (a.chunk) {
    case 4: return sell_portable<4>(alpha, a, x.data(), beta, y.data(), guided);
    case 8: return sell_portable<8>(alpha, a, x.data(), beta, y.data(), guided);
    case 16: return sell_portable<16>(alpha, a, x.data(), beta, y.data(), guided);
    case 32: return sell_portable<32>(alpha, a, x.data(), beta, y.data(), guided);
    default: return sell_portable<0>(alpha, a, x.data(), beta, y.data(), guided);
  }
}

#define HSPARSE_INSTANTIATE(V, I)                                                                        \
  template SellKernel best_sell_kernel(const SellCSigma<V, I>&);                                         \
  template void require_sell_kernel(const SellCSigma<V, I>&, SellKernel);                                 \
  template Schedule choose_sell_schedule(const SellCSigma<V, I>&);                                         \
  template void sell_spmv(V, const SellCSigma<V, I>&, std::span<const V>, V, std::span<V>, SellKernel, std::optional<Schedule>);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
