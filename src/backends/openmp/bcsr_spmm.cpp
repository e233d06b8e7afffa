// BCSR SpMM on the CPU (kernels/block_format_spmm.hpp): per pass
// (packed_passes.hpp) block rows in parallel; each block's b x b values are
// read once and applied to b rows of the packed X, b x KC sums per block
// row. Columns past the matrix's last (the last block column's padding)
// hold zeros in the block and have no row in X: they are skipped.
#include <algorithm>
#include <array>
#include <complex>

#include "hsparse/core/types.hpp"
#include "hsparse/kernels/block_format_spmm.hpp"
#include "hsparse/kernels/csr_spmm.hpp"
#include "packed_passes.hpp"

namespace hsparse::openmp {

constexpr int kMaxBlock = 32;  // bcsr_from_csr's largest block

template <class V, class I>
void bcsr_spmm(V alpha, const Bcsr<V, I>& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y) {
  check_spmm_shapes<V>(a.rows, a.cols, x, y);
  const long long b = a.block, block_rows = a.block_rows;
  detail::for_each_packed_pass(x, [&](auto width, const V* packed, int kc, long long j0) {
    constexpr int KC = decltype(width)::value;
    V* const ys = y.data + j0 * y.ld;
#pragma omp parallel for schedule(static)
    for (long long br = 0; br < block_rows; ++br) {
      std::array<std::array<V, KC>, kMaxBlock> acc{};
      for (auto blk = a.row_ptr[static_cast<std::size_t>(br)]; blk < a.row_ptr[static_cast<std::size_t>(br) + 1]; ++blk) {
        const V* values = a.values.data() + static_cast<std::size_t>(blk) * a.block_stride;
        const long long c0 = static_cast<long long>(a.col_idx[static_cast<std::size_t>(blk)]) * b;
        for (long long jj = 0; jj < b && c0 + jj < a.cols; ++jj) {
          const V* xc = packed + (c0 + jj) * KC;
          for (long long ii = 0; ii < b; ++ii) {
            const V v = values[jj * b + ii];
            auto& sums = acc[static_cast<std::size_t>(ii)];
#pragma omp simd
            for (int q = 0; q < KC; ++q) sums[static_cast<std::size_t>(q)] += v * xc[q];
          }
        }
      }
      for (long long ii = 0; ii < b && br * b + ii < a.rows; ++ii) {
        const long long row = br * b + ii;
        for (int q = 0; q < kc; ++q) {
          V& out = ys[row + q * y.ld];
          const V s = acc[static_cast<std::size_t>(ii)][static_cast<std::size_t>(q)];
          out = beta == V(0) ? alpha * s : alpha * s + beta * out;
        }
      }
    }
  });
}

#define HSPARSE_INSTANTIATE(V, I) template void bcsr_spmm(V, const Bcsr<V, I>&, const ConstDenseView<V>&, V, const DenseView<V>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
