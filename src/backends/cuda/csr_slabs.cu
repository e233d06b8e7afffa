// CSR column slabs built on the device (kernels/csr_slabs.hpp): the row
// pointers come from the host (csr_slab_row_ptrs, O(rows x slabs) binary
// searches), the entries are copied here from the uploaded CSR, a warp per
// row and slab: the warp finds where its row enters the slab (a binary
// search over the row's increasing columns) and copies that many entries.
// The host's copy of 1.2 GB of entries made the slabs' setup 1.30 s on the
// random matrix of 10 M rows (H200), slower than 1000 products save.
#include <algorithm>
#include <vector>

#include "device_common.cuh"
#include "hsparse/backends/cuda/csr_spmv.hpp"

namespace hsparse::cuda {

namespace {

template <class D, class I>
__global__ void slab_fill_kernel(long long rows, const I* __restrict__ row_ptr, const I* __restrict__ col_idx, const D* __restrict__ values,
                                 long long slab_first_col, const I* __restrict__ slab_row_ptr, I* __restrict__ slab_col, D* __restrict__ slab_values) {
  const long long r = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / 32;
  if (r >= rows) return;
  const long long dst = slab_row_ptr[r], n = static_cast<long long>(slab_row_ptr[r + 1]) - dst;
  if (n == 0) return;
  // Every lane runs the same search (broadcast loads): the row's first entry at or past the slab's first column.
  long long lo = row_ptr[r], hi = row_ptr[r + 1];
  while (lo < hi) {
    const long long mid = lo + (hi - lo) / 2;
    if (static_cast<long long>(col_idx[mid]) < slab_first_col) lo = mid + 1;
    else hi = mid;
  }
  for (long long i = threadIdx.x % 32; i < n; i += 32) {
    slab_col[dst + i] = col_idx[lo + i];
    slab_values[dst + i] = values[lo + i];
  }
}

}  // namespace

template <class V, class I>
std::vector<DeviceCsr<V, I>> csr_slabs_from_device_csr(const Executor& ex, const DeviceCsr<V, I>& a, const std::vector<std::vector<I>>& slab_row_ptrs,
                                                       const SlabShape& shape) {
  if (static_cast<long long>(slab_row_ptrs.size()) != shape.slabs) {
    throw Error(ErrorCode::invalid_argument, "CSR slabs: " + std::to_string(slab_row_ptrs.size()) + " row pointer arrays for " +
                                                 std::to_string(shape.slabs) + " slabs");
  }
  std::vector<DeviceCsr<V, I>> slabs;
  std::size_t entries = 0;
  for (std::size_t s = 0; s < slab_row_ptrs.size(); ++s) {
    const std::vector<I>& ptr = slab_row_ptrs[s];
    if (ptr.size() != static_cast<std::size_t>(a.rows) + 1) {
      throw Error(ErrorCode::invalid_argument, "CSR slabs: slab " + std::to_string(s) + " has " + std::to_string(ptr.size()) +
                                                   " row pointers for " + std::to_string(a.rows) + " rows");
    }
    DeviceCsr<V, I> d;
    d.rows = a.rows;
    d.cols = a.cols;
    d.row_ptr = DeviceArray<I>(ptr);
    d.col_idx = DeviceArray<I>(static_cast<std::size_t>(ptr.back()));
    d.values = DeviceArray<V>(static_cast<std::size_t>(ptr.back()));
    entries += static_cast<std::size_t>(ptr.back());
    if (a.rows > 0 && ptr.back() > 0) {
      slab_fill_kernel<detail::device_t<V>, I><<<detail::grid_for(32LL * a.rows, 256), 256, 0, detail::stream_of(ex)>>>(
          a.rows, a.row_ptr.data(), a.col_idx.data(), detail::dev(a.values.data()), static_cast<long long>(s) * shape.slab_cols, d.row_ptr.data(),
          d.col_idx.data(), detail::dev(d.values.data()));
      HSPARSE_CUDA_CHECK(cudaGetLastError());
    }
    slabs.push_back(std::move(d));
  }
  if (entries != a.nnz()) {
    throw Error(ErrorCode::invalid_argument, "CSR slabs: the row pointers hold " + std::to_string(entries) + " entries, the matrix " +
                                                 std::to_string(a.nnz()));
  }
  ex.synchronize();  // the caller may free the uploaded CSR on return
  return slabs;
}

#define HSPARSE_INSTANTIATE(V, I)                                                                                          \
  template std::vector<DeviceCsr<V, I>> csr_slabs_from_device_csr(const Executor&, const DeviceCsr<V, I>&,               \
                                                                  const std::vector<std::vector<I>>&, const SlabShape&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
