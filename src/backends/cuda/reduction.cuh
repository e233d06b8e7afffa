#pragma once
// One-launch deterministic reductions (vector_ops.hpp): block sums by warp
// shuffles, each block's partials stored, the last block to arrive adds
// them in block order.
#include <cuda_runtime.h>

namespace hsparse::cuda::detail {

inline constexpr int kReduceThreads = 256;

// Sums K values across the block; every thread returns with the totals.
template <int K>
__device__ __forceinline__ void block_sum(double (&v)[K]) {
  __shared__ double warp_sums[K][kReduceThreads / 32];
  __shared__ double totals[K];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    for (int o = 16; o > 0; o /= 2) v[k] += __shfl_down_sync(0xffffffffu, v[k], o);
    if (lane == 0) warp_sums[k][warp] = v[k];
  }
  __syncthreads();
  if (warp == 0) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      double s = lane < kReduceThreads / 32 ? warp_sums[k][lane] : 0.0;
      for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
      if (lane == 0) totals[k] = s;
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < K; ++k) v[k] = totals[k];
  __syncthreads();  // totals may be reused by the next call
}

// Grid-wide sum of K values per thread. Returns true in every thread of the
// last block to finish, with v holding the grid totals; false elsewhere.
// The counter is reset for the next reduction.
template <int K>
__device__ bool grid_sum(double (&v)[K], double* partials, unsigned* counter) {
  __shared__ bool last;
  block_sum<K>(v);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int k = 0; k < K; ++k) partials[blockIdx.x * K + k] = v[k];
    __threadfence();
    last = atomicAdd(counter, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return false;
  __threadfence();
  double s[K] = {};
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
#pragma unroll
    for (int k = 0; k < K; ++k) s[k] += __ldcg(partials + b * K + k);  // L2: other blocks' writes
  }
  block_sum<K>(s);
#pragma unroll
  for (int k = 0; k < K; ++k) v[k] = s[k];
  if (threadIdx.x == 0) *counter = 0;
  return true;
}

// Blocks for a grid-stride loop over n entries.
inline unsigned reduction_blocks(long long n, int max_blocks) {
  const long long b = (n + kReduceThreads - 1) / kReduceThreads;
  return static_cast<unsigned>(b < 1 ? 1 : b > max_blocks ? max_blocks : b);
}

}  // namespace hsparse::cuda::detail
