#pragma once
// Thomas per thread on the GPU: strided (interleaved or contiguous) and
// through coalesced shared-memory tiles (contiguous). Used by tridiagonal.cu.
#include "tridiagonal_common.cuh"

namespace hsparse::cuda::tridiagonal_kernels {

// Thomas, one thread per system; entry i of system k at k*system_stride +
// i*row_stride. c' goes to `cp` (global, the same layout as the input), or
// with SHARED_CP to shared memory (systems of up to 12 unknowns in double:
// 7 array passes instead of 9 without costing occupancy; for 64-unknown
// systems it cut occupancy to 3 blocks per SM and doubled the time).
constexpr int kThomasThreads = 128;
template <class V, bool SHARED_CP>
__global__ void __launch_bounds__(kThomasThreads) thomas_kernel(long long size, long long count, long long system_stride, long long row_stride,
                                                                const V* __restrict__ a, const V* __restrict__ b, const V* __restrict__ c,
                                                                const V* __restrict__ d, V* __restrict__ x, V* __restrict__ cp_global,
                                                                unsigned long long* flag) {
  extern __shared__ unsigned char shared_bytes[];
  const long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (k >= count || size == 0) return;
  V* cp = SHARED_CP ? reinterpret_cast<V*>(shared_bytes) + threadIdx.x : cp_global + k * system_stride;
  const long long cp_stride = SHARED_CP ? kThomasThreads : row_stride;
  const RowMap map;
  long long j = k * system_stride;
  V p = b[j];
  if (bad_pivot(p)) report(flag, map, k * size, p);
  V cprev = size > 1 ? c[j] / p : V(0);
  cp[0] = cprev;
  V xprev = d[j] / p;
  x[j] = xprev;
  for (long long i = 1; i < size; ++i) {
    j += row_stride;
    const V ai = a[j];
    p = b[j] - ai * cprev;
    if (bad_pivot(p)) report(flag, map, k * size + i, p);
    const V inv = V(1) / p;  // one division per row
    cprev = (i + 1 < size ? c[j] : V(0)) * inv;
    cp[i * cp_stride] = cprev;
    xprev = (d[j] - ai * xprev) * inv;
    x[j] = xprev;
  }
  for (long long i = size - 2; i >= 0; --i) {
    j -= row_stride;
    xprev = x[j] - cp[i * cp_stride] * xprev;
    x[j] = xprev;
  }
}

// Thomas on contiguous systems, one thread per system, through shared-memory
// tiles: a block of kTileSystems systems walks down its systems in tiles of
// kTileRows rows, loading each tile with coalesced reads (a system's rows
// are consecutive), running the recurrence on the tile in shared memory and
// writing c' and d' back coalesced; the backward pass walks the tiles up the
// same way. 9 array passes, all coalesced (the untiled kernel's per-thread
// walk through contiguous systems is not).
constexpr int kTileSystems = 64;
constexpr int kTileRows = 16;
template <class V>
__global__ void __launch_bounds__(kTileSystems) thomas_tiled_kernel(long long size, long long count, const V* __restrict__ a,
                                                                    const V* __restrict__ b, const V* __restrict__ c, const V* __restrict__ d,
                                                                    V* __restrict__ x, V* __restrict__ cp, unsigned long long* flag) {
  constexpr int kStride = kTileRows + 1;  // padded: thread t's rows start on different banks
  __shared__ V ta[kTileSystems * kStride], tb[kTileSystems * kStride], tc[kTileSystems * kStride], td[kTileSystems * kStride];
  const long long k0 = blockIdx.x * static_cast<long long>(kTileSystems);
  const int t = threadIdx.x;
  const long long k = k0 + t;
  const bool active = k < count;
  const int systems = static_cast<int>(min(static_cast<long long>(kTileSystems), count - k0));
  const RowMap map;
  V cprev = 0, xprev = 0;
  for (long long r0 = 0; r0 < size; r0 += kTileRows) {
    const int rows = static_cast<int>(min(static_cast<long long>(kTileRows), size - r0));
    for (int q = t; q < systems * rows; q += kTileSystems) {
      const int ts = q / rows, r = q % rows;
      const long long g = (k0 + ts) * size + r0 + r;
      const int at = ts * kStride + r;
      ta[at] = a[g];
      tb[at] = b[g];
      tc[at] = c[g];
      td[at] = d[g];
    }
    __syncthreads();
    if (active) {
      for (int r = 0; r < rows; ++r) {
        const long long i = r0 + r;
        const int at = t * kStride + r;
        const V ai = i == 0 ? V(0) : ta[at];
        const V p = tb[at] - ai * cprev;
        if (bad_pivot(p)) report(flag, map, k * size + i, p);
        const V inv = V(1) / p;
        cprev = (i + 1 < size ? tc[at] : V(0)) * inv;
        xprev = (td[at] - ai * xprev) * inv;
        tc[at] = cprev;
        td[at] = xprev;
      }
    }
    __syncthreads();
    for (int q = t; q < systems * rows; q += kTileSystems) {
      const int ts = q / rows, r = q % rows;
      const long long g = (k0 + ts) * size + r0 + r;
      cp[g] = tc[ts * kStride + r];
      x[g] = td[ts * kStride + r];
    }
    __syncthreads();
  }
  V xnext = 0;
  for (long long r0 = (size - 1) / kTileRows * kTileRows; r0 >= 0; r0 -= kTileRows) {
    const int rows = static_cast<int>(min(static_cast<long long>(kTileRows), size - r0));
    for (int q = t; q < systems * rows; q += kTileSystems) {
      const int ts = q / rows, r = q % rows;
      const long long g = (k0 + ts) * size + r0 + r;
      tc[ts * kStride + r] = cp[g];
      td[ts * kStride + r] = x[g];
    }
    __syncthreads();
    if (active) {
      for (int r = rows - 1; r >= 0; --r) {
        const int at = t * kStride + r;
        xnext = r0 + r == size - 1 ? td[at] : td[at] - tc[at] * xnext;
        td[at] = xnext;
      }
    }
    __syncthreads();
    for (int q = t; q < systems * rows; q += kTileSystems) {
      const int ts = q / rows, r = q % rows;
      x[(k0 + ts) * size + r0 + r] = td[ts * kStride + r];
    }
    __syncthreads();
  }
}

}  // namespace hsparse::cuda::tridiagonal_kernels
