// The three BCSR GPU algorithms of Eberhardt and Hoemmen (SAND2016-4883 C).
// Blocks are column-major inside (entry (i, j) of block k at
// values[k * stride + j * bs + i]); a warp owns one block row in all three.
//  - by-block (bs <= 5): lane l takes entry l % bs^2 of block l / bs^2 of
//    each group of 32 / bs^2 blocks, so the warp reads whole blocks
//    contiguously (coalesced values); per-row partial sums are combined in
//    shared memory in a fixed order.
//  - by-column (bs <= 32): a group of G lanes (4..32) owns a block row;
//    lane l of it takes block-row columns l, l+G, ..., each a contiguous
//    column of bs values, accumulating bs row sums, and the group reduces
//    each row's sums with shuffles. The paper's warp per block row is
//    G = 32; a smaller G keeps lanes busy on short block rows (a block row
//    of 60 columns left 68 of a warp's 128 column slots idle).
//  - row-per-thread (best for bs >= 16): lane i owns row i of the block row
//    and reads values[k * stride + j * bs + i] (consecutive lanes,
//    consecutive values); the block's bs x entries are staged in shared memory.
// The last block column may reach past the matrix: x is read only for real
// columns; rows past the matrix are not written.
#include "device_common.cuh"
#include "hsparse/formats/padding.hpp"
#include "hsparse/backends/cuda/format_spmv.hpp"

