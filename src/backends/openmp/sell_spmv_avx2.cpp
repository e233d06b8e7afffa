// SELL-C-sigma with AVX2 intrinsics (the paper's listing 6): C = 4 doubles
// or 8 floats fill one 256-bit register, one lane per row of the chunk.
// Each step loads C values (contiguous, column-major chunk layout), fills a
// register with the C entries of x by scalar loads (faster than vgatherdpd
// on the Xeons we measure: see sell_spmv_avx512.cpp), and fuses multiply and add.
// Compiled for AVX2+FMA via target attributes; called only after a
// run-time CPU check (sell_spmv.cpp).
#include <immintrin.h>


#include "sell_chunk.hpp"

namespace hsparse::openmp::detail {

__attribute__((target("avx2,fma"))) void sell_spmv_avx2(double alpha, const SellCSigma<double, std::int32_t>& a,
                                                        const double* x, double beta, double* y, bool guided) {
  const double* vals = a.values.data();
  const std::int32_t* cols = a.col_idx.data();
  for_each_chunk(static_cast<std::int64_t>(a.chunks()), guided, [&](std::int64_t c) __attribute__((target("avx2,fma"))) {
    __m256d sum = _mm256_setzero_pd();
    const std::size_t base = static_cast<std::size_t>(a.chunk_ptr[c]);
    for (std::int32_t k = 0; k < a.chunk_len[c]; ++k) {
      const std::size_t off = base + static_cast<std::size_t>(k) * 4;
      const std::int32_t* c = cols + off;
      const __m256d xv = _mm256_set_pd(x[c[3]], x[c[2]], x[c[1]], x[c[0]]);
      sum = _mm256_fmadd_pd(_mm256_loadu_pd(vals + off), xv, sum);
    }
    alignas(32) double sums[4];
    _mm256_store_pd(sums, sum);
    write_chunk(a, static_cast<std::size_t>(c), sums, x, alpha, beta, y);
  });
}

__attribute__((target("avx2,fma"))) void sell_spmv_avx2(float alpha, const SellCSigma<float, std::int32_t>& a,
                                                        const float* x, float beta, float* y, bool guided) {
  const float* vals = a.values.data();
  const std::int32_t* cols = a.col_idx.data();
  for_each_chunk(static_cast<std::int64_t>(a.chunks()), guided, [&](std::int64_t c) __attribute__((target("avx2,fma"))) {
    __m256 sum = _mm256_setzero_ps();
    const std::size_t base = static_cast<std::size_t>(a.chunk_ptr[c]);
    for (std::int32_t k = 0; k < a.chunk_len[c]; ++k) {
      const std::size_t off = base + static_cast<std::size_t>(k) * 8;
      const std::int32_t* c = cols + off;
      const __m256 xv = _mm256_set_ps(x[c[7]], x[c[6]], x[c[5]], x[c[4]], x[c[3]], x[c[2]], x[c[1]], x[c[0]]);
      sum = _mm256_fmadd_ps(_mm256_loadu_ps(vals + off), xv, sum);
    }
    alignas(32) float sums[8];
    _mm256_store_ps(sums, sum);
    write_chunk(a, static_cast<std::size_t>(c), sums, x, alpha, beta, y);
  });
}

}  // namespace hsparse::openmp::detail
