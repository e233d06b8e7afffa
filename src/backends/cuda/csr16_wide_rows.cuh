#pragma once
// CSR16's wide rows on the GPU (device_formats.hpp's DeviceCsr16::wide, the
// escape of formats/csr16.hpp), for both of its kernels: the narrow part's
// launch writes every row of y (alpha*narrow + beta*y; a wide row is empty
// there), the compacted wide rows' launch sums alpha*row.x into `sums`, one
// value per wide row, and this adds each sum to its row of y. The order is
// fixed, so products are deterministic; only the wide rows are touched.
#include "check.cuh"
#include "device_common.cuh"

namespace hsparse::cuda::detail {

template <class D, class I>
__global__ void add_wide_rows_kernel(long long count, const I* __restrict__ rows, const D* __restrict__ sums, D* __restrict__ y) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < count) y[rows[i]] += sums[i];
}

template <class V, class I>
void add_wide_rows(const Executor& ex, long long count, const I* rows, const V* sums, V* y) {
  if (count == 0) return;
  add_wide_rows_kernel<<<grid_for(count, 256), 256, 0, stream_of(ex)>>>(count, rows, dev(sums), dev(y));
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace hsparse::cuda::detail
