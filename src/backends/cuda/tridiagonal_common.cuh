#pragma once
// Shared pieces of the batched tridiagonal kernels (tridiagonal.cu): the
// bad-pivot flag (a zero or non-finite pivot recorded as the smallest
// "system * size + row", atomicMin) and the launch-size helpers.
#include <climits>

#include "device_common.cuh"

namespace hsparse::cuda::tridiagonal_kernels {

constexpr unsigned long long kNoBadPivot = ULLONG_MAX;

// Rows of a reduced system map back to rows of the original batch as
// original = scale * row + offset (the partition method's last rows).
struct RowMap {
  long long scale = 1, offset = 0;
};

template <class V>
__device__ __forceinline__ bool bad_pivot(V p) {
  return p == V(0) || !isfinite(static_cast<double>(p));
}
// The flag keeps the most telling bad pivot: a zero (the cause) before an
// infinity before a NaN (what a broken pivot spreads), then the lowest row.
constexpr int kClassShift = 60;
template <class V>
__device__ __forceinline__ void report(unsigned long long* flag, RowMap map, long long row, V pivot) {
  const unsigned long long cls = pivot == V(0) ? 0 : isinf(static_cast<double>(pivot)) ? 1 : 2;
  atomicMin(flag, (cls << kClassShift) | static_cast<unsigned long long>(map.scale * row + map.offset));
}


unsigned blocks_for(long long n, int threads) {
  const long long b = (n + threads - 1) / threads;
  return static_cast<unsigned>(b < 1 ? 1 : b > INT_MAX ? INT_MAX : b);
}
unsigned grid_stride_blocks(long long n) {
  const long long b = (n + 255) / 256;
  return static_cast<unsigned>(b < 1 ? 1 : b > 65535 * 4 ? 65535 * 4 : b);
}
int next_pow2(long long n) {
  int p = 1;
  while (p < n) p *= 2;
  return p;
}

}  // namespace hsparse::cuda::tridiagonal_kernels
