// BCSR SpMM on the CPU (kernels/block_format_spmm.hpp): per pass
// (packed_passes.hpp) block rows in parallel; each block's b x b values are
// read once and applied to b rows of the packed X, b x KC sums per block
// row. Columns past the matrix's last (the last block column's padding)
// hold zeros in the block and have no row in X: they are skipped. The
// block fill adds nothing, whatever X holds (formats/padding.hpp).
//  - Real types, KC values of 16 to 64 bytes and b in {2, 3, 4, 6, 8}: the
//    b sums are vectors in registers (simd_vector.hpp), one load of X's
//    packed row per block column feeding b vector FMAs (csr_spmm.cpp's
//    rule for the widths). 2-core Zen 4, one thread:
//    fem:block=3,n=20 k = 8 1.06-1.16 ms (3.16-3.34 with the loop below
//    compiled for the baseline only); fem:block=6,n=12 k = 2 / 4 0.55 /
//    0.76 ms (1.25 / 1.16), and k = 16 (the loop, compiled per
//    instruction set) 1.75 ms (3.91).
//  - Otherwise b x KC sums in an array, a loop per value.
// Both compiled per instruction set (simd_level).
#include <algorithm>
#include <array>
#include <complex>

#include "hsparse/core/host_system.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/formats/padding.hpp"
#include "hsparse/kernels/block_format_spmm.hpp"
#include "hsparse/kernels/csr_spmm.hpp"
#include "packed_passes.hpp"
#include "simd_dispatch.hpp"
#include "simd_vector.hpp"

namespace hsparse::openmp {

namespace {

constexpr int kMaxBlock = 32;  // bcsr_from_csr's largest block

// Y's rows of block row br = alpha sums + beta Y (sums: b rows of KC values).
template <int KC, class V, class I>
[[gnu::always_inline]] inline void write_block_row(const Bcsr<V, I>& a, V alpha, V beta, V* ys, long long ldy, int kc, long long br, const V* sums) {
  const long long b = a.block;
  for (long long ii = 0; ii < b && br * b + ii < a.rows; ++ii) {
    for (int q = 0; q < kc; ++q) {
      V& out = ys[br * b + ii + q * ldy];
      const V s = sums[ii * KC + q];
      out = beta == V(0) ? alpha * s : alpha * s + beta * out;
    }
  }
}

// Block rows [br0, br1) with blocks of B x B (B = 0: a.block, any size).
template <int B, int KC, class V, class I>
[[gnu::always_inline]] inline void block_rows(V alpha, const Bcsr<V, I>& a, const V* packed, int kc, V beta, V* ys, long long ldy, long long br0,
                                              long long br1) {
  constexpr int kBytes = KC * static_cast<int>(sizeof(V));
  const long long b = B > 0 ? B : a.block;
  for (long long br = br0; br < br1; ++br) {
    const auto first = a.row_ptr[static_cast<std::size_t>(br)], last = a.row_ptr[static_cast<std::size_t>(br) + 1];
    if constexpr (B > 0 && !is_complex_v<V> && kBytes >= 16 && kBytes <= 64) {
      using Row = detail::Vec<V, kBytes>;
      Row sums[B] = {};
      for (auto blk = first; blk < last; ++blk) {
        const V* values = a.values.data() + static_cast<std::size_t>(blk) * a.block_stride;
        const long long c0 = static_cast<long long>(a.col_idx[static_cast<std::size_t>(blk)]) * B;
        for (int jj = 0; jj < B && c0 + jj < a.cols; ++jj) {
          const Row xv = detail::load_vec<V, kBytes>(packed + (c0 + jj) * KC);
          for (int ii = 0; ii < B; ++ii) {
            if (!is_padding(values[jj * B + ii])) sums[ii] += values[jj * B + ii] * xv;
          }
        }
      }
      std::array<V, static_cast<std::size_t>(B) * KC> out{};
      for (int ii = 0; ii < B; ++ii) detail::store_vec<V, kBytes>(out.data() + ii * KC, sums[ii]);
      write_block_row<KC>(a, alpha, beta, ys, ldy, kc, br, out.data());
    } else {
      std::array<V, static_cast<std::size_t>(kMaxBlock) * KC> acc{};  // row ii's sums at ii * KC (write_block_row's layout)
      for (auto blk = first; blk < last; ++blk) {
        const V* values = a.values.data() + static_cast<std::size_t>(blk) * a.block_stride;
        const long long c0 = static_cast<long long>(a.col_idx[static_cast<std::size_t>(blk)]) * b;
        for (long long jj = 0; jj < b && c0 + jj < a.cols; ++jj) {
          const V* xc = packed + (c0 + jj) * KC;
          for (long long ii = 0; ii < b; ++ii) {
            const V v = values[jj * b + ii];
            if (is_padding(v)) continue;
            V* s = acc.data() + ii * KC;
#pragma omp simd
            for (int q = 0; q < KC; ++q) s[q] += v * xc[q];
          }
        }
      }
      write_block_row<KC>(a, alpha, beta, ys, ldy, kc, br, acc.data());
    }
  }
}

// The block size as a template argument where the vector kernel has one.
template <int KC, class V, class I>
[[gnu::always_inline]] inline void block_rows_any(V alpha, const Bcsr<V, I>& a, const V* packed, int kc, V beta, V* ys, long long ldy, long long br0,
                                                  long long br1) {
  switch (a.block) {
    case 2: return block_rows<2, KC>(alpha, a, packed, kc, beta, ys, ldy, br0, br1);
    case 3: return block_rows<3, KC>(alpha, a, packed, kc, beta, ys, ldy, br0, br1);
    case 4: return block_rows<4, KC>(alpha, a, packed, kc, beta, ys, ldy, br0, br1);
    case 6: return block_rows<6, KC>(alpha, a, packed, kc, beta, ys, ldy, br0, br1);
    case 8: return block_rows<8, KC>(alpha, a, packed, kc, beta, ys, ldy, br0, br1);
    default: return block_rows<0, KC>(alpha, a, packed, kc, beta, ys, ldy, br0, br1);
  }
}

constexpr long long kBlockRowsPerTask = 16;

}  // namespace

template <class V, class I>
void bcsr_spmm(V alpha, const Bcsr<V, I>& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y) {
  check_spmm_shapes<V>(a.rows, a.cols, x, y);
  detail::for_each_pass_in_tasks(x, y, a.block_rows, kBlockRowsPerTask,
                                 [&](auto width, const V* packed, int kc, V* ys, long long first, long long last) __attribute__((always_inline)) {
                                   block_rows_any<decltype(width)::value>(alpha, a, packed, kc, beta, ys, y.ld, first, last);
                                 });
}

#define HSPARSE_INSTANTIATE(V, I) template void bcsr_spmm(V, const Bcsr<V, I>&, const ConstDenseView<V>&, V, const DenseView<V>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
