// Batched tridiagonal solvers on the GPU (backends/cuda/tridiagonal.hpp).
// A zero or non-finite pivot is recorded as the smallest "system * size +
// row" in a device flag (atomicMin); check() reads it and throws.
#include "hsparse/backends/cuda/tridiagonal.hpp"

#include <climits>
#include <string>
#include <vector>

#include "cusparse_check.hpp"
#include "device_common.cuh"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda {

namespace {

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

// One row of a partition's forward sweep: x_i + c'_i x_{i+1} + alpha_i
// x_{s-1} = d'_i from row i and the previous row's (c', alpha, d'). Zero
// couplings are skipped, not multiplied (see pcr_step). One reciprocal per
// row: an FP64 division is a long instruction sequence.
template <class V>
struct SweptRow {
  V cp, alpha, dp;
};
template <class V>
__device__ __forceinline__ SweptRow<V> forward_row(bool first, V ai, V bi, V ci, V di, const SweptRow<V>& prev, unsigned long long* flag, RowMap map,
                                                   long long row) {
  const bool chained = !first && ai != V(0);
  const V p = chained ? bi - ai * prev.cp : bi;
  if (bad_pivot(p)) report(flag, map, row, p);
  const V inv = V(1) / p;
  return {ci * inv, first ? ai * inv : chained ? -ai * prev.alpha * inv : V(0), (chained ? di - ai * prev.dp : di) * inv};
}
// One row of the backward sweep: (D, G, A) of row i from its (c', alpha, d')
// and row i+1's (D, G, A), in place.
template <class V>
__device__ __forceinline__ void backward_row(const SweptRow<V>& f, V& D, V& G, V& A) {
  const bool chained = f.cp != V(0);
  D = chained ? f.dp - f.cp * D : f.dp;
  G = chained ? -f.cp * G : V(0);
  A = (chained ? -f.cp * A : V(0)) - f.alpha;
}

// Partition method, step 1: a thread per partition of m rows of the batch
// (n rows in all, systems of sys_size rows: couplings across a system
// boundary are zero). Forward sweep: x_i + c'_i x_{i+1} + alpha_i x_{s-1} =
// d'_i; backward sweep: x_i = D_i + G_i x_{e-1} + A_i x_{s-1}. The last
// row's forward form (c', alpha, d') is kept for the reduced system.
template <class V>
__global__ void partition_sweep_kernel(long long n, long long sys_size, int m, const V* __restrict__ a, const V* __restrict__ b, const V* __restrict__ c,
                                       const V* __restrict__ d, V* __restrict__ D, V* __restrict__ G, V* __restrict__ A, V* __restrict__ last,
                                       unsigned long long* flag, RowMap map) {
  const long long j = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long s = j * m;
  if (s >= n) return;
  const long long e = min(n, s + m);
  SweptRow<V> prev{0, 0, 0};
  for (long long i = s; i < e; ++i) {
    const V ai = i % sys_size == 0 ? V(0) : a[i];
    const V ci = (i + 1) % sys_size == 0 ? V(0) : c[i];
    prev = forward_row(i == s, ai, b[i], ci, d[i], prev, flag, map, i);
    G[i] = prev.cp;  // kept for the backward sweep, overwritten there
    A[i] = prev.alpha;
    D[i] = prev.dp;
  }
  last[3 * j] = prev.cp;
  last[3 * j + 1] = prev.alpha;
  last[3 * j + 2] = prev.dp;
  V Dn = 0, Gn = 1, An = 0;  // row e-1 is x_{e-1} itself
  D[e - 1] = Dn;
  G[e - 1] = Gn;
  A[e - 1] = An;
  for (long long i = e - 2; i >= s; --i) {
    backward_row(SweptRow<V>{G[i], A[i], D[i]}, Dn, Gn, An);
    D[i] = Dn;
    G[i] = Gn;
    A[i] = An;
  }
}

// Step 1 staged through shared memory: a block of kStagedThreads threads
// loads its kStagedThreads * m consecutive rows with coalesced reads, each
// thread sweeps its partition there (rows padded to m + 1 to spread the
// banks), and D, G, A go back with coalesced writes. Same arithmetic as
// partition_sweep_kernel, in place: the forward sweep turns (a, c, d) into
// (alpha, c', d'), the backward sweep into (A, G, D).
constexpr int kStagedThreads = 128;
constexpr int kMaxStagedBytes = 160 * 1024;  // 4 arrays x 128 threads x (m + 1) rows: m <= 38 in double
template <class V>
__global__ void __launch_bounds__(kStagedThreads) partition_sweep_staged_kernel(long long n, long long sys_size, int m, const V* __restrict__ a,
                                                                                 const V* __restrict__ b, const V* __restrict__ c,
                                                                                 const V* __restrict__ d, V* __restrict__ D, V* __restrict__ G,
                                                                                 V* __restrict__ A, V* __restrict__ last, unsigned long long* flag,
                                                                                 RowMap map) {
  extern __shared__ unsigned char shared_bytes[];
  const int stride = m + 1;
  V* sa = reinterpret_cast<V*>(shared_bytes);
  V* sb = sa + kStagedThreads * stride;
  V* sc = sb + kStagedThreads * stride;
  V* sd = sc + kStagedThreads * stride;
  const long long first = static_cast<long long>(blockIdx.x) * kStagedThreads * m;
  const long long rows = min(static_cast<long long>(kStagedThreads) * m, n - first);
  for (long long q = threadIdx.x; q < rows; q += kStagedThreads) {
    const long long g = first + q;
    const long long at = (q / m) * stride + q % m;
    sa[at] = g % sys_size == 0 ? V(0) : a[g];
    sb[at] = b[g];
    sc[at] = (g + 1) % sys_size == 0 ? V(0) : c[g];
    sd[at] = d[g];
  }
  __syncthreads();
  const long long start = static_cast<long long>(threadIdx.x) * m;  // this thread's partition, within the block
  if (start < rows) {
    const int len = static_cast<int>(min(static_cast<long long>(m), rows - start));
    V* ra = sa + threadIdx.x * stride;
    V* rb = sb + threadIdx.x * stride;
    V* rc = sc + threadIdx.x * stride;
    V* rd = sd + threadIdx.x * stride;
    SweptRow<V> prev{0, 0, 0};
    for (int r = 0; r < len; ++r) {
      prev = forward_row(r == 0, ra[r], rb[r], rc[r], rd[r], prev, flag, map, first + start + r);
      rc[r] = prev.cp;
      ra[r] = prev.alpha;
      rd[r] = prev.dp;
    }
    const long long j = (first + start) / m;
    last[3 * j] = prev.cp;
    last[3 * j + 1] = prev.alpha;
    last[3 * j + 2] = prev.dp;
    V Dn = 0, Gn = 1, An = 0;
    rd[len - 1] = Dn;
    rc[len - 1] = Gn;
    ra[len - 1] = An;
    for (int r = len - 2; r >= 0; --r) {
      backward_row(SweptRow<V>{rc[r], ra[r], rd[r]}, Dn, Gn, An);
      rd[r] = Dn;
      rc[r] = Gn;
      ra[r] = An;
    }
  }
  __syncthreads();
  for (long long q = threadIdx.x; q < rows; q += kStagedThreads) {
    const long long g = first + q;
    const long long at = (q / m) * stride + q % m;
    D[g] = sd[at];
    G[g] = sc[at];
    A[g] = sa[at];
  }
}

// Step 2: the reduced system in the partitions' last unknowns l_j:
// alpha_{e-1} l_{j-1} + (1 + c'_{e-1} A_e) l_j + c'_{e-1} G_e l_{j+1} = d'_{e-1} - c'_{e-1} D_e.
template <class V>
__global__ void partition_reduce_kernel(long long n, int m, long long parts, const V* __restrict__ D, const V* __restrict__ G, const V* __restrict__ A,
                                        const V* __restrict__ last, V* ra, V* rb, V* rc, V* rd) {
  const long long j = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (j >= parts) return;
  const long long e = min(n, (j + 1) * m);
  const V cl = last[3 * j], al = last[3 * j + 1], dl = last[3 * j + 2];
  const V De = e < n ? D[e] : V(0), Ge = e < n ? G[e] : V(0), Ae = e < n ? A[e] : V(0);
  // cl == 0 at a system's end: no coupling (and no NaN carried from a
  // broken neighbouring system into this one's pivot report).
  const bool coupled = cl != V(0);
  ra[j] = al;
  rb[j] = coupled ? V(1) + cl * Ae : V(1);
  rc[j] = coupled ? cl * Ge : V(0);
  rd[j] = coupled ? dl - cl * De : dl;
}

// Step 3: every row from its partition's last unknown and the previous one's.
template <class V>
__global__ void partition_recover_kernel(long long n, int m, const V* __restrict__ D, const V* __restrict__ G, const V* __restrict__ A,
                                         const V* __restrict__ l, V* __restrict__ x) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long j = i / m;
    const V Ai = A[i];
    x[i] = D[i] + G[i] * l[j] + (Ai != V(0) && j > 0 ? Ai * l[j - 1] : V(0));
  }
}

