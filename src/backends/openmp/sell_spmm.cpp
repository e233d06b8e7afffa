// SELL SpMM on the CPU (kernels/block_format_spmm.hpp): per pass (packed_passes.hpp)
// chunks in parallel, each stored entry read once per pass. A chunk of up
// to 32 rows keeps KC sums for each of its rows and walks its entries in
// storage order; taller chunks go a row at a time (stride C), stopping at
// the row's true length.
#include <algorithm>
#include <array>
#include <complex>

#include "hsparse/core/types.hpp"
#include "hsparse/kernels/block_format_spmm.hpp"
#include "packed_passes.hpp"

namespace hsparse::openmp {

constexpr long long kChunkInRegisters = 32;  // chunks up to this height keep all their rows' sums

template <class V, class I>
void sell_spmm(V alpha, const SellCSigma<V, I>& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y) {
  check_spmm_shapes<V>(a.rows, a.cols, x, y);
  const long long chunks = static_cast<long long>(a.chunks()), C = a.chunk;
  detail::for_each_packed_pass(x, [&](auto width, const V* packed, int kc, long long j0) {
    constexpr int KC = decltype(width)::value;
    V* const ys = y.data + j0 * y.ld;
    const auto write = [&](long long sorted, const V* acc) {
      const long long row = a.permuted_columns ? sorted : static_cast<long long>(a.perm[static_cast<std::size_t>(sorted)]);
      for (int q = 0; q < kc; ++q) {
        V& out = ys[row + q * y.ld];
        out = beta == V(0) ? alpha * acc[q] : alpha * acc[q] + beta * out;
      }
    };
#pragma omp parallel for schedule(static)
    for (long long c = 0; c < chunks; ++c) {
      const long long base = a.chunk_ptr[static_cast<std::size_t>(c)], rows = std::min<long long>(C, a.rows - c * C);
      if (C <= kChunkInRegisters) {
        // Entry-major (section 3's SIMD order): the chunk's values and
        // column indices stream contiguously; padding entries hold 0 and a
        // column of their row, so they add nothing and need no test.
        std::array<std::array<V, KC>, kChunkInRegisters> acc{};
        const long long len = a.chunk_len[static_cast<std::size_t>(c)];
        for (long long e = 0; e < len; ++e) {
          for (long long j = 0; j < C; ++j) {
            const auto p = static_cast<std::size_t>(base + e * C + j);
            const V v = a.values[p];
            const V* xc = packed + static_cast<long long>(a.col_idx[p]) * KC;
            auto& sums = acc[static_cast<std::size_t>(j)];
#pragma omp simd
            for (int q = 0; q < KC; ++q) sums[static_cast<std::size_t>(q)] += v * xc[q];
          }
        }
        for (long long j = 0; j < rows; ++j) write(c * C + j, acc[static_cast<std::size_t>(j)].data());
        continue;
      }
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
        write(c * C + j, acc.data());
      }
    }
  });
}

#define HSPARSE_INSTANTIATE(V, I) template void sell_spmm(V, const SellCSigma<V, I>&, const ConstDenseView<V>&, V, const DenseView<V>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
