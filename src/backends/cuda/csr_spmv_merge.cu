// Merge-path CSR SpMV (Merrill and Garland, SC'16; Owens lecture).
// Decomposition: the merge path of the row-end offsets and the nonzero
// indices has rows + nnz items; thread t owns items [t*K, (t+1)*K), K =
// kItemsPerThread, and finds its start by a binary search along diagonal
// t*K. Rows that end inside a share are written by that thread; the part of
// the row at the share's end is a carry, added by carries.cuh's pass. Long
// rows are thus spread over as many threads as their length needs.
#include "carries.cuh"
#include "hsparse/backends/cuda/csr_spmv.hpp"

namespace hsparse::cuda {

namespace {

constexpr int kItemsPerThread = 16;

template <class I>
__device__ __forceinline__ void merge_path_search(long long diag, const I* __restrict__ row_end, long long rows, long long nnz,
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

constexpr int kThreadsPerBlock = 128;
constexpr int kTile = kThreadsPerBlock * kItemsPerThread;  // a block's merge items, hence at most its nonzeros

// After the searches, the block stages the products val*x[col] of its
// nonzero range in shared memory with coalesced loads (CUB's approach); each
// thread's sequential walk then reads shared memory, not scattered global
// lines.
template <class D, class I>
__global__ void __launch_bounds__(kThreadsPerBlock)
    csr_merge_kernel(long long rows, long long nnz, long long threads, const I* __restrict__ row_ptr,
                     const I* __restrict__ col_idx, const D* __restrict__ values, const D* __restrict__ x, D alpha, D beta,
                     bool read_y, D* __restrict__ y, long long* __restrict__ carry_row, D* __restrict__ carry_val) {
  __shared__ alignas(16) unsigned char product_bytes[kTile * sizeof(D)];
  __shared__ long long block_k[2];
  D* products = reinterpret_cast<D*>(product_bytes);
  const long long t = blockIdx.x * static_cast<long long>(kThreadsPerBlock) + threadIdx.x;
  const long long items = rows + nnz;
  const long long d0 = t * kItemsPerThread < items ? t * kItemsPerThread : items;
  const long long d1 = d0 + kItemsPerThread < items ? d0 + kItemsPerThread : items;
  long long r, k, r_end, k_end;
  merge_path_search(d0, row_ptr + 1, rows, nnz, r, k);
  merge_path_search(d1, row_ptr + 1, rows, nnz, r_end, k_end);
  if (threadIdx.x == 0) block_k[0] = k;
  if (threadIdx.x == kThreadsPerBlock - 1 || t == threads - 1) block_k[1] = k_end;
  __syncthreads();
  const long long kb = block_k[0];
  const int staged = static_cast<int>(block_k[1] - kb);
  detail::stage_products<kThreadsPerBlock, kItemsPerThread>(kb, staged, col_idx, values, x, products);
  __syncthreads();
  // Threads past the end (last block) take part in the carry combination with no carry.
  for (; r < r_end; ++r) {
    D sum(0);
    for (const long long end = row_ptr[r + 1]; k < end; ++k) sum += products[k - kb];
    detail::write_output(y, r, alpha, sum, beta, read_y);
  }
  D sum(0);
  for (; k < k_end; ++k) sum += products[k - kb];
  const long long carry[1] = {t < threads ? r_end : rows};  // r_end == rows: nothing carried
  const D carried[1] = {sum};
  detail::combine_block_carries<1>(rows, carry, carried, alpha, y, carry_row, carry_val, product_bytes);
}

long long merge_threads(long long rows, long long nnz) { return (rows + nnz + kItemsPerThread - 1) / kItemsPerThread; }
long long merge_blocks(long long rows, long long nnz) { return (merge_threads(rows, nnz) + kThreadsPerBlock - 1) / kThreadsPerBlock; }

}  // namespace

std::size_t csr_merge_workspace_bytes(long long rows, long long nnz, std::size_t value_bytes) {
  return detail::carries_bytes(merge_blocks(rows, nnz), value_bytes);
}

template <class V, class I>
void csr_spmv_merge(const Executor& ex, V alpha, const DeviceCsr<V, I>& a, const V* x, V beta, V* y, void* workspace) {
  if (a.rows == 0) return;
  using D = detail::device_t<V>;
  const long long rows = a.rows, nnz = static_cast<long long>(a.nnz()), threads = merge_threads(rows, nnz);
  const long long blocks = merge_blocks(rows, nnz);
  if (blocks > (1LL << 30)) throw Error(ErrorCode::invalid_argument, "CSR merge: the matrix needs more blocks than one grid holds");
  auto* carry_row = static_cast<long long*>(workspace);  // one carry per block
  D* carry_val = detail::carry_values<D>(workspace, blocks);
  const D al = detail::dev_value(alpha);
  csr_merge_kernel<D, I><<<static_cast<unsigned>(blocks), kThreadsPerBlock, 0, detail::stream_of(ex)>>>(
      rows, nnz, threads, a.row_ptr.data(), a.col_idx.data(), detail::dev(a.values.data()), detail::dev(x), al,
      detail::dev_value(beta), beta != V(0), detail::dev(y), carry_row, carry_val);
  HSPARSE_CUDA_CHECK(cudaGetLastError());
  detail::add_carries(ex, blocks, rows, carry_row, carry_val, al, detail::dev(y));
}

#define HSPARSE_INSTANTIATE(V, I) \
  template void csr_spmv_merge(const Executor&, V, const DeviceCsr<V, I>&, const V*, V, V*, void*);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