// Interleaved <-> contiguous copies of one array.
template <class V>
__global__ void transpose_kernel(long long size, long long count, const V* __restrict__ in, V* __restrict__ out, bool to_contiguous) {
  for (long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; t < size * count; t += static_cast<long long>(gridDim.x) * blockDim.x) {
    // t runs over the output: contiguous out[k*size + i] = in[i*count + k], and back.
    if (to_contiguous) {
      const long long k = t / size, i = t % size;
      out[t] = in[i * count + k];
    } else {
      const long long i = t / count, k = t % count;
      out[t] = in[k * size + i];
    }
  }
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

}  // namespace

const char* to_string(TridiagonalAlgorithm a) {
  switch (a) {
    case TridiagonalAlgorithm::automatic: return "auto";
    case TridiagonalAlgorithm::thomas: return "thomas";
    case TridiagonalAlgorithm::cr: return "cr";
    case TridiagonalAlgorithm::pcr: return "pcr";
    case TridiagonalAlgorithm::hybrid: return "hybrid";
    case TridiagonalAlgorithm::partition: return "partition";
  }
  return "?";
}

TridiagonalAlgorithm parse_tridiagonal_algorithm(const std::string& name) {
  for (auto a : {TridiagonalAlgorithm::automatic, TridiagonalAlgorithm::thomas, TridiagonalAlgorithm::cr, TridiagonalAlgorithm::pcr,
                 TridiagonalAlgorithm::hybrid, TridiagonalAlgorithm::partition}) {
    if (name == to_string(a)) return a;
  }
  throw Error(ErrorCode::invalid_argument, "unknown tridiagonal algorithm '" + name + "' (known: auto, thomas, cr, pcr, hybrid, partition)");
}

