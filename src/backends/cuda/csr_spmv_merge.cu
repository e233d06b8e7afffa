// Merge-path CSR SpMV (Merrill and Garland, SC'16, section 4; Owens
// lecture). Decomposition: the merge path of the row-end offsets and the
// nonzero indices has rows + nnz items; block b owns items [b*kTile,
// (b+1)*kTile) and thread t of it kItemsPerThread of those. Rows that end
// inside a thread's share are written by that thread; the part of the row at
// the share's end is a carry, added by carries.cuh's pass. Long rows are thus
// spread over as many threads as their length needs.
//
// As in CUB's DeviceSpmv (the paper's implementation), the tiles' corners on
// the merge path are searched by a kernel of their own, a thread per tile;
// the block then stages its row ends and its products val*x[col] in shared
// memory with coalesced loads, and each thread finds its own start by a
// search in shared memory. The corners depend on the row pointers alone, so
// the plan searches them once, at setup (csr_merge_prepare), where CUB
// searches on every call.
// Measured on the H200 (power-law matrix of the default suite): searching
// in global memory, by every thread for its share's ends or by two threads
// a block while the rest wait at a barrier for 2 x 22 dependent loads, ran
// at 0.53-0.57x cuSPARSE's CSR (L2 flushed). With the corners searched
// once, 78 registers a thread left 36% occupancy (30% on short-wide): too
// few warps to hide the gathers' latency, 0.67x. At most 56 registers
// (kMinBlocksPerSm): 280 GFLOP/s, 0.95x cuSPARSE's CSR; circuit n = 3e6
// 0.96x, short-wide 0.91x (docs/results/2026-11-27-spmv-suite-h200,
// ab-merge-*.txt).
#include "carries.cuh"
#include "hsparse/backends/cuda/csr_spmv.hpp"

