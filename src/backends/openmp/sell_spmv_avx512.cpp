// SELL-C-sigma with AVX-512 intrinsics: C = 8 doubles or 16 floats fill one
// 512-bit register, one lane per row of the chunk (the paper's Xeon Phi
// kernel, listing 5, on AVX-512F). Same structure as the AVX2 kernel.
//
// x is loaded with C scalar loads into one register (the paper's Sandy
// Bridge approach), not with vgatherdpd: on the Xeons we measure (build and
// GPU hosts) the gather instruction runs several times slower
// than its loads (Intel's Gather Data Sampling microcode), and the
// scalar-load kernel was 10-25% faster on 5-point stencils and random
// matrices (docs/results/2026-11-22-cpu-formats).
// Compiled for AVX-512F via target attributes; called only after a run-time
// CPU check (sell_spmv.cpp).
#include <immintrin.h>


#include "sell_chunk.hpp"

namespace hsparse::openmp::detail {

__attribute__((target("avx512f"))) void sell_spmv_avx512(double alpha, const SellCSigma<double, std::int32_t>& a,
                                                         const double* x, double beta, double* y, bool guided) {
  const double* vals = a.values.data();
  const std::int32_t* cols = a.col_idx.data();
  for_each_chunk(static_cast<std::int64_t>(a.chunks()), guided, [&](std::int64_t c) __attribute__((target("avx512f"))) {
    __m512d sum = _mm512_setzero_pd();
    const std::size_t base = static_cast<std::size_t>(a.chunk_ptr[c]);
    for (std::int32_t k = 0; k < a.chunk_len[c]; ++k) {
      const std::size_t off = base + static_cast<std::size_t>(k) * 8;
      const std::int32_t* c = cols + off;
      const __m512d xv = _mm512_set_pd(x[c[7]], x[c[6]], x[c[5]], x[c[4]], x[c[3]], x[c[2]], x[c[1]], x[c[0]]);
      sum = _mm512_fmadd_pd(_mm512_loadu_pd(vals + off), xv, sum);
    }
    alignas(64) double sums[8];
    _mm512_store_pd(sums, sum);
    write_chunk(a, static_cast<std::size_t>(c), sums, x, alpha, beta, y);
  });
}

__attribute__((target("avx512f"))) void sell_spmv_avx512(float alpha, const SellCSigma<float, std::int32_t>& a,
                                                         const float* x, float beta, float* y, bool guided) {
  const float* vals = a.values.data();
  const std::int32_t* cols = a.col_idx.data();
  for_each_chunk(static_cast<std::int64_t>(a.chunks()), guided, [&](std::int64_t c) __attribute__((target("avx512f"))) {
    __m512 sum = _mm512_setzero_ps();
    const std::size_t base = static_cast<std::size_t>(a.chunk_ptr[c]);
    for (std::int32_t k = 0; k < a.chunk_len[c]; ++k) {
      const std::size_t off = base + static_cast<std::size_t>(k) * 16;
      const std::int32_t* c = cols + off;
      const __m512 xv = _mm512_set_ps(x[c[15]], x[c[14]], x[c[13]], x[c[12]], x[c[11]], x[c[10]], x[c[9]], x[c[8]],
                                      x[c[7]], x[c[6]], x[c[5]], x[c[4]], x[c[3]], x[c[2]], x[c[1]], x[c[0]]);
      sum = _mm512_fmadd_ps(_mm512_loadu_ps(vals + off), xv, sum);
    }
    alignas(64) float sums[16];
    _mm512_store_ps(sums, sum);
    write_chunk(a, static_cast<std::size_t>(c), sums, x, alpha, beta, y);
  });
}

}  // namespace hsparse::openmp::detail
