// SpMM on the GPU for SELL-C-sigma and BCSR (kernels/block_format_spmm.hpp),
// per pass of up to 32 columns of X packed row-major (spmm_common.cuh).
//  - SELL-C-sigma (Kreutzer et al. 2014, section 3): the SpMV's thread per
//    row, each thread keeping KC sums in registers; with C = 32 a warp owns
//    a chunk and its loads of a chunk column stay one coalesced access.
//    Where X's packed row is more than a 32-byte sector (double k > 4,
//    float k > 8), the row is split among lanes of a sector each
//    (sell_spmm_lanes_kernel). A chunk's indices and values are read once
//    per pass.
//  - BCSR (Eberhardt and Hoemmen, "by column"): b threads per block row,
//    thread r owning the block row's row r. Blocks are column-major, so the
//    b threads' loads of a block column are contiguous; each value is
//    applied to the KC packed columns of X's row (block column * b + c).
//    X is packed with zero rows up to block_cols * b: the last block
//    column's padding multiplies zeros, never reads past X.
#include <algorithm>

#include "hsparse/backends/cuda/format_spmv.hpp"
#include "hsparse/formats/padding.hpp"
#include "hsparse/kernels/block_format_spmm.hpp"
#include "spmm_common.cuh"

namespace hsparse::cuda {

namespace {

using detail::add_packed_row;
using detail::kSpmmThreads;
using detail::write_row;

template <int KC, class D, class I>
__global__ void __launch_bounds__(kSpmmThreads) sell_spmm_kernel(I rows, int C, const I* __restrict__ chunk_ptr, const I* __restrict__ row_len,
                                                                 const I* __restrict__ perm, bool in_sorted_order, const I* __restrict__ col_idx,
                                                                 const D* __restrict__ values, int kc, const D* __restrict__ xr, D alpha, D beta,
                                                                 D* __restrict__ y, long long ldy) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= rows) return;
  const long long base = static_cast<long long>(chunk_ptr[i / C]) + i % C;
  const I len = row_len[i];
  D acc[KC];
#pragma unroll
  for (int j = 0; j < KC; ++j) acc[j] = D(0);
  for (I k = 0; k < len; ++k) {
    const long long e = base + static_cast<long long>(k) * C;
    add_packed_row<KC>(acc, values[e], xr + static_cast<long long>(col_idx[e]) * KC);
  }
  write_row<KC>(y, ldy, in_sorted_order ? i : static_cast<long long>(perm[i]), kc, acc, alpha, beta);
}

// SELL with P = KC / W lanes per row, each lane W of X's packed columns, W
// a 32-byte sector (spmm_common.cuh, kSectorColumns), for real values where
// a packed row is more than a sector (chosen in sell_spmm). Measured on the
// H200, ms, against the thread per row above in brackets: k = 8
// 27-point stencil 0.229 (0.308), FEM bs = 3 0.168 (0.212), random 0.852
// (0.870); k = 16 0.409 / 0.290 / 1.305 (0.970 / 0.482 / 1.587);
// k = 32 0.869 / 0.613 / 3.005 (1.929 / 0.841 / 3.421). Four
// lanes of 16 bytes each at k = 8 were slower, 0.334 / 0.283 / 0.975 (L1
// missing more), and at k = 4 (one lane, a sector) the thread kernel stays
// ahead, 0.144 / 0.119 / 0.679 against 0.148 / 0.127 / 0.698. A warp covers
// 32 / P rows of a chunk: its loads of a chunk column stay contiguous. No
// lane waits on another: each owns its row's columns to the end.
template <int KC, class D, class I>
__global__ void __launch_bounds__(kSpmmThreads) sell_spmm_lanes_kernel(I rows, int C, const I* __restrict__ chunk_ptr, const I* __restrict__ row_len,
                                                                 const I* __restrict__ perm, bool in_sorted_order, const I* __restrict__ col_idx,
                                                                 const D* __restrict__ values, int kc, const D* __restrict__ xr, D alpha, D beta,
                                                                 D* __restrict__ y, long long ldy) {
  constexpr int W = detail::kSectorColumns<KC, D>, P = KC / W;
  const long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long i = t / P;
  const int piece = static_cast<int>(t % P);
  if (i >= rows) return;
  const long long base = static_cast<long long>(chunk_ptr[i / C]) + i % C;
  D acc[W];
#pragma unroll
  for (int j = 0; j < W; ++j) acc[j] = D(0);
  detail::add_lane_entries<KC, W>(acc, row_len[i], [&](long long k) { return base + k * C; }, col_idx, values, xr, piece);
  detail::write_piece<W>(y, ldy, in_sorted_order ? i : static_cast<long long>(perm[i]), kc, piece, acc, alpha, beta);
}

