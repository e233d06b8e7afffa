// SELL SpMM on the CPU (kernels/block_format_spmm.hpp): per pass (packed_passes.hpp)
// chunks in parallel, each stored entry read once per pass.
//  - Real types with KC values of 16 to 64 bytes (csr_spmm.cpp's rule): a
//    row at a time, its entries at stride C up to its true length, the KC
//    sums in two vectors (simd_vector.hpp), compiled per instruction set
//    (simd_level). 2-core Zen 4, one thread, 27-point stencil of 64,000
//    rows: k = 8 3.07 ms, 4.80 with the entry-major loop below compiled
//    for the baseline only.
//  - Otherwise (also compiled per instruction set: k = 16 9.6 ms, 11.8
//    for the baseline only) a chunk of up to 32 rows keeps KC sums for each of its rows
//    and walks its entries in storage order; taller chunks go a row at a
//    time (stride C), stopping at the row's true length.
#include <algorithm>
#include <array>
#include <complex>

#include "hsparse/core/host_system.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/formats/padding.hpp"
#include "hsparse/kernels/block_format_spmm.hpp"
#include "packed_passes.hpp"
#include "simd_dispatch.hpp"
#include "simd_vector.hpp"

namespace hsparse::openmp {

namespace {

constexpr long long kChunkInRegisters = 32;  // chunks up to this height keep all their rows' sums

// Y's row of sorted row `sorted` = alpha acc + beta Y.
template <class V, class I>
[[gnu::always_inline]] inline void write_row(const SellCSigma<V, I>& a, V alpha, V beta, V* ys, long long ldy, int kc, long long sorted, const V* acc) {
  const long long row = a.permuted_columns ? sorted : static_cast<long long>(a.perm[static_cast<std::size_t>(sorted)]);
  for (int q = 0; q < kc; ++q) {
    V& out = ys[row + q * ldy];
    out = beta == V(0) ? alpha * acc[q] : alpha * acc[q] + beta * out;
  }
}

// Chunks [c0, c1) of one pass.
template <int KC, class V, class I>
[[gnu::always_inline]] inline void sell_chunks(V alpha, const SellCSigma<V, I>& a, const V* packed, int kc, V beta, V* ys, long long ldy, long long c0,
                                               long long c1) {
  constexpr int kBytes = KC * static_cast<int>(sizeof(V));
  const long long C = a.chunk;
  for (long long c = c0; c < c1; ++c) {
    const long long base = a.chunk_ptr[static_cast<std::size_t>(c)], rows = std::min<long long>(C, a.rows - c * C);
    if constexpr (!is_complex_v<V> && kBytes >= 16 && kBytes <= 64) {
      using Row = detail::Vec<V, kBytes>;
      for (long long j = 0; j < rows; ++j) {
        const long long len = a.row_len[static_cast<std::size_t>(c * C + j)];
        Row even{}, odd{};
        const auto at = [&](long long e) __attribute__((always_inline)) {
          const auto p = static_cast<std::size_t>(base + e * C + j);
          return a.values[p] * detail::load_vec<V, kBytes>(packed + static_cast<long long>(a.col_idx[p]) * KC);
        };
        long long e = 0;
        for (; e + 1 < len; e += 2) even += at(e), odd += at(e + 1);
        if (e < len) even += at(e);
        const Row total = even + odd;
        V acc[KC];
        for (int q = 0; q < KC; ++q) acc[q] = total[q];
        write_row(a, alpha, beta, ys, ldy, kc, c * C + j, acc);
      }
    } else if (C <= kChunkInRegisters) {
      // Entry-major (section 3's SIMD order): the chunk's values and
      // column indices stream contiguously; a padded slot is skipped (it
      // must add nothing even where x holds NaN: formats/padding.hpp).
      std::array<std::array<V, KC>, kChunkInRegisters> acc{};
      const long long len = a.chunk_len[static_cast<std::size_t>(c)];
      for (long long e = 0; e < len; ++e) {
        for (long long j = 0; j < C; ++j) {
          const auto p = static_cast<std::size_t>(base + e * C + j);
          const V v = a.values[p];
          if (is_padding(v)) continue;
          const V* xc = packed + static_cast<long long>(a.col_idx[p]) * KC;
          auto& sums = acc[static_cast<std::size_t>(j)];
#pragma omp simd
          for (int q = 0; q < KC; ++q) sums[static_cast<std::size_t>(q)] += v * xc[q];
        }
      }
      for (long long j = 0; j < rows; ++j) write_row(a, alpha, beta, ys, ldy, kc, c * C + j, acc[static_cast<std::size_t>(j)].data());
    } else {
      for (long long j = 0; j < rows; ++j) {  // tall chunks: a row at a time, up to its true length
        const long long len = a.row_len[static_cast<std::size_t>(c * C + j)];
        std::array<V, KC> acc{};
        for (long long e = 0; e < len; ++e) {
          const auto p = static_cast<std::size_t>(base + e * C + j);
          const V v = a.values[p];
          const V* xc = packed + static_cast<long long>(a.col_idx[p]) * KC;
#pragma omp simd
          for (int q = 0; q < KC; ++q) acc[static_cast<std::size_t>(q)] += v * xc[q];
        }
        write_row(a, alpha, beta, ys, ldy, kc, c * C + j, acc.data());
      }
    }
  }
}

constexpr long long kChunksPerTask = 16;

}  // namespace

template <class V, class I>
void sell_spmm(V alpha, const SellCSigma<V, I>& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y) {
  check_spmm_shapes<V>(a.rows, a.cols, x, y);
  detail::for_each_pass_in_tasks(x, y, static_cast<long long>(a.chunks()), kChunksPerTask,
                                 [&](auto width, const V* packed, int kc, V* ys, long long first, long long last) __attribute__((always_inline)) {
                                   sell_chunks<decltype(width)::value>(alpha, a, packed, kc, beta, ys, y.ld, first, last);
                                 });
}

#define HSPARSE_INSTANTIATE(V, I) template void sell_spmm(V, const SellCSigma<V, I>&, const ConstDenseView<V>&, V, const DenseView<V>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
