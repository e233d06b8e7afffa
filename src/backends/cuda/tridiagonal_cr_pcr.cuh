#pragma once
// CR, PCR and the CR+PCR hybrid in shared memory, one system per block
// (Zhang, Cohen and Owens 2010). Used by tridiagonal.cu.
#include "tridiagonal_common.cuh"

namespace hsparse::cuda::tridiagonal_kernels {

enum SharedMode : int { kCr = 0, kPcr = 1, kHybrid = 2 };

// One PCR step over m equations at positions s*(t+1)-1 (t < m), partners
// `delta` positions away; one equation per thread (m <= blockDim.x).
template <class V>
__device__ void pcr_step(V* sa, V* sb, V* sc, V* sd, int s, int m, int delta, int P, unsigned long long* flag, RowMap map, long long sys_row0) {
  const int t = threadIdx.x;
  V na = 0, nb = 1, nc = 0, nd = 0;
  if (t < m) {
    const int i = s * (t + 1) - 1;
    const int il = i - delta, ir = i + delta;
    // A zero coupling (a system's edge inside a batch) is skipped, not
    // multiplied: 0 * NaN would carry one broken system into the next.
    V k1 = 0, k2 = 0;
    if (il >= 0 && sa[i] != V(0)) {
      if (bad_pivot(sb[il])) report(flag, map, sys_row0 + il, sb[il]);
      k1 = sa[i] / sb[il];
    }
    if (ir < P && sc[i] != V(0)) {
      if (bad_pivot(sb[ir])) report(flag, map, sys_row0 + ir, sb[ir]);
      k2 = sc[i] / sb[ir];
    }
    na = k1 != V(0) ? -sa[il] * k1 : V(0);
    nc = k2 != V(0) ? -sc[ir] * k2 : V(0);
    nb = sb[i] - (k1 != V(0) ? sc[il] * k1 : V(0)) - (k2 != V(0) ? sa[ir] * k2 : V(0));
    nd = sd[i] - (k1 != V(0) ? sd[il] * k1 : V(0)) - (k2 != V(0) ? sd[ir] * k2 : V(0));
  }
  __syncthreads();
  if (t < m) {
    const int i = s * (t + 1) - 1;
    sa[i] = na;
    sb[i] = nb;
    sc[i] = nc;
    sd[i] = nd;
  }
  __syncthreads();
}

// CR, PCR or the hybrid on one system per block, in shared memory: P (a
// power of two >= size) equations, the rows past `size` identity rows.
// Contiguous systems: system k's rows at k*size.
template <class V, int MODE>
__global__ void shared_kernel(long long size, int P, int hybrid_switch, const V* __restrict__ a, const V* __restrict__ b, const V* __restrict__ c,
                              const V* __restrict__ d, V* __restrict__ x, unsigned long long* flag, RowMap map) {
  extern __shared__ unsigned char shared_bytes[];
  V* sa = reinterpret_cast<V*>(shared_bytes);
  V* sb = sa + P;
  V* sc = sb + P;
  V* sd = sc + P;
  V* sx = sd + P;
  const long long k = blockIdx.x;
  const long long base = k * size;
  const long long row0 = k * size;  // for the pivot report
  for (int i = threadIdx.x; i < P; i += blockDim.x) {
    if (i < size) {
      sa[i] = i > 0 ? a[base + i] : V(0);
      sb[i] = b[base + i];
      sc[i] = i + 1 < size ? c[base + i] : V(0);
      sd[i] = d[base + i];
    } else {
      sa[i] = 0;
      sb[i] = 1;
      sc[i] = 0;
      sd[i] = 0;
    }
    sx[i] = 0;
  }
  __syncthreads();
  int s = 1, m = P;
  if (MODE != kPcr) {
    // Forward reduction: the equations at positions 2s(t+1)-1 absorb their
    // neighbours s away, in place (the neighbours are not active this step).
    const int limit = MODE == kCr ? 2 : max(2, hybrid_switch);
    while (m > limit) {
      for (int t = threadIdx.x; t < m / 2; t += blockDim.x) {
        const int i = 2 * s * (t + 1) - 1;
        const int il = i - s, ir = i + s;
        V k1 = 0, k2 = 0;  // zero couplings skipped (see pcr_step)
        if (sa[i] != V(0)) {
          if (bad_pivot(sb[il])) report(flag, map, row0 + il, sb[il]);
          k1 = sa[i] / sb[il];
        }
        if (ir < P && sc[i] != V(0)) {
          if (bad_pivot(sb[ir])) report(flag, map, row0 + ir, sb[ir]);
          k2 = sc[i] / sb[ir];
        }
        const V na = k1 != V(0) ? -sa[il] * k1 : V(0);
        const V nc = k2 != V(0) ? -sc[ir] * k2 : V(0);
        const V nb = sb[i] - (k1 != V(0) ? sc[il] * k1 : V(0)) - (k2 != V(0) ? sa[ir] * k2 : V(0));
        const V nd = sd[i] - (k1 != V(0) ? sd[il] * k1 : V(0)) - (k2 != V(0) ? sd[ir] * k2 : V(0));
        sa[i] = na;
        sb[i] = nb;
        sc[i] = nc;
        sd[i] = nd;
      }
      __syncthreads();
      s *= 2;
      m /= 2;
    }
  }
  if (MODE == kCr) {
    // Two equations left (positions s-1 and 2s-1), or one when P == 1.
    if (threadIdx.x == 0) {
      if (m == 1) {
        if (bad_pivot(sb[0])) report(flag, map, row0, sb[0]);
        sx[0] = sd[0] / sb[0];
      } else {
        const int i1 = s - 1, i2 = 2 * s - 1;
        const V cross = sc[i1] != V(0) && sa[i2] != V(0) ? sc[i1] * sa[i2] : V(0);
        const V det = sb[i1] * sb[i2] - cross;
        if (bad_pivot(det)) report(flag, map, row0 + min(i2, static_cast<int>(size) - 1), det);
        sx[i1] = (sd[i1] * sb[i2] - (sc[i1] != V(0) ? sc[i1] * sd[i2] : V(0))) / det;
        sx[i2] = (sb[i1] * sd[i2] - (sa[i2] != V(0) ? sd[i1] * sa[i2] : V(0))) / det;
      }
    }
    __syncthreads();
  } else {
    // PCR on the m equations left (all of them for MODE == kPcr), then x = d / b.
    for (int delta = s; delta < s * m; delta *= 2) pcr_step(sa, sb, sc, sd, s, m, delta, P, flag, map, row0);
    if (threadIdx.x < m) {
      const int i = s * (threadIdx.x + 1) - 1;
      if (bad_pivot(sb[i])) report(flag, map, row0 + min(i, static_cast<int>(size) - 1), sb[i]);
      sx[i] = sd[i] / sb[i];
    }
    __syncthreads();
  }
  // Backward substitution (CR and hybrid): the equations eliminated at each
  // forward step, from the last step back to the first.
  while (s > 1) {
    s /= 2;
    for (int t = threadIdx.x; t < P / (2 * s); t += blockDim.x) {
      const int i = 2 * s * t + s - 1;
      const V left = i - s >= 0 && sa[i] != V(0) ? sa[i] * sx[i - s] : V(0);
      const V right = i + s < P && sc[i] != V(0) ? sc[i] * sx[i + s] : V(0);
      if (bad_pivot(sb[i])) report(flag, map, row0 + min(i, static_cast<int>(size) - 1), sb[i]);
      sx[i] = (sd[i] - left - right) / sb[i];
    }
    __syncthreads();
  }
  for (int i = threadIdx.x; i < size; i += blockDim.x) x[base + i] = sx[i];
}

}  // namespace hsparse::cuda::tridiagonal_kernels