template <class V>
struct TridiagonalSolver<V>::State {
  const Executor* ex = nullptr;
  DeviceArray<unsigned long long> flag;
  std::vector<DeviceArray<V>> levels;  // partition method: one workspace per recursion level
  DeviceArray<V> scratch;              // Thomas' c'; interleaved copies
  DeviceArray<unsigned char> cusparse_buffer;
  cusparseHandle_t handle = nullptr;
  long long flag_size = 1, flag_count = 1;  // the shape the flag's index refers to
  TridiagonalLayout flag_layout = TridiagonalLayout::contiguous;

  V* workspace(std::size_t level, std::size_t n) {
    if (levels.size() <= level) levels.resize(level + 1);
    if (levels[level].size() < n) levels[level] = DeviceArray<V>(n);
    return levels[level].data();
  }
};

template <class V>
TridiagonalSolver<V>::TridiagonalSolver(const Executor& ex) : state_(new State) {
  state_->ex = &ex;
  state_->flag = DeviceArray<unsigned long long>(1);
  const unsigned long long none = kNoBadPivot;
  state_->flag.upload(&none, 1);
}

template <class V>
TridiagonalSolver<V>::~TridiagonalSolver() {
  if (state_ && state_->handle) cusparseDestroy(state_->handle);
}

namespace {

template <class V>
void launch_shared(const Executor& ex, TridiagonalAlgorithm alg, long long size, long long count, int hybrid_switch, const V* a, const V* b, const V* c,
                   const V* d, V* x, unsigned long long* flag, RowMap map) {
  if (size > shared_solver_max_size(alg)) {
    throw Error(ErrorCode::invalid_argument, std::string(to_string(alg)) + " solves systems of up to " + std::to_string(shared_solver_max_size(alg)) +
                                                 " unknowns in shared memory, not " + std::to_string(size) + " (use partition or auto)");
  }
  if (count == 0 || size == 0) return;
  if (count > INT_MAX) throw Error(ErrorCode::invalid_argument, "tridiagonal: more than 2^31 - 1 systems for one block each");
  const int P = next_pow2(size);
  const std::size_t bytes = 5 * static_cast<std::size_t>(P) * sizeof(V);
  const auto s = detail::stream_of(ex);
  // CR: a thread per pair; PCR: a thread per equation; the hybrid: a thread
  // per pair unless its PCR phase has more equations than that.
  const int wanted = alg == TridiagonalAlgorithm::pcr ? P : std::max(1, alg == TridiagonalAlgorithm::cr ? P / 2 : std::max(P / 2, std::min(P, hybrid_switch)));
  const int threads = std::min(wanted, 1024);  // CR's loops take the rest; the hybrid's PCR phase is capped below
  hybrid_switch = std::min(hybrid_switch, 1024);
  if (bytes > 48 * 1024) {  // opt in once, for the largest system (4096 unknowns)
    static const bool opted_in = [] {
      const int most = static_cast<int>(5 * kSharedCrMaxSize * sizeof(V));
      HSPARSE_CUDA_CHECK(cudaFuncSetAttribute(shared_kernel<V, kCr>, cudaFuncAttributeMaxDynamicSharedMemorySize, most));
      HSPARSE_CUDA_CHECK(cudaFuncSetAttribute(shared_kernel<V, kHybrid>, cudaFuncAttributeMaxDynamicSharedMemorySize, most));
      return true;
    }();
    (void)opted_in;
  }
  const auto grid = static_cast<unsigned>(count);
  switch (alg) {
    case TridiagonalAlgorithm::cr: shared_kernel<V, kCr><<<grid, threads, bytes, s>>>(size, P, 0, a, b, c, d, x, flag, map); break;
    case TridiagonalAlgorithm::pcr: shared_kernel<V, kPcr><<<grid, threads, bytes, s>>>(size, P, 0, a, b, c, d, x, flag, map); break;
    default: shared_kernel<V, kHybrid><<<grid, threads, bytes, s>>>(size, P, hybrid_switch, a, b, c, d, x, flag, map); break;
  }
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

template <class V>
void TridiagonalSolver<V>::solve(const TridiagonalSystems<V>& s, const V* d, V* x, const TridiagonalOptions& o) {
  check_tridiagonal_shape(s);
  if (o.hybrid_switch < 2 || o.partition_rows < 2) throw Error(ErrorCode::invalid_argument, "tridiagonal: hybrid switch and partition rows must be >= 2");
  State& st = *state_;
  const Executor& ex = *st.ex;
  const auto stream = detail::stream_of(ex);
  st.flag_size = s.size;
  st.flag_count = s.count;
  st.flag_layout = TridiagonalLayout::contiguous;  // kernels report system * size + row
  const long long n = s.entries();
  if (n == 0) {
    description_ = "empty";
    return;
  }
  TridiagonalAlgorithm alg = o.algorithm;
  const bool interleaved = s.layout == TridiagonalLayout::interleaved;
  if (alg == TridiagonalAlgorithm::automatic) {
    // Interleaved: a thread per system once there are enough systems to
    // fill the GPU (H200: 64 x 16,384 71 us vs 95 transposed; 512 x 32,768
    // 735 vs 1,450), else transposed (4,096 x 4,096: 5,074 vs 1,592).
    // Contiguous: the tiled Thomas with as many systems (H200: 512 x 32,768
    // 459 us vs the hybrid's 695; 64 x 262,144 361 vs CR's ~590; 64 x
    // 16,384 46 vs PCR's 44, a tie).
    if (s.count >= 16384) alg = TridiagonalAlgorithm::thomas;
    // CR: the fastest of the three on the H200 for 512 x 512 (19.3 us; PCR
    // 21.6, hybrid 22-28) and within 5% of PCR on 64 x 262,144.
    else alg = s.size <= kSharedCrMaxSize ? TridiagonalAlgorithm::cr : TridiagonalAlgorithm::partition;
  }
  if (alg == TridiagonalAlgorithm::thomas) {
    if (st.scratch.size() < static_cast<std::size_t>(n)) st.scratch = DeviceArray<V>(static_cast<std::size_t>(n));
    const long long system_stride = interleaved ? 1 : s.size, row_stride = interleaved ? s.count : 1;
    const std::size_t shared_bytes = static_cast<std::size_t>(s.size) * kThomasThreads * sizeof(V);
    // Only while 16 blocks of 128 threads still fit an SM (H200: c' in
    // shared memory for 64-unknown systems cut occupancy to 3 blocks and
    // doubled the time, 354 -> 678 us on 262,144 systems).
    if (!interleaved) {
      thomas_tiled_kernel<V><<<blocks_for(s.count, kTileSystems), kTileSystems, 0, stream>>>(s.size, s.count, s.a, s.b, s.c, d, x, st.scratch.data(),
                                                                                         st.flag.data());
    } else if (shared_bytes <= 12 * 1024) {
      thomas_kernel<V, true><<<blocks_for(s.count, kThomasThreads), kThomasThreads, shared_bytes, stream>>>(
          s.size, s.count, system_stride, row_stride, s.a, s.b, s.c, d, x, nullptr, st.flag.data());
    } else {
      thomas_kernel<V, false><<<blocks_for(s.count, kThomasThreads), kThomasThreads, 0, stream>>>(
          s.size, s.count, system_stride, row_stride, s.a, s.b, s.c, d, x, st.scratch.data(), st.flag.data());
    }
    HSPARSE_CUDA_CHECK(cudaGetLastError());
    description_ = std::string("thomas/") + to_string(s.layout);
    return;
  }
  // The other algorithms work on contiguous systems: interleaved input is
  // copied to a contiguous layout first and x copied back.
  const V *ca = s.a, *cb = s.b, *cc = s.c, *cd = d;
  V* cx = x;
  if (interleaved) {
    if (st.scratch.size() < static_cast<std::size_t>(5 * n)) st.scratch = DeviceArray<V>(static_cast<std::size_t>(5 * n));
    V* w = st.scratch.data();
    const V* in[4] = {s.a, s.b, s.c, d};
    for (int k = 0; k < 4; ++k) transpose_kernel<V><<<grid_stride_blocks(n), 256, 0, stream>>>(s.size, s.count, in[k], w + k * n, true);
    ca = w;
    cb = w + n;
    cc = w + 2 * n;
    cd = w + 3 * n;
    cx = w + 4 * n;
  }
  description_ = interleaved ? "transpose -> " : "";
  if (alg != TridiagonalAlgorithm::partition) {
    launch_shared<V>(ex, alg, s.size, s.count, o.hybrid_switch, ca, cb, cc, cd, cx, st.flag.data(), RowMap{});
    description_ += std::string(to_string(alg)) + (alg == TridiagonalAlgorithm::hybrid ? "(" + std::to_string(o.hybrid_switch) + ")" : "");
  } else {
    // The partition method over the batch as one block-diagonal system,
    // recursing on the reduced system until it fits one block.
    const int m = o.partition_rows;
    long long level_n = n, sys_size = s.size;
    const V *la = ca, *lb = cb, *lc = cc, *ld = cd;
    V* lx = cx;
    RowMap map;
    struct Level {
      long long n, parts;
      V *D, *G, *A, *l;
      V* x;
    };
    std::vector<Level> stack;
    std::size_t depth = 0;
    long long sys_count = s.count;
    // Recurse while a system is too long for one block. When the partitions
    // tile each system exactly (size a multiple of m), the reduced system is
    // again `count` independent systems, and the recursion can stop as soon
    // as they fit one block each (65,536 x 16: two levels, not three).
    while (depth == 0 ? level_n > kSharedCrMaxSize : sys_size > kSharedCrMaxSize) {
      const long long parts = (level_n + m - 1) / m;
      V* w = st.workspace(depth, static_cast<std::size_t>(3 * level_n + 8 * parts));
      V *D = w, *G = w + level_n, *A = w + 2 * level_n, *last = w + 3 * level_n;
      V *ra = last + 3 * parts, *rb = ra + parts, *rc = rb + parts, *rd = rc + parts, *l = rd + parts;
      const std::size_t staged_bytes = 4 * static_cast<std::size_t>(kStagedThreads) * (m + 1) * sizeof(V);
      if (staged_bytes <= kMaxStagedBytes) {  // coalesced through shared memory (opt-in beyond 48 KiB, set once)
        static const bool opted_in = [] {
          HSPARSE_CUDA_CHECK(cudaFuncSetAttribute(partition_sweep_staged_kernel<V>, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxStagedBytes));
          return true;
        }();
        (void)opted_in;
        partition_sweep_staged_kernel<V><<<blocks_for(parts, kStagedThreads), kStagedThreads, staged_bytes, stream>>>(
            level_n, sys_size, m, la, lb, lc, ld, D, G, A, last, st.flag.data(), map);
      } else {
        partition_sweep_kernel<V><<<blocks_for(parts, 128), 128, 0, stream>>>(level_n, sys_size, m, la, lb, lc, ld, D, G, A, last, st.flag.data(), map);
      }
      partition_reduce_kernel<V><<<blocks_for(parts, 256), 256, 0, stream>>>(level_n, m, parts, D, G, A, last, ra, rb, rc, rd);
      HSPARSE_CUDA_CHECK(cudaGetLastError());
      stack.push_back({level_n, parts, D, G, A, l, lx});
      description_ += "partition(" + std::to_string(m) + ") -> ";
      // The reduced system's row j is row (j+1)m - 1 here: `count` systems of
      // size/m when the partitions tile the systems, else one of `parts`.
      map = RowMap{map.scale * m, map.scale * (m - 1) + map.offset};
      if (sys_size % m == 0 && sys_size / m * sys_count == parts) {
        sys_size /= m;
      } else {
        sys_size = parts;
        sys_count = 1;
      }
      la = ra;
      lb = rb;
      lc = rc;
      ld = rd;
      lx = l;
      level_n = parts;
      ++depth;
    }
    launch_shared<V>(ex, TridiagonalAlgorithm::hybrid, sys_size, sys_count, o.hybrid_switch, la, lb, lc, ld, lx, st.flag.data(), map);
    description_ += "hybrid(" + std::to_string(o.hybrid_switch) + ")";
    for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
      partition_recover_kernel<V><<<grid_stride_blocks(it->n), 256, 0, stream>>>(it->n, m, it->D, it->G, it->A, it->l, it->x);
    }
    HSPARSE_CUDA_CHECK(cudaGetLastError());
  }
  if (interleaved) {
    transpose_kernel<V><<<grid_stride_blocks(n), 256, 0, stream>>>(s.size, s.count, cx, x, false);
    HSPARSE_CUDA_CHECK(cudaGetLastError());
  }
}

template <class V>
void TridiagonalSolver<V>::check() {
  State& st = *state_;
  unsigned long long bad = kNoBadPivot;
  HSPARSE_CUDA_CHECK(cudaMemcpyAsync(&bad, st.flag.data(), sizeof bad, cudaMemcpyDeviceToHost, detail::stream_of(*st.ex)));
  HSPARSE_CUDA_CHECK(cudaStreamSynchronize(detail::stream_of(*st.ex)));
  if (bad == kNoBadPivot) return;
  const unsigned long long none = kNoBadPivot;
  st.flag.upload(&none, 1);
  const auto row = static_cast<long long>(bad & ((1ULL << kClassShift) - 1));
  const long long size = std::max<long long>(1, st.flag_size);
  const long long clamped = std::min(row, size * std::max<long long>(1, st.flag_count) - 1);
  throw_zero_pivot(clamped / size, clamped % size, "GPU");
}

template <class V>
void TridiagonalSolver<V>::cusparse_solve(const TridiagonalSystems<V>& s, const V* d, V* x, bool in_place) {
  check_tridiagonal_shape(s);
  State& st = *state_;
  const Executor& ex = *st.ex;
  if (!st.handle) HSPARSE_CUSPARSE_CHECK(cusparseCreate(&st.handle));
  HSPARSE_CUSPARSE_CHECK(cusparseSetStream(st.handle, detail::stream_of(ex)));
  if (s.entries() == 0) return;
  if (s.size > INT_MAX || s.count > INT_MAX) throw Error(ErrorCode::unsupported, "cuSPARSE gtsv takes int sizes");
  const int m = static_cast<int>(s.size), batch = static_cast<int>(s.count);
  // cuSPARSE solves in place: x starts as d.
  if (in_place && x != d) throw Error(ErrorCode::invalid_argument, "cusparse_solve in place: x must be d");
  if (x != d) HSPARSE_CUDA_CHECK(cudaMemcpyAsync(x, d, static_cast<std::size_t>(s.entries()) * sizeof(V), cudaMemcpyDeviceToDevice, detail::stream_of(ex)));
  std::size_t bytes = 0;
  if (s.layout == TridiagonalLayout::contiguous) {
    if constexpr (std::is_same_v<V, double>) {
      HSPARSE_CUSPARSE_CHECK(cusparseDgtsv2StridedBatch_bufferSizeExt(st.handle, m, s.a, s.b, s.c, x, batch, m, &bytes));
    } else {
      HSPARSE_CUSPARSE_CHECK(cusparseSgtsv2StridedBatch_bufferSizeExt(st.handle, m, s.a, s.b, s.c, x, batch, m, &bytes));
    }
    if (st.cusparse_buffer.size() < bytes) st.cusparse_buffer = DeviceArray<unsigned char>(bytes);
    if constexpr (std::is_same_v<V, double>) {
      HSPARSE_CUSPARSE_CHECK(cusparseDgtsv2StridedBatch(st.handle, m, s.a, s.b, s.c, x, batch, m, st.cusparse_buffer.data()));
    } else {
      HSPARSE_CUSPARSE_CHECK(cusparseSgtsv2StridedBatch(st.handle, m, s.a, s.b, s.c, x, batch, m, st.cusparse_buffer.data()));
    }
  } else {
    // gtsvInterleavedBatch may overwrite its diagonals: it works on copies (unless in place).
    const std::size_t n = static_cast<std::size_t>(s.entries());
    V* w = nullptr;
    if (in_place) {
      if (s.b != s.a + n || s.c != s.b + n) throw Error(ErrorCode::invalid_argument, "cusparse_solve in place: a, b, c must be consecutive");
      w = const_cast<V*>(s.a);
    } else {
      if (st.scratch.size() < 3 * n) st.scratch = DeviceArray<V>(3 * n);
      w = st.scratch.data();
      const auto stream = detail::stream_of(ex);
      HSPARSE_CUDA_CHECK(cudaMemcpyAsync(w, s.a, n * sizeof(V), cudaMemcpyDeviceToDevice, stream));
      HSPARSE_CUDA_CHECK(cudaMemcpyAsync(w + n, s.b, n * sizeof(V), cudaMemcpyDeviceToDevice, stream));
      HSPARSE_CUDA_CHECK(cudaMemcpyAsync(w + 2 * n, s.c, n * sizeof(V), cudaMemcpyDeviceToDevice, stream));
    }
    if constexpr (std::is_same_v<V, double>) {
      HSPARSE_CUSPARSE_CHECK(cusparseDgtsvInterleavedBatch_bufferSizeExt(st.handle, 0, m, w, w + n, w + 2 * n, x, batch, &bytes));
    } else {
      HSPARSE_CUSPARSE_CHECK(cusparseSgtsvInterleavedBatch_bufferSizeExt(st.handle, 0, m, w, w + n, w + 2 * n, x, batch, &bytes));
    }
    if (st.cusparse_buffer.size() < bytes) st.cusparse_buffer = DeviceArray<unsigned char>(bytes);
    if constexpr (std::is_same_v<V, double>) {
      HSPARSE_CUSPARSE_CHECK(cusparseDgtsvInterleavedBatch(st.handle, 0, m, w, w + n, w + 2 * n, x, batch, st.cusparse_buffer.data()));
    } else {
      HSPARSE_CUSPARSE_CHECK(cusparseSgtsvInterleavedBatch(st.handle, 0, m, w, w + n, w + 2 * n, x, batch, st.cusparse_buffer.data()));
    }
  }
}

template class TridiagonalSolver<float>;
template class TridiagonalSolver<double>;

}  // namespace hsparse::cuda
