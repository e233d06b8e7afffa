#pragma once
// Shared by the CUDA kernels: value-type mapping, the output update, warp reductions.
#include <cuda/std/complex>

#include <complex>

#include "check.cuh"
#include "hsparse/backends/cuda/device.hpp"

namespace hsparse::cuda::detail {

// std::complex and cuda::std::complex share their layout; kernels use the latter.
template <class V> struct device_type { using type = V; };
template <class R> struct device_type<std::complex<R>> { using type = ::cuda::std::complex<R>; };
template <class V> using device_t = typename device_type<V>::type;

template <class V> inline const device_t<V>* dev(const V* p) { return reinterpret_cast<const device_t<V>*>(p); }
template <class V> inline device_t<V>* dev(V* p) { return reinterpret_cast<device_t<V>*>(p); }
template <class V> inline device_t<V> dev_value(V v) { return *reinterpret_cast<const device_t<V>*>(&v); }

inline cudaStream_t stream_of(const Executor& ex) { return static_cast<cudaStream_t>(ex.stream()); }

// y = alpha*sum + beta*y; y not read when beta is zero (read_y false).
template <class D>
__device__ __forceinline__ void write_output(D* y, long long r, D alpha, D sum, D beta, bool read_y) {
  y[r] = read_y ? alpha * sum + beta * y[r] : alpha * sum;
}

// Warp shuffles of any value type: complex values move as their two halves.
template <class D, class Shuffle>
__device__ __forceinline__ D shuffle_parts(D v, Shuffle shuffle) {
  if constexpr (std::is_arithmetic_v<D>) {
    return shuffle(v);
  } else {
    return D(shuffle(v.real()), shuffle(v.imag()));
  }
}
template <class D>
__device__ __forceinline__ D shuffle_down(D v, int offset, int width = 32) {
  return shuffle_parts(v, [=](auto part) { return __shfl_down_sync(0xffffffffu, part, offset, width); });
}
template <class D>
__device__ __forceinline__ D shuffle_up(D v, int offset) {
  return shuffle_parts(v, [=](auto part) { return __shfl_up_sync(0xffffffffu, part, offset); });
}
template <class D>
__device__ __forceinline__ D shuffle_from(D v, int lane) {
  return shuffle_parts(v, [=](auto part) { return __shfl_sync(0xffffffffu, part, lane); });
}

// Sum over `width` consecutive lanes (a power of two); lane 0 of each group gets the total.
template <int Width, class D>
__device__ __forceinline__ D group_sum(D v) {
#pragma unroll
  for (int offset = Width / 2; offset > 0; offset /= 2) v += shuffle_down(v, offset, Width);
  return v;
}

// group_sum with a run-time group width (a power of two <= 32); every lane of the warp must call it.
template <class D>
__device__ __forceinline__ D group_sum_n(D v, int width) {
  for (int offset = width / 2; offset > 0; offset /= 2) v += shuffle_down(v, offset, width);
  return v;
}

// Loads an entry of the matrix, read once per product, with the
// evict-first policy (ld.global.cs): the streaming matrix then does not push
// x out of L2 between its reuses (issue 18, irregular gathers). Used where it
// was measured to help (H200, L2 flushed, against plain loads): the staged
// products of merge-path CSR and the then COO kernel (+4-54% with the odd
// shares; COO now loads through stream_load_pack) and ELL's thread per row
// (+4-11% on random matrices), and CSR adaptive's staged entries where x's
// lines are gathered again (CsrAdaptiveSchedule::evict_first: on the
// regular matrices they cost 2-3%; csr16-single keeps
// plain loads). It compiles to LDG.E.EF, as ld.global.L1::evict_first does
// and as cuSPARSE's csrmv_v3 loads its entries (CUDA 13.0). Not where a
// thread walks its own row (CSR vector with one lane per row, SELL's
// thread per row: -7-33%, L1 evicts the row's line between iterations). An L2-only evict-first policy (createpolicy +
// ld.global.nc.L2::cache_hint) was slower still (CSR adaptive 0.74x on the
// power-law matrix).
template <class T>
__device__ __forceinline__ T stream_load(const T* p) {
  if constexpr (std::is_arithmetic_v<T>) {
    return __ldcs(p);
  } else if constexpr (sizeof(T) == 16) {  // complex<double>
    const double2 v = __ldcs(reinterpret_cast<const double2*>(p));
    return T(v.x, v.y);
  } else {  // complex<float>
    static_assert(sizeof(T) == 8, "stream_load: an arithmetic or complex type");
    const float2 v = __ldcs(reinterpret_cast<const float2*>(p));
    return T(v.x, v.y);
  }
}

// Loads K consecutive elements p[0..K) (K * sizeof(T) a multiple of 16,
// p 16-byte aligned) as 16-byte evict-first loads (ld.global.cs.v4).
template <int K, class T>
__device__ __forceinline__ void stream_load_pack(const T* p, T (&out)[K]) {
  static_assert(K * sizeof(T) % 16 == 0, "stream_load_pack: whole 16-byte chunks");
#pragma unroll
  for (int j = 0; j < static_cast<int>(K * sizeof(T) / 16); ++j) {
    const int4 chunk = __ldcs(reinterpret_cast<const int4*>(p) + j);
    __builtin_memcpy(reinterpret_cast<unsigned char*>(out) + 16 * j, &chunk, 16);
  }
}

// Stages products[i] = values[base + i] * x[col_idx[base + i]] for i in
// [0, n), n <= THREADS * PER_THREAD, into shared memory (values stored as
// DS: D, or a narrower type widened to D). Each thread first
// issues all of its column and value loads, then all of its x loads: up to
// PER_THREAD independent gathers in flight per thread instead of one
// load-then-gather chain per iteration (the loop was latency-bound on
// short rows). EVICT_FIRST: the entries through stream_load.
template <int THREADS, int PER_THREAD, bool EVICT_FIRST = false, class D, class DS, class I>
__device__ __forceinline__ void stage_products(long long base, int n, const I* __restrict__ col_idx, const DS* __restrict__ values,
                                               const D* __restrict__ x, D* products) {
  I col[PER_THREAD];
  DS val[PER_THREAD];
#pragma unroll
  for (int u = 0; u < PER_THREAD; ++u) {
    const int i = static_cast<int>(threadIdx.x) + u * THREADS;
    if (i < n) {
      col[u] = EVICT_FIRST ? stream_load(col_idx + base + i) : col_idx[base + i];
      val[u] = EVICT_FIRST ? stream_load(values + base + i) : values[base + i];
    }
  }
#pragma unroll
  for (int u = 0; u < PER_THREAD; ++u) {
    const int i = static_cast<int>(threadIdx.x) + u * THREADS;
    if (i < n) products[i] = D(val[u]) * x[col[u]];
  }
}

inline unsigned grid_for(long long threads, int block) {
  const long long blocks = (threads + block - 1) / block;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > (1LL << 30) ? (1LL << 30) : blocks));
}

}  // namespace hsparse::cuda::detail
