// OpenMP BCSR SpMV: Eberhardt and Hoemmen's single-level block-row
// algorithm. Decomposition: a thread owns whole block rows; for each block
// it walks the block's columns, broadcasting one x entry into the block
// column (values are column-major inside a block), accumulating bs row sums
// in registers, and writes its bs outputs once.
#include <algorithm>
#include <array>
#include <vector>

#include "../common/output.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/kernels/format_spmv.hpp"

// GCC 12 claims the zero-filled row sums "may be used uninitialized" once
// OpenMP outlines the loop (std::fill_n writes them first): a false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace hsparse::openmp {

namespace {

// BS > 0: compile-time block size (unrolled, sums in registers);
// BS == 0: run-time block size a.block.
template <int BS, class V, class I>
void bcsr_block_rows(V alpha, const Bcsr<V, I>& a, const V* __restrict x, V beta, V* __restrict y) {
  const int bs = BS > 0 ? BS : a.block;
  const std::int64_t cols = a.cols, rows = a.rows;
  const V* __restrict vals = a.values.data();
  const std::size_t stride = a.block_stride;
#pragma omp parallel
  {
    // Row sums of one block row: a fixed array (registers) or, for run-time
    // block sizes, a per-thread buffer.
    std::vector<V> buffer(BS > 0 ? 0 : static_cast<std::size_t>(bs));
    std::array<V, (BS > 0 ? BS : 1)> fixed{};
#pragma omp for schedule(static)
    for (I br = 0; br < a.block_rows; ++br) {
      V* out = BS > 0 ? fixed.data() : buffer.data();
      std::fill_n(out, bs, V(0));
      for (I k = a.row_ptr[br]; k < a.row_ptr[br + 1]; ++k) {
        const std::int64_t c0 = static_cast<std::int64_t>(a.col_idx[k]) * bs;
        const V* block = vals + static_cast<std::size_t>(k) * stride;
        // The last block column may reach past the matrix: only its real columns read x.
        const int ncols = static_cast<int>(std::min<std::int64_t>(bs, cols - c0));
        if (ncols == bs) {
          for (int col = 0; col < bs; ++col) {
            const V xv = x[c0 + col];
#pragma omp simd
            for (int row = 0; row < bs; ++row) out[row] += block[col * bs + row] * xv;
          }
        } else {
          for (int col = 0; col < ncols; ++col) {
            const V xv = x[c0 + col];
            for (int row = 0; row < bs; ++row) out[row] += block[col * bs + row] * xv;
          }
        }
      }
      const std::int64_t r0 = static_cast<std::int64_t>(br) * bs;
      const int nrows = static_cast<int>(std::min<std::int64_t>(bs, rows - r0));
      for (int row = 0; row < nrows; ++row) y[r0 + row] = detail::combine_output(alpha, out[row], beta, y[r0 + row]);
    }
  }
}

}  // namespace

template <class V, class I>
void bcsr_spmv(V alpha, const Bcsr<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  check_spmv_dimensions(a.rows, a.cols, x.size(), y.size());
  switch (a.block) {
    case 1: return bcsr_block_rows<1>(alpha, a, x.data(), beta, y.data());
    case 2: return bcsr_block_rows<2>(alpha, a, x.data(), beta, y.data());
    case 3: return bcsr_block_rows<3>(alpha, a, x.data(), beta, y.data());
    case 4: return bcsr_block_rows<4>(alpha, a, x.data(), beta, y.data());
    case 5: return bcsr_block_rows<5>(alpha, a, x.data(), beta, y.data());
    case 6: return bcsr_block_rows<6>(alpha, a, x.data(), beta, y.data());
    case 7: return bcsr_block_rows<7>(alpha, a, x.data(), beta, y.data());
    case 8: return bcsr_block_rows<8>(alpha, a, x.data(), beta, y.data());
    default: return bcsr_block_rows<0>(alpha, a, x.data(), beta, y.data());
  }
}

#define HSPARSE_INSTANTIATE(V, I) \
  template void bcsr_spmv(V, const Bcsr<V, I>&, std::span<const V>, V, std::span<V>);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
