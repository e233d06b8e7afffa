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

template <class D, class I>
__global__ void csr_merge_kernel(long long rows, long long nnz, long long threads, const I* __restrict__ row_ptr,
                                 const I* __restrict__ col_idx, const D* __restrict__ values, const D* __restrict__ x, D alpha,
                                 D beta, bool read_y, D* __restrict__ y, long long* __restrict__ carry_row,
                                 D* __restrict__ carry_val) {
  const long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (t >= threads) return;
  const long long items = rows + nnz;
  const long long d0 = t * kItemsPerThread < items ? t * kItemsPerThread : items;
  const long long d1 = d0 + kItemsPerThread < items ? d0 + kItemsPerThread : items;
  long long r, k, r_end, k_end;
  merge_path_search(d0, row_ptr + 1, rows, nnz, r, k);
  merge_path_search(d1, row_ptr + 1, rows, nnz, r_end, k_end);
  for (; r < r_end; ++r) {
    D sum(0);
    for (const long long end = row_ptr[r + 1]; k < end; ++k) sum += values[k] * x[col_idx[k]];
    detail::write_output(y, r, alpha, sum, beta, read_y);
  }
  D sum(0);
  for (; k < k_end; ++k) sum += values[k] * x[col_idx[k]];
  carry_row[t] = r_end;  // == rows: nothing carried
  carry_val[t] = sum;
}

long long merge_threads(long long rows, long long nnz) { return (rows + nnz + kItemsPerThread - 1) / kItemsPerThread; }

}  // namespace

std::size_t csr_merge_workspace_bytes(long long rows, long long nnz, std::size_t value_bytes) {
  return detail::carries_bytes(merge_threads(rows, nnz), value_bytes);
}

template <class V, class I>
void csr_spmv_merge(const Executor& ex, V alpha, const DeviceCsr<V, I>& a, const V* x, V beta, V* y, void* workspace) {
  if (a.rows == 0) return;
  using D = detail::device_t<V>;
  const long long rows = a.rows, nnz = static_cast<long long>(a.nnz()), threads = merge_threads(rows, nnz);
  auto* carry_row = static_cast<long long*>(workspace);
  D* carry_val = detail::carry_values<D>(workspace, threads);
  const D al = detail::dev_value(alpha);
  csr_merge_kernel<D, I><<<detail::grid_for(threads, 128), 128, 0, detail::stream_of(ex)>>>(
      rows, nnz, threads, a.row_ptr.data(), a.col_idx.data(), detail::dev(a.values.data()), detail::dev(x), al,
      detail::dev_value(beta), beta != V(0), detail::dev(y), carry_row, carry_val);
  HSPARSE_CUDA_CHECK(cudaGetLastError());
  detail::add_carries(ex, threads, rows, carry_row, carry_val, al, detail::dev(y));
}

#define HSPARSE_INSTANTIATE(V, I) \
  template void csr_spmv_merge(const Executor&, V, const DeviceCsr<V, I>&, const V*, V, V*, void*);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
