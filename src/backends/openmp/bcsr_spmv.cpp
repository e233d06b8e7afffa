// OpenMP BCSR SpMV: Eberhardt and Hoemmen's single-level block-row
// algorithm. Decomposition: a thread owns whole block rows; for each block
// it walks the block's columns, broadcasting one x entry into the block
// column (values are column-major inside a block), accumulating bs row sums
// in registers, and writes its bs outputs once. A row whose sum is not
// finite is summed again without the block fill (formats/padding.hpp).
#include <algorithm>
#include <array>
#include <vector>

#include "../common/output.hpp"
#include "hsparse/formats/padding.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/kernels/format_spmv.hpp"

namespace hsparse::openmp {

namespace {

// One block row: acc[row] += block(row, col) * x[c0 + col] over its blocks.
// With a compile-time BS the accumulators are a local array the compiler
// keeps in registers (a pointer to them would force a store per update).
template <int BS, class V, class I>
inline void block_row_sums(const Bcsr<V, I>& a, const V* __restrict x, I br, V* __restrict acc_out) {
  V acc[BS] = {};
  const std::int64_t cols = a.cols;
  const V* __restrict vals = a.values.data();
  for (I k = a.row_ptr[br]; k < a.row_ptr[br + 1]; ++k) {
    const std::int64_t c0 = static_cast<std::int64_t>(a.col_idx[k]) * BS;
    const V* __restrict block = vals + static_cast<std::size_t>(k) * a.block_stride;
    if (c0 + BS <= cols) {
#pragma GCC unroll 8
      for (int col = 0; col < BS; ++col) {
        const V xv = x[c0 + col];
#pragma GCC unroll 8
        for (int row = 0; row < BS; ++row) acc[row] += block[col * BS + row] * xv;
      }
    } else {  // the last block column reaches past the matrix: read only real columns of x
      for (int col = 0; col < cols - c0; ++col) {
        const V xv = x[c0 + col];
        for (int row = 0; row < BS; ++row) acc[row] += block[col * BS + row] * xv;
      }
    }
  }
  for (int row = 0; row < BS; ++row) acc_out[row] = acc[row];
}

// Run-time block size (9..32): the same loops with bs from the matrix.
template <class V, class I>
inline void block_row_sums_dynamic(const Bcsr<V, I>& a, const V* __restrict x, I br, V* __restrict acc) {
  const int bs = a.block;
  const std::int64_t cols = a.cols;
  std::fill_n(acc, bs, V(0));
  for (I k = a.row_ptr[br]; k < a.row_ptr[br + 1]; ++k) {
    const std::int64_t c0 = static_cast<std::int64_t>(a.col_idx[k]) * bs;
    const V* __restrict block = a.values.data() + static_cast<std::size_t>(k) * a.block_stride;
    const int ncols = static_cast<int>(std::min<std::int64_t>(bs, cols - c0));
    for (int col = 0; col < ncols; ++col) {
      const V xv = x[c0 + col];
#pragma omp simd
      for (int row = 0; row < bs; ++row) acc[row] += block[col * bs + row] * xv;
    }
  }
}

// Row `row` of block row br without the block fill: for a row whose sum is
// not finite, where the fill may have met NaN or infinity in x
// (formats/padding.hpp).
template <class V, class I>
V masked_row_sum(const Bcsr<V, I>& a, const V* x, I br, int row) {
  const int bs = a.block;
  V sum(0);
  for (I k = a.row_ptr[br]; k < a.row_ptr[br + 1]; ++k) {
    const std::int64_t c0 = static_cast<std::int64_t>(a.col_idx[k]) * bs;
    const V* block = a.values.data() + static_cast<std::size_t>(k) * a.block_stride;
    for (int col = 0; col < bs && c0 + col < a.cols; ++col) sum += entry_product(block[col * bs + row], x[c0 + col]);
  }
  return sum;
}

// BS > 0: compile-time block size; BS == 0: run-time block size a.block.
template <int BS, class V, class I>
void bcsr_block_rows(V alpha, const Bcsr<V, I>& a, const V* __restrict x, V beta, V* __restrict y) {
  const int bs = BS > 0 ? BS : a.block;
  const std::int64_t rows = a.rows;
#pragma omp parallel
  {
    std::vector<V> sums(static_cast<std::size_t>(bs));
#pragma omp for schedule(static)
    for (I br = 0; br < a.block_rows; ++br) {
      if constexpr (BS > 0) block_row_sums<BS>(a, x, br, sums.data());
      else block_row_sums_dynamic(a, x, br, sums.data());
      const std::int64_t r0 = static_cast<std::int64_t>(br) * bs;
      const int nrows = static_cast<int>(std::min<std::int64_t>(bs, rows - r0));
      for (int row = 0; row < nrows; ++row) {
        V& sum = sums[static_cast<std::size_t>(row)];
        if (!is_finite_value(sum)) sum = masked_row_sum(a, x, br, row);
        y[r0 + row] = detail::combine_output(alpha, sum, beta, y[r0 + row]);
      }
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
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
