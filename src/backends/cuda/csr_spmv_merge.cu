// Merge-path CSR SpMV (Merrill and Garland, SC'16, section 4; Owens
// lecture). Decomposition: the merge path of the row-end offsets and the
// nonzero indices has rows + nnz items; block b owns items [b*kTile,
// (b+1)*kTile) and thread t of it kItemsPerThread of those. Rows that end
// inside a thread's share are written by that thread; the part of the row at
// the share's end is a carry, added by carries.cuh's pass. Long rows are thus
// spread over as many threads as their length needs.
//
// As in CUB's AgentSpmv (the paper's implementation), only the block's two
// corners are searched in global memory (two threads, 2 log2(rows) dependent
// loads per block); the block then stages its row ends and its products
// val*x[col] in shared memory with coalesced loads, and each thread finds its
// own start by a search in shared memory. The first version searched both
// ends of every thread's share in global memory: 174 GFLOP/s on the power-law
// matrix of the default suite (H200, f58a83e), where cuSPARSE's CSR gets 307.
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

template <class D, class I>
__global__ void __launch_bounds__(kThreadsPerBlock)
    csr_merge_kernel(long long rows, long long nnz, const I* __restrict__ row_ptr, const I* __restrict__ col_idx,
                     const D* __restrict__ values, const D* __restrict__ x, D alpha, D beta, bool read_y, D* __restrict__ y,
                     long long* __restrict__ carry_row, D* __restrict__ carry_val) {
  static_assert(kTileBytes<D> >= detail::carry_scratch_bytes<D>(kThreadsPerBlock), "combine_block_carries reuses the tile");
  __shared__ alignas(16) unsigned char tile[kTileBytes<D>];
  __shared__ long long corner[4];  // the block's first (row, nonzero) and its end
  const long long items = rows + nnz;
  const long long b0 = static_cast<long long>(blockIdx.x) * kTile < items ? static_cast<long long>(blockIdx.x) * kTile : items;
  const long long b1 = b0 + kTile < items ? b0 + kTile : items;
  if (threadIdx.x == 0) merge_path_search(b0, row_ptr + 1, rows, nnz, corner[0], corner[1]);
  if (threadIdx.x == 32) merge_path_search(b1, row_ptr + 1, rows, nnz, corner[2], corner[3]);  // another warp: in parallel
  __syncthreads();
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

}  // namespace

std::size_t csr_merge_workspace_bytes(long long rows, long long nnz, std::size_t value_bytes) {
  return detail::carries_bytes(merge_blocks(rows, nnz), value_bytes);
}

template <class V, class I>
void csr_spmv_merge(const Executor& ex, V alpha, const DeviceCsr<V, I>& a, const V* x, V beta, V* y, void* workspace) {
  if (a.rows == 0) return;
  using D = detail::device_t<V>;
  const long long rows = a.rows, nnz = static_cast<long long>(a.nnz());
  const long long blocks = merge_blocks(rows, nnz);
  if (blocks > (1LL << 30)) throw Error(ErrorCode::invalid_argument, "CSR merge: the matrix needs more blocks than one grid holds");
  auto* carry_row = static_cast<long long*>(workspace);  // one carry per block
  D* carry_val = detail::carry_values<D>(workspace, blocks);
  const D al = detail::dev_value(alpha);
  csr_merge_kernel<D, I><<<static_cast<unsigned>(blocks), kThreadsPerBlock, 0, detail::stream_of(ex)>>>(
      rows, nnz, a.row_ptr.data(), a.col_idx.data(), detail::dev(a.values.data()), detail::dev(x), al,
      detail::dev_value(beta), beta != V(0), detail::dev(y), carry_row, carry_val);
  HSPARSE_CUDA_CHECK(cudaGetLastError());
  detail::add_carries(ex, blocks, rows, carry_row, carry_val, al, detail::dev(y));
}

#define HSPARSE_INSTANTIATE(V, I) \
  template void csr_spmv_merge(const Executor&, V, const DeviceCsr<V, I>&, const V*, V, V*, void*);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