template <int KC, class D, class I>
__global__ void __launch_bounds__(kSpmmThreads) bcsr_spmm_kernel(I rows, I block_rows, int b, long long block_stride, const I* __restrict__ row_ptr,
                                                                 const I* __restrict__ col_idx, const D* __restrict__ values, int kc,
                                                                 const D* __restrict__ xr, D alpha, D beta, D* __restrict__ y, long long ldy) {
  const long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long block_row = t / b;
  const int r = static_cast<int>(t % b);
  if (block_row >= block_rows) return;
  D acc[KC];
#pragma unroll
  for (int j = 0; j < KC; ++j) acc[j] = D(0);
  for (I p = row_ptr[block_row]; p < row_ptr[block_row + 1]; ++p) {
    const D* block = values + static_cast<long long>(p) * block_stride + r;  // entry (r, c) at c * b + r
    const D* xb = xr + static_cast<long long>(col_idx[p]) * b * KC;
    for (int c = 0; c < b; ++c) {
      if (!is_padding(block[c * b])) add_packed_row<KC>(acc, block[c * b], xb + c * KC);  // the block fill adds nothing (formats/padding.hpp)
    }
  }
  const long long row = block_row * b + r;
  if (row < rows) write_row<KC>(y, ldy, row, kc, acc, alpha, beta);
}

}  // namespace

template <class V, class I>
void sell_spmm(const Executor& ex, V alpha, const DeviceSell<V, I>& a, SpmmWorkspace& workspace, const ConstDenseView<V>& x, V beta,
               const DenseView<V>& y) {
  check_spmm_shapes<V>(a.rows, a.cols, x, y);
  if (a.rows == 0 || x.cols == 0) return;
  using D = detail::device_t<V>;
  const D al = detail::dev_value(alpha), be = detail::dev_value(beta);
  const bool in_sorted_order = a.permuted_columns || a.identity_order;
  detail::for_each_spmm_pass(ex, workspace, x, y, a.cols, [&](auto KC_t, const D* xr, int kc, D* ys) {
    constexpr int KC = decltype(KC_t)::value;
    constexpr int P = KC / detail::kSectorColumns<KC, D>;
    const auto s = detail::stream_of(ex);
    if constexpr (detail::kVectorLoads<D> && P > 1) {  // sell_spmm_lanes (the kernel's comment has the measurements)
      sell_spmm_lanes_kernel<KC, D, I><<<detail::grid_for(static_cast<long long>(a.rows) * P, kSpmmThreads), kSpmmThreads, 0, s>>>(
          a.rows, a.chunk, a.chunk_ptr.data(), a.row_len.data(), a.perm.data(), in_sorted_order, a.col_idx.data(), detail::dev(a.values.data()), kc,
          xr, al, be, ys, y.ld);
    } else {
      sell_spmm_kernel<KC, D, I><<<detail::grid_for(a.rows, kSpmmThreads), kSpmmThreads, 0, s>>>(
          a.rows, a.chunk, a.chunk_ptr.data(), a.row_len.data(), a.perm.data(), in_sorted_order, a.col_idx.data(), detail::dev(a.values.data()), kc,
          xr, al, be, ys, y.ld);
    }
  });
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

template <class V, class I>
void bcsr_spmm(const Executor& ex, V alpha, const DeviceBcsr<V, I>& a, SpmmWorkspace& workspace, const ConstDenseView<V>& x, V beta,
               const DenseView<V>& y) {
  check_spmm_shapes<V>(a.rows, a.cols, x, y);
  if (a.rows == 0 || x.cols == 0) return;
  using D = detail::device_t<V>;
  const D al = detail::dev_value(alpha), be = detail::dev_value(beta);
  const long long b = a.block;
  const long long padded_cols = (static_cast<long long>(a.cols) + b - 1) / b * b;
  detail::for_each_spmm_pass(ex, workspace, x, y, padded_cols, [&](auto KC_t, const D* xr, int kc, D* ys) {
    constexpr int KC = decltype(KC_t)::value;
    bcsr_spmm_kernel<KC, D, I><<<detail::grid_for(static_cast<long long>(a.block_rows) * b, kSpmmThreads), kSpmmThreads, 0, detail::stream_of(ex)>>>(
        a.rows, a.block_rows, a.block, static_cast<long long>(a.block_stride), a.row_ptr.data(), a.col_idx.data(), detail::dev(a.values.data()), kc, xr,
        al, be, ys, y.ld);
  });
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

#define HSPARSE_INSTANTIATE(V, I)                                                                                                         \
  template void sell_spmm(const Executor&, V, const DeviceSell<V, I>&, SpmmWorkspace&, const ConstDenseView<V>&, V, const DenseView<V>&); \
  template void bcsr_spmm(const Executor&, V, const DeviceBcsr<V, I>&, SpmmWorkspace&, const ConstDenseView<V>&, V, const DenseView<V>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
