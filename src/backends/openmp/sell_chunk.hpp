#pragma once
// Shared by the SELL-C-sigma CPU kernels (portable, AVX2, AVX-512): writing
// one chunk's C row sums to y. Sorted row i goes to y[i] when the matrix
// stays permuted, else to y[perm[i]] (section 3.4 of the SELL-C-sigma paper).
#include "../common/output.hpp"
#include "hsparse/formats/padding.hpp"
#include "hsparse/formats/sell_c_sigma.hpp"

namespace hsparse::openmp::detail {

// The kernels sum every slot of a chunk, padding included; a row whose sum
// is not finite (padding may have met NaN or infinity in x) is summed again
// up to its true length, without padding (formats/padding.hpp).
template <class V, class I>
inline void write_chunk(const SellCSigma<V, I>& a, std::size_t chunk, V* sums, const V* x, V alpha, V beta, V* y) {
  const std::size_t C = static_cast<std::size_t>(a.chunk), first = chunk * C;
  const std::size_t n = std::min<std::size_t>(C, static_cast<std::size_t>(a.rows) - first);
  for (std::size_t j = 0; j < n; ++j) {
    if (is_finite_value(sums[j])) continue;
    const std::size_t base = static_cast<std::size_t>(a.chunk_ptr[chunk]) + j;
    sums[j] = V(0);
    for (I k = 0; k < a.row_len[first + j]; ++k) {
      const std::size_t slot = base + static_cast<std::size_t>(k) * C;
      sums[j] += a.values[slot] * x[a.col_idx[slot]];
    }
  }
  if (a.permuted_columns || a.sigma == 1) {
    // Sorted order is the output order (sigma = 1 sorts nothing): a contiguous
    // store, without reading perm.
    for (std::size_t j = 0; j < n; ++j) y[first + j] = hsparse::detail::combine_output(alpha, sums[j], beta, y[first + j]);
    return;
  }
  for (std::size_t j = 0; j < n; ++j) {
    const auto out = static_cast<std::size_t>(a.perm[first + j]);
    y[out] = hsparse::detail::combine_output(alpha, sums[j], beta, y[out]);
  }
}

// Runs body(c) for every chunk in parallel, statically or guided,1 (eq. (15)).
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

// The SIMD variants, compiled for their instruction sets in their own files.
void sell_spmv_avx2(double alpha, const SellCSigma<double, std::int32_t>& a, const double* x, double beta, double* y, bool guided);
void sell_spmv_avx2(float alpha, const SellCSigma<float, std::int32_t>& a, const float* x, float beta, float* y, bool guided);
void sell_spmv_avx512(double alpha, const SellCSigma<double, std::int32_t>& a, const double* x, double beta, double* y, bool guided);
void sell_spmv_avx512(float alpha, const SellCSigma<float, std::int32_t>& a, const float* x, float beta, float* y, bool guided);

}  // namespace hsparse::openmp::detail
