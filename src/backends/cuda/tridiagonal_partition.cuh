#pragma once
// The partition method for systems of any length (sweeps, the reduced
// system, recovery) and the layout transposes. Used by tridiagonal.cu.
#include "tridiagonal_common.cuh"

namespace hsparse::cuda::tridiagonal_kernels {

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

}  // namespace hsparse::cuda::tridiagonal_kernels
