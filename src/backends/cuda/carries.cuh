#pragma once
// Partial row sums ("carries") left by kernels that split rows between
// threads (merge-path CSR, segmented COO), combined in a second pass.
// The carries are ordered by thread, hence by row; the first carry of each
// run of equal rows sums its run and adds alpha * sum to y. Deterministic:
// the order of the additions never changes. Rows not in [0, rows) mark
// "no carry".
#include "device_common.cuh"

namespace hsparse::cuda::detail {

template <class D>
__global__ void add_carries_kernel(long long n, long long rows, const long long* __restrict__ carry_row,
                                   const D* __restrict__ carry_val, D alpha, D* __restrict__ y) {
  const long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (t >= n) return;
  const long long row = carry_row[t];
  if (row < 0 || row >= rows || (t > 0 && carry_row[t - 1] == row)) return;
  D sum(0);
  for (long long s = t; s < n && carry_row[s] == row; ++s) sum += carry_val[s];
  y[row] += alpha * sum;
}

template <class D>
void add_carries(const Executor& ex, long long n, long long rows, const long long* carry_row, const D* carry_val, D alpha, D* y) {
  if (n == 0) return;
  add_carries_kernel<D><<<grid_for(n, 256), 256, 0, stream_of(ex)>>>(n, rows, carry_row, carry_val, alpha, y);
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

// Carry arrays laid out in one workspace: rows (long long) first, then values.
inline std::size_t carries_bytes(long long n, std::size_t value_bytes) {
  return static_cast<std::size_t>(n) * sizeof(long long) + static_cast<std::size_t>(n) * value_bytes + 16;
}
template <class D>
inline D* carry_values(void* workspace, long long n) {
  auto* base = static_cast<unsigned char*>(workspace) + static_cast<std::size_t>(n) * sizeof(long long);
  return reinterpret_cast<D*>(reinterpret_cast<std::uintptr_t>(base + 15) / 16 * 16);
}

}  // namespace hsparse::cuda::detail