namespace hsparse::cuda {

namespace {

// Odd on purpose (CUB's tuned item counts are odd too): a thread walks consecutive products, so
// threads of a warp read shared memory kItemsPerThread * (nnz share) apart;
// at 16 doubles (128 bytes) apart every lane would hit the same bank.
constexpr int kItemsPerThread = 15;
constexpr int kThreadsPerBlock = 128;
constexpr int kTile = kThreadsPerBlock * kItemsPerThread;  // a block's merge items, hence at most its rows + nonzeros
// Resident blocks the register budget must allow: 9 caps a thread at 56
// registers (65536 / (9 x 128)). Same-run A/B on the power law, circuit
// n = 3e6 and short-wide (H200): 8 blocks 264 / 280 / 221 GFLOP/s, 9 blocks
// 280 / 286 / 220, 10 blocks 273 / 275 / 217, 12 blocks 239 / 236 / 200,
// 16 blocks (32 registers) 138 / 141 / 122. With 9 blocks, 11 or 13 items a
// thread lost 15-23% and 5-16% against 15.
constexpr int kMinBlocksPerSm = 9;

// The point where diagonal `diag` crosses the merge path of row_end[0, rows)
// and the nonzero indices [0, nnz): `row` row ends and `nonzero` nonzeros
// lie before it (a row end is taken first when row_end <= the nonzero index).
template <class E>
__device__ __forceinline__ void merge_path_search(long long diag, const E* row_end, long long rows, long long nnz,
                                                  long long& row, long long& nonzero) {
  long long lo = diag - nnz > 0 ? diag - nnz : 0, hi = diag < rows ? diag : rows;
  while (lo < hi) {
    const long long pivot = (lo + hi) / 2;
    if (static_cast<long long>(row_end[pivot]) <= diag - pivot - 1) lo = pivot + 1;
    else hi = pivot;
  }
  row = lo;
  nonzero = diag - lo;
}

// Shared memory of a tile: its products (D) then its row ends relative to
// the tile's first nonzero (int: they are at most kTile). rows + nonzeros <=
// kTile, so kTile * max(sizeof(D), 4) bytes hold both, plus alignment.
template <class D>
inline constexpr std::size_t kTileBytes = static_cast<std::size_t>(kTile) * (sizeof(D) > 4 ? sizeof(D) : 4) + 16;

// Tile b's first (row, nonzero) at corners[2b], corners[2b + 1], for b in
// [0, tiles]: the last is the path's end (rows, nnz).
template <class I>
__global__ void merge_corners_kernel(long long rows, long long nnz, const I* __restrict__ row_ptr, long long tiles,
                                     long long* __restrict__ corners) {
  const long long b = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (b > tiles) return;
  const long long items = rows + nnz;
  merge_path_search(b * kTile < items ? b * kTile : items, row_ptr + 1, rows, nnz, corners[2 * b], corners[2 * b + 1]);
}

template <class D, class I>
__global__ void __launch_bounds__(kThreadsPerBlock, kMinBlocksPerSm)
    csr_merge_kernel(long long rows, const I* __restrict__ row_ptr, const I* __restrict__ col_idx, const D* __restrict__ values,
                     const D* __restrict__ x, D alpha, D beta, bool read_y, D* __restrict__ y, const long long* __restrict__ corners,
                     long long* __restrict__ carry_row, D* __restrict__ carry_val) {
  static_assert(kTileBytes<D> >= detail::carry_scratch_bytes<D>(kThreadsPerBlock), "combine_block_carries reuses the tile");
  __shared__ alignas(16) unsigned char tile[kTileBytes<D>];
  const long long* corner = corners + 2 * static_cast<long long>(blockIdx.x);  // this tile's start, then the next one's
  const long long r0 = corner[0], k0 = corner[1];
  const int tile_rows = static_cast<int>(corner[2] - r0), tile_nnz = static_cast<int>(corner[3] - k0);
  D* products = reinterpret_cast<D*>(tile);
  int* row_end = reinterpret_cast<int*>(tile + (static_cast<std::size_t>(tile_nnz) * sizeof(D) + 15) / 16 * 16);
  for (int i = threadIdx.x; i < tile_rows; i += kThreadsPerBlock) row_end[i] = static_cast<int>(row_ptr[r0 + 1 + i] - k0);
  detail::stage_products<kThreadsPerBlock, kItemsPerThread, true>(k0, tile_nnz, col_idx, values, x, products);
  __syncthreads();
  const int tile_items = tile_rows + tile_nnz;
  const int d0 = static_cast<int>(threadIdx.x) * kItemsPerThread < tile_items ? static_cast<int>(threadIdx.x) * kItemsPerThread : tile_items;
  const int d1 = d0 + kItemsPerThread < tile_items ? d0 + kItemsPerThread : tile_items;
  long long r, k, r_end, k_end;
  merge_path_search(d0, row_end, tile_rows, tile_nnz, r, k);
  merge_path_search(d1, row_end, tile_rows, tile_nnz, r_end, k_end);
  for (; r < r_end; ++r) {
    D sum(0);
    for (const int end = row_end[r]; k < end; ++k) sum += products[k];
    detail::write_output(y, r0 + r, alpha, sum, beta, read_y);
  }
  D sum(0);
  for (; k < k_end; ++k) sum += products[k];
  // A thread without items (past the end) carries nothing: row `rows`.
  const long long carry[1] = {d0 < d1 ? r0 + r_end : rows};
  const D carried[1] = {sum};
  detail::combine_block_carries<1>(rows, carry, carried, alpha, y, carry_row, carry_val, tile);
}

long long merge_blocks(long long rows, long long nnz) { return (rows + nnz + kTile - 1) / kTile; }

// The workspace: the carries (carries.cuh's layout), then the tile corners
// (2 x (blocks + 1) long long) at the next 16-byte boundary.
std::size_t corners_offset(long long blocks, std::size_t value_bytes) {
  return (detail::carries_bytes(blocks, value_bytes) + 15) / 16 * 16;
}
long long* merge_corners(void* workspace, long long blocks, std::size_t value_bytes) {
  return reinterpret_cast<long long*>(static_cast<unsigned char*>(workspace) + corners_offset(blocks, value_bytes));
}

long long checked_merge_blocks(long long rows, long long nnz) {
  const long long blocks = merge_blocks(rows, nnz);
  if (blocks > (1LL << 30)) throw Error(ErrorCode::invalid_argument, "CSR merge: the matrix needs more blocks than one grid holds");
  return blocks;
}

}  // namespace

std::size_t csr_merge_workspace_bytes(long long rows, long long nnz, std::size_t value_bytes) {
  const long long blocks = merge_blocks(rows, nnz);
  return corners_offset(blocks, value_bytes) + 2 * static_cast<std::size_t>(blocks + 1) * sizeof(long long);
}

template <class V, class I>
void csr_merge_prepare(const Executor& ex, const DeviceCsr<V, I>& a, void* workspace) {
  if (a.rows == 0) return;
  const long long rows = a.rows, nnz = static_cast<long long>(a.nnz());
  const long long blocks = checked_merge_blocks(rows, nnz);
  merge_corners_kernel<I><<<detail::grid_for(blocks + 1, 256), 256, 0, detail::stream_of(ex)>>>(
      rows, nnz, a.row_ptr.data(), blocks, merge_corners(workspace, blocks, sizeof(V)));
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

template <class V, class I>
void csr_spmv_merge(const Executor& ex, V alpha, const DeviceCsr<V, I>& a, const V* x, V beta, V* y, void* workspace) {
  if (a.rows == 0) return;
  using D = detail::device_t<V>;
  const long long rows = a.rows, nnz = static_cast<long long>(a.nnz());
  const long long blocks = checked_merge_blocks(rows, nnz);
  auto* carry_row = static_cast<long long*>(workspace);  // one carry per block
  D* carry_val = detail::carry_values<D>(workspace, blocks);
  const D al = detail::dev_value(alpha);
  csr_merge_kernel<D, I><<<static_cast<unsigned>(blocks), kThreadsPerBlock, 0, detail::stream_of(ex)>>>(
      rows, a.row_ptr.data(), a.col_idx.data(), detail::dev(a.values.data()), detail::dev(x), al, detail::dev_value(beta),
      beta != V(0), detail::dev(y), merge_corners(workspace, blocks, sizeof(V)), carry_row, carry_val);
  HSPARSE_CUDA_CHECK(cudaGetLastError());
  detail::add_carries(ex, blocks, rows, carry_row, carry_val, al, detail::dev(y));
}

#define HSPARSE_INSTANTIATE(V, I)                                                                \
  template void csr_merge_prepare(const Executor&, const DeviceCsr<V, I>&, void*);             \
  template void csr_spmv_merge(const Executor&, V, const DeviceCsr<V, I>&, const V*, V, V*, void*);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
