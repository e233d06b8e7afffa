#pragma once
// The last step of the GPU V^T W kernels that keep a partial of every
// output per block (tall_skinny.cu's SIMT tiles, tall_skinny_dmma.cu).
#include "device_common.cuh"

namespace hsparse::cuda::detail {

// After every block stored its partial of each output o = a + b k at
// partials[o * blocks + block]: the last block to arrive adds them and
// writes S(a, b) = alpha sum + beta S(a, b). Each warp takes 4 outputs at a
// time, its lanes summing the blocks lane, lane + 32, ... (coalesced), then
// a shuffle butterfly: a fixed order (deterministic), and 4 x blocks / 32
// independent loads per lane in flight. One thread per output summing every
// block in turn was a chain of dependent L2 round trips (k l / 256 x blocks).
template <class D>
__device__ void finish_dot(int k, int l, const double* partials, unsigned* counter, D alpha, D beta, D* s, long long lds) {
  __shared__ bool last;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(counter, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  constexpr int U = 4;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32, outputs = k * l;
  for (int o0 = warp * U; o0 < outputs; o0 += warps * U) {
    double sum[U] = {};
    for (unsigned b = lane; b < gridDim.x; b += 32) {
#pragma unroll
      for (int u = 0; u < U; ++u) {
        if (o0 + u < outputs) sum[u] += __ldcg(partials + (o0 + u) * static_cast<long long>(gridDim.x) + b);
      }
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      for (int off = 16; off > 0; off /= 2) sum[u] += __shfl_xor_sync(0xffffffffu, sum[u], off);
    }
    if (lane == 0) {
#pragma unroll
      for (int u = 0; u < U; ++u) {
        if (o0 + u >= outputs) break;
        D& out = s[((o0 + u) % k) + ((o0 + u) / k) * lds];
        const D r = alpha * static_cast<D>(sum[u]);
        out = beta == D(0) ? r : r + beta * out;
      }
    }
  }
  if (threadIdx.x == 0) *counter = 0;  // ready for the next launch
}

}  // namespace hsparse::cuda::detail