namespace hsparse::cuda {

namespace {

constexpr int kWarpsPerBlock = 4;
// by-column's U: block columns per lane per step, their x gathers issued together.
// bs = 3 takes 2: on the H200 with 16 lanes, the lanes rule's choice, U = 2
// ran 5-7% ahead of U = 4 and 1-2% ahead of U = 3 and 1 (FEM bs = 3 at
// n = 74 and 48, bcsstk16 x 344; ABBA within each call;
// docs/results/2026-11-27-dia-tiles-bcsr-unroll-h200). (With 8 lanes U = 2 ties or
// loses to U = 4 on FEM; with 32 it wins by 8-15%.) Why is not profiled:
// fewer registers, and on FEM's 81 columns a block row three steps of 32
// slots fill 84% of them where two of 64 fill 63%, are candidates; U = 3
// and 1 fill the same 84% and are slower. Other block sizes keep 4: U = 2
// was not measured there.
__host__ __device__ constexpr int by_column_unroll(int block) { return block == 3 ? 2 : block <= 8 ? 4 : 1; }
constexpr double kByColumnValuesPerLane = 16;  // bcsr_by_column_lanes

// Row i of block row br without the block fill (formats/padding.hpp): the
// kernels multiply every value of a block, and a row whose sum is then not
// finite (the fill may have met NaN or infinity in x) is summed again here.
// One test per row; a select per value cost a third of the kernels' speed
// (docs/results/2026-11-28-padding-ieee/). Not inlined: the rare path stays
// out of the kernels' registers and code.
template <class D, class I>
__device__ __noinline__ D bcsr_row_without_fill(long long br, int i, int bs, long long stride, I cols, const I* __restrict__ row_ptr, const I* __restrict__ col_idx,
                                   const D* __restrict__ values, const D* __restrict__ x) {
  D sum(0);
  for (long long k = row_ptr[br]; k < row_ptr[br + 1]; ++k) {
    for (int j = 0; j < bs; ++j) {
      const long long c = static_cast<long long>(col_idx[k]) * bs + j;
      if (c < cols) sum += entry_product(values[k * stride + j * bs + i], x[c]);
    }
  }
  return sum;
}

// 32 values per warp of the block in shared memory. Real types get a typed
// array (as before complex support: raw storage measured 2% slower in
// row-per-thread on the H200); complex types, whose constructors __shared__
// arrays may not have, get raw storage of the same size.
template <class D>
__device__ __forceinline__ D (*shared_rows())[32] {
  if constexpr (std::is_arithmetic_v<D>) {
    __shared__ D rows[kWarpsPerBlock][32];
    return rows;
  } else {
    __shared__ alignas(16) unsigned char bytes[kWarpsPerBlock * 32 * sizeof(D)];
    return reinterpret_cast<D(*)[32]>(bytes);
  }
}

template <int BS, class D, class I>
__global__ void __launch_bounds__(32 * kWarpsPerBlock)
    bcsr_by_block_kernel(I block_rows, long long stride, I rows, I cols, const I* __restrict__ row_ptr,
                                     const I* __restrict__ col_idx, const D* __restrict__ values, const D* __restrict__ x,
                                     D alpha, D beta, bool read_y, D* __restrict__ y) {
  D(*partial)[32] = shared_rows<D>();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const long long br = static_cast<long long>(blockIdx.x) * kWarpsPerBlock + warp;
  constexpr int bs = BS, bb = BS * BS, per_step = 32 / bb;  // compile-time: no run-time division in the loop
  const int e = lane % bb, col = e / bs;  // entry e is row e % bs, column e / bs of its block
  const bool active = lane < per_step * bb;
  D sum(0);
  if (br < block_rows && active) {
    const long long end = row_ptr[br + 1];
#pragma unroll 4
    for (long long k = row_ptr[br] + lane / bb; k < end; k += per_step) {
      const long long c = static_cast<long long>(col_idx[k]) * bs + col;
      if (c < cols) sum += values[k * stride + e] * x[c];
    }
  }
  partial[warp][lane] = sum;
  __syncwarp();
  if (br < block_rows && lane < bs) {
    D total(0);
#pragma unroll
    for (int l = lane; l < per_step * bb; l += bs) total += partial[warp][l];  // lanes with e % bs == lane, in order
    const long long r = br * bs + lane;
    if (!is_finite_value(total)) total = bcsr_row_without_fill(br, lane, bs, stride, cols, row_ptr, col_idx, values, x);
    if (r < rows) detail::write_output(y, r, alpha, total, beta, read_y);
  }
}

// by-column's column arithmetic (a block row's columns, their block and x
// indices): unsigned 32-bit for int32 indices, where all of them stay below
// 2^31 + 32, else 64-bit. A 64-bit division of the column by BS was most of
// the loop's index work (as CSR adaptive's 64-bit work blocks were:
// docs/results/2026-11-27-csr-adaptive-int32-blocks-h200). The values' offsets stay
// 64-bit (blocks x stride may pass 2^32), one widening multiply-add.
template <class I>
using ByColumnIndex = std::conditional_t<sizeof(I) == 4, unsigned, unsigned long long>;

template <int BS, int G, class D, class I>
__global__ void bcsr_by_column_kernel(I block_rows, ByColumnIndex<I> stride, I rows, I cols, const I* __restrict__ row_ptr,
                                      const I* __restrict__ col_idx, const D* __restrict__ values, const D* __restrict__ x,
                                      D alpha, D beta, bool read_y, D* __restrict__ y) {
  using N = ByColumnIndex<I>;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % G;
  const long long br = (static_cast<long long>(blockIdx.x) * kWarpsPerBlock + warp) * (32 / G) + static_cast<int>(threadIdx.x % 32) / G;
  D acc[BS];
#pragma unroll
  for (int i = 0; i < BS; ++i) acc[i] = D(0);
  if (br < block_rows) {
    const N first = static_cast<N>(row_ptr[br]), columns = (static_cast<N>(row_ptr[br + 1]) - first) * BS;
    // U block columns per lane per step, their x gathers issued together
    // (one column at a time was a latency-bound col_idx -> x chain). A
    // column's values are read whether or not its x exists: the padding
    // past the matrix's last column is zero (Bcsr), and its x is taken as
    // zero, so the value loads wait for the row offsets only, not for the
    // column index.
    constexpr int U = by_column_unroll(BS);
    for (N c0 = lane; c0 < columns; c0 += G * U) {
      D xv[U];
      unsigned long long offset[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const N c = c0 + static_cast<N>(G) * u;
        xv[u] = D(0);
        offset[u] = 0;
        if (c < columns) {
          const N k = first + c / BS;
          const N j = c % BS;
          const N xc = static_cast<N>(col_idx[k]) * BS + j;
          if (xc < static_cast<N>(cols)) xv[u] = x[xc];
          offset[u] = static_cast<unsigned long long>(k) * stride + j * BS;
        }
      }
#pragma unroll
      for (int u = 0; u < U; ++u) {
        if (c0 + static_cast<N>(G) * u >= columns) break;
        const D* column = values + offset[u];
#pragma unroll
        for (int i = 0; i < BS; ++i) acc[i] += column[i] * xv[u];
      }
    }
  }
#pragma unroll
  for (int i = 0; i < BS; ++i) acc[i] = detail::group_sum<G>(acc[i]);  // the whole warp takes part
  if (br < block_rows && lane == 0) {
#pragma unroll
    for (int i = 0; i < BS; ++i) {
      const long long r = br * BS + i;
      if (!is_finite_value(acc[i])) acc[i] = bcsr_row_without_fill(br, i, BS, static_cast<long long>(stride), cols, row_ptr, col_idx, values, x);
      if (r < rows) detail::write_output(y, r, alpha, acc[i], beta, read_y);
    }
  }
}

template <class D, class I>
__global__ void bcsr_row_per_thread_kernel(I block_rows, int bs, long long stride, I rows, I cols, const I* __restrict__ row_ptr,
                                           const I* __restrict__ col_idx, const D* __restrict__ values, const D* __restrict__ x,
                                           D alpha, D beta, bool read_y, D* __restrict__ y) {
  D(*xs)[32] = shared_rows<D>();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const long long br = static_cast<long long>(blockIdx.x) * kWarpsPerBlock + warp;
  if (br >= block_rows) return;  // whole warps leave together
  D sum(0);
  for (long long k = row_ptr[br]; k < row_ptr[br + 1]; ++k) {
    const long long c0 = static_cast<long long>(col_idx[k]) * bs;
    if (lane < bs) xs[warp][lane] = c0 + lane < cols ? x[c0 + lane] : D(0);
    __syncwarp();
    if (lane < bs) {
      const D* block = values + k * stride;
      for (int j = 0; j < bs; ++j) sum += block[j * bs + lane] * xs[warp][j];
    }
    __syncwarp();
  }
  const long long r = br * bs + lane;
  if (lane < bs && !is_finite_value(sum)) sum = bcsr_row_without_fill(br, lane, bs, stride, cols, row_ptr, col_idx, values, x);
  if (lane < bs && r < rows) detail::write_output(y, r, alpha, sum, beta, read_y);
}

template <int BS, class V, class I>
void launch_by_block(const Executor& ex, unsigned grid, const DeviceBcsr<V, I>& a, const V* x, V alpha, V beta, bool read_y, V* y) {
  using D = detail::device_t<V>;
  bcsr_by_block_kernel<BS, D, I><<<grid, 32 * kWarpsPerBlock, 0, detail::stream_of(ex)>>>(
      a.block_rows, static_cast<long long>(a.block_stride), a.rows, a.cols, a.row_ptr.data(), a.col_idx.data(),
      detail::dev(a.values.data()), detail::dev(x), detail::dev_value(alpha), detail::dev_value(beta), read_y, detail::dev(y));
}

template <int BS, int G, class V, class I>
void launch_by_column_group(const Executor& ex, const DeviceBcsr<V, I>& a, const V* x, V alpha, V beta, bool read_y, V* y) {
  using D = detail::device_t<V>;
  const long long warps = (static_cast<long long>(a.block_rows) + 32 / G - 1) / (32 / G);
  bcsr_by_column_kernel<BS, G, D, I><<<detail::grid_for(warps, kWarpsPerBlock), 32 * kWarpsPerBlock, 0, detail::stream_of(ex)>>>(
      a.block_rows, static_cast<ByColumnIndex<I>>(a.block_stride), a.rows, a.cols, a.row_ptr.data(), a.col_idx.data(), detail::dev(a.values.data()),
      detail::dev(x), detail::dev_value(alpha), detail::dev_value(beta), read_y, detail::dev(y));
}

template <int BS, class V, class I>
void launch_by_column(const Executor& ex, int lanes, const DeviceBcsr<V, I>& a, const V* x, V alpha, V beta, bool read_y, V* y) {
  switch (lanes) {
    case 4: launch_by_column_group<BS, 4>(ex, a, x, alpha, beta, read_y, y); break;
    case 8: launch_by_column_group<BS, 8>(ex, a, x, alpha, beta, read_y, y); break;
    case 16: launch_by_column_group<BS, 16>(ex, a, x, alpha, beta, read_y, y); break;
    case 32: launch_by_column_group<BS, 32>(ex, a, x, alpha, beta, read_y, y); break;
    default: throw Error(ErrorCode::invalid_argument, "BCSR by-column: lanes per block row must be 4, 8, 16 or 32, not " + std::to_string(lanes));
  }
}

}  // namespace

// by-column's lanes per block row: the fewest (4-32) with at most
// kByColumnValuesPerLane of the block row's values each. Fewer lanes make
// each group's chain of steps long, more leave lanes idle. Measured with U
// block columns a lane a step (same-call runs, GFLOP/s at 8 / 16 lanes;
// docs/results/2026-11-27-sell-device-dia-tiles-h200-h100): H200 FEM bs = 3 843 / 849,
// FEM bs = 3 n = 48 700 / 724, bcsstk16 a tie; H100 FEM bs = 3 610 / 642,
// bcsstk16 593 / 617, FEM bs = 3 n = 48 534 / 568. So 16 lanes at bs = 3
// (183-237 values a block row); FEM bs = 6 (936) keeps 32 (1000 against 983
// at 16 on the H200), banded bs = 2 (26) keeps 4 (on the H100 464 GFLOP/s
// against 129 with the warp; scripts/experiments/bcsr-lanes.sh). Rules in
// columns, or filling the group's column slots, took lanes 7% and more
// slower. Blocks past 8 keep the warp: not measured. Six block columns a
// lane a step at bs = 3 instead of four lost 7-12% on the H200.
int bcsr_by_column_lanes(long long blocks, long long block_rows, int block) {
  if (blocks <= 0 || block_rows <= 0 || block > 8) return 32;
  const double values = static_cast<double>(blocks) * block * block / static_cast<double>(block_rows);  // per block row, mean
  int lanes = 4;
  while (lanes < 32 && values / lanes > kByColumnValuesPerLane) lanes *= 2;
  return lanes;
}

template <class V, class I>
void bcsr_spmv(const Executor& ex, BcsrAlgorithm algorithm, V alpha, const DeviceBcsr<V, I>& a, const V* x, V beta, V* y, int lanes) {
  if (a.rows == 0) return;
  using D = detail::device_t<V>;
  const unsigned grid = detail::grid_for(a.block_rows, kWarpsPerBlock);
  const int bs = a.block;
  const bool read_y = beta != V(0);
  switch (algorithm) {
    case BcsrAlgorithm::by_block:
      switch (bs) {
        case 1: launch_by_block<1>(ex, grid, a, x, alpha, beta, read_y, y); break;
        case 2: launch_by_block<2>(ex, grid, a, x, alpha, beta, read_y, y); break;
        case 3: launch_by_block<3>(ex, grid, a, x, alpha, beta, read_y, y); break;
        case 4: launch_by_block<4>(ex, grid, a, x, alpha, beta, read_y, y); break;
        case 5: launch_by_block<5>(ex, grid, a, x, alpha, beta, read_y, y); break;
        default: throw Error(ErrorCode::invalid_argument, "BCSR by-block handles block sizes up to 5 (Eberhardt and Hoemmen)");
      }
      break;
    case BcsrAlgorithm::by_column:
      switch (bs) {
        case 1: launch_by_column<1>(ex, lanes, a, x, alpha, beta, read_y, y); break;
        case 2: launch_by_column<2>(ex, lanes, a, x, alpha, beta, read_y, y); break;
        case 3: launch_by_column<3>(ex, lanes, a, x, alpha, beta, read_y, y); break;
        case 4: launch_by_column<4>(ex, lanes, a, x, alpha, beta, read_y, y); break;
        case 5: launch_by_column<5>(ex, lanes, a, x, alpha, beta, read_y, y); break;
        case 6: launch_by_column<6>(ex, lanes, a, x, alpha, beta, read_y, y); break;
        case 8: launch_by_column<8>(ex, lanes, a, x, alpha, beta, read_y, y); break;
        case 16: launch_by_column<16>(ex, lanes, a, x, alpha, beta, read_y, y); break;
        case 32: launch_by_column<32>(ex, lanes, a, x, alpha, beta, read_y, y); break;
        default:
          throw Error(ErrorCode::invalid_argument, "BCSR by-column is compiled for block sizes 1-6, 8, 16 and 32; use row-per-thread for " +
                                                       std::to_string(bs));
      }
      break;
    case BcsrAlgorithm::row_per_thread:
      bcsr_row_per_thread_kernel<D, I><<<grid, 32 * kWarpsPerBlock, 0, detail::stream_of(ex)>>>(
          a.block_rows, bs, static_cast<long long>(a.block_stride), a.rows, a.cols, a.row_ptr.data(), a.col_idx.data(),
          detail::dev(a.values.data()), detail::dev(x), detail::dev_value(alpha), detail::dev_value(beta), read_y, detail::dev(y));
      break;
  }
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

#define HSPARSE_INSTANTIATE(V, I) \
  template void bcsr_spmv(const Executor&, BcsrAlgorithm, V, const DeviceBcsr<V, I>&, const V*, V, V*, int);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
