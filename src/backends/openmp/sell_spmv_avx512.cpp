// SELL-C-sigma with AVX-512 intrinsics: C = 8 doubles or 16 floats fill one
// 512-bit register, one lane per row of the chunk (the paper's Xeon Phi
// kernel, listing 5, on AVX-512F). Same structure as the AVX2 kernel.
// Compiled for AVX-512F via target attributes; called only after a run-time
// CPU check (sell_spmv.cpp).
#include <immintrin.h>

// GCC 12 warns that the gather intrinsics' internal source operand "may be
// used uninitialized" (it is a dont-care register): a known false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "sell_chunk.hpp"

namespace hsparse::openmp::detail {

namespace {

template <class Body>
void for_each_chunk(std::int64_t chunks, bool guided, Body body) {
  if (guided) {
#pragma omp parallel for schedule(guided, 1)
    for (std::int64_t c = 0; c < chunks; ++c) body(c);
  } else {
#pragma omp parallel for schedule(static)
    for (std::int64_t c = 0; c < chunks; ++c) body(c);
  }
}

}  // namespace

__attribute__((target("avx512f"))) void sell_spmv_avx512(double alpha, const SellCSigma<double, std::int32_t>& a,
                                                         const double* x, double beta, double* y, bool guided) {
  const double* vals = a.values.data();
  const std::int32_t* cols = a.col_idx.data();
  for_each_chunk(static_cast<std::int64_t>(a.chunks()), guided, [&](std::int64_t c) __attribute__((target("avx512f"))) {
    __m512d sum = _mm512_setzero_pd();
    const std::size_t base = static_cast<std::size_t>(a.chunk_ptr[c]);
    for (std::int32_t k = 0; k < a.chunk_len[c]; ++k) {
      const std::size_t off = base + static_cast<std::size_t>(k) * 8;
      const __m256i idx = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(cols + off));
      sum = _mm512_fmadd_pd(_mm512_loadu_pd(vals + off), _mm512_i32gather_pd(idx, x, 8), sum);
    }
    alignas(64) double sums[8];
    _mm512_store_pd(sums, sum);
    write_chunk(a, static_cast<std::size_t>(c), sums, alpha, beta, y);
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
      const __m512i idx = _mm512_loadu_si512(cols + off);
      sum = _mm512_fmadd_ps(_mm512_loadu_ps(vals + off), _mm512_i32gather_ps(idx, x, 4), sum);
    }
    alignas(64) float sums[16];
    _mm512_store_ps(sums, sum);
    write_chunk(a, static_cast<std::size_t>(c), sums, alpha, beta, y);
  });
}

}  // namespace hsparse::openmp::detail
