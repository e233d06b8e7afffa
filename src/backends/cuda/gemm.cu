// The GPU GEMM kernels (backends/cuda/dense_ops.hpp): untiled, shared-memory
// tiled, and MAGMA's register blocking; the dispatcher (tensor cores in
// gemm_tensor_core.cu); cuBLAS as the baseline.
#include <cublas_v2.h>

#include <climits>
#include <complex>

#include "check.cuh"
#include "cublas_handle.hpp"
#include "gemm_common.cuh"
#include "gemm_tensor_core.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/backends/cuda/dense_ops.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda {

namespace {

using detail::load_a;
using detail::load_b;
using detail::store_c;

// Step 1 (Owens, "unblocked"): one thread per C(i, j); threadIdx.x walks
// rows, so C and (un-transposed) A are read and written coalesced.
template <class D>
__global__ void gemm_untiled(long long m, long long n, long long k, bool ta, bool tb, D alpha, const D* __restrict__ a, long long lda,
                             const D* __restrict__ b, long long ldb, D beta, D* c, long long ldc) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long j = blockIdx.y * static_cast<long long>(blockDim.y) + threadIdx.y;
  if (i >= m || j >= n) return;
  D sum = D(0);
  for (long long p = 0; p < k; ++p) sum += load_a(a, lda, ta, i, p) * load_b(b, ldb, tb, p, j);
  store_c(c, ldc, i, j, alpha, sum, beta);
}

// Step 2: TILE x TILE tiles of op(A) and op(B) in shared memory, each
// thread a mini dot product over the tile (Kirk and Hwu, as in the
// lecture). The +1 column keeps a transposed load off one bank.
template <class D, int TILE>
__global__ void gemm_tiled(long long m, long long n, long long k, bool ta, bool tb, D alpha, const D* __restrict__ a, long long lda,
                           const D* __restrict__ b, long long ldb, D beta, D* c, long long ldc) {
  __shared__ D as[TILE][TILE + 1];  // as[p][i]
  __shared__ D bs[TILE][TILE + 1];  // bs[j][p]
  const int tx = threadIdx.x, ty = threadIdx.y;
  const long long i = blockIdx.x * static_cast<long long>(TILE) + tx;
  const long long j = blockIdx.y * static_cast<long long>(TILE) + ty;
  D sum = D(0);
  for (long long p0 = 0; p0 < k; p0 += TILE) {
    // Coalesced loads: the fast index follows the storage's rows.
    {
      const long long ii = blockIdx.x * static_cast<long long>(TILE) + (ta ? ty : tx), pp = p0 + (ta ? tx : ty);
      const D v = ii < m && pp < k ? load_a(a, lda, ta, ii, pp) : D(0);
      if (ta) as[tx][ty] = v; else as[ty][tx] = v;
    }
    {
      const long long jj = blockIdx.y * static_cast<long long>(TILE) + (tb ? tx : ty), pp = p0 + (tb ? ty : tx);
      const D v = jj < n && pp < k ? load_b(b, ldb, tb, pp, jj) : D(0);
      if (tb) bs[tx][ty] = v; else bs[ty][tx] = v;
    }
    __syncthreads();
#pragma unroll
    for (int p = 0; p < TILE; ++p) sum += as[p][tx] * bs[ty][p];
    __syncthreads();
  }
  if (i < m && j < n) store_c(c, ldc, i, j, alpha, sum, beta);
}

// Step 3: register blocking (MAGMA, LAWN 227): RX x RY = (BM/TM) x (BN/TN)
// threads; each owns TM x TN outputs of the block's BM x BN tile, in
// registers for the whole k loop. MAGMA's Fermi kernel strides a thread's
// rows by 16 so that its 4-byte shared loads are conflict-free; here the
// stride unit is V = 16 bytes of values (4 floats, 2 doubles): thread tx
// owns rows (r RX + tx) V + v, so every shared read is one 16-byte load
// and a warp's loads still hit consecutive addresses. BK-deep panels of
// op(A) and op(B) arrive by cp.async into the other of two buffers while
// this one is used (the lecture's "prefetch the next tile").
//
// Panels in shared memory (PanelLayout) for the inner loop: op(A)'s along
// m ([p][i]), op(B)'s along n ([p][j]). Both move global -> shared as
// 16-byte cp.async runs along their storage (a tile inside the matrix,
// 16-byte aligned storage, leading dimensions multiples of V); B stored
// k x n lands depth-major ([j][p], rows of BK + V values) and is transposed
// in shared memory; other panels (edges, A^T) move one value at a time.
// Measured on the H200 at 8192^3: one value per cp.async with its index
// arithmetic for every operand left issue slots 72.5% busy, 47% of the
// instructions not FFMA (ncu, float): 29.1 (float) and 15.2 (double)
// TFLOP/s with 128x128x8/8x8. With these runs (128x128x32/8x8, NN / NT /
// TN): float 44.0 / 46.5 / 27.4 (cuBLAS 50.8: 87% in NN), double
// 20.8 / 22.5 / 16.4 (62% of the FP64 peak; cuBLAS's tensor cores 61.9).
// Float asks for two blocks per SM (128 registers): 128x128x8 NN 30.2
// against 27.2 with one.
template <class D, int BX, int BK, bool DEPTH_MAJOR>
struct PanelLayout {
  static constexpr int V = 16 / static_cast<int>(sizeof(D));
  static constexpr int LDK = BK + V;  // depth-major rows padded by 16 bytes: a warp's two rows land in different banks
  static constexpr int ELEMS = DEPTH_MAJOR ? BX * LDK : BK * BX;
  static __device__ __forceinline__ int at(int x, int p) { return DEPTH_MAJOR ? x * LDK + p : p * BX + x; }
};

// One operand's BK-deep panel: element (x0 + x, p0 + p) for x < BX, p < BK
// (addr(x, p) its storage address; zeros past xs or ks). CONTIG_X: the
// storage is contiguous along x (else along p). fast: the whole panel is
// inside, 16-byte aligned runs along the contiguous side.
template <class D, int BX, int BK, int THREADS, bool DEPTH_MAJOR, bool CONTIG_X, class Addr>
__device__ __forceinline__ void load_operand_panel(D* dst, Addr addr, long long x0, long long p0, long long xs, long long ks, bool fast,
                                                   const D* any) {
  using L = PanelLayout<D, BX, BK, DEPTH_MAJOR>;
  constexpr int V = L::V;
  if (fast && CONTIG_X != DEPTH_MAJOR) {  // the layout runs along the storage: 16-byte copies
#pragma unroll
    for (int c = threadIdx.x; c < BX * BK / V; c += THREADS) {
      const int x = CONTIG_X ? (c % (BX / V)) * V : c / (BK / V), p = CONTIG_X ? c / (BX / V) : (c % (BK / V)) * V;
      detail::copy_async_16(dst + L::at(x, p), addr(x0 + x, p0 + p), 16);
    }
    return;
  }
#pragma unroll
  for (int e = threadIdx.x; e < BX * BK; e += THREADS) {  // consecutive threads: consecutive storage
    const int x = CONTIG_X ? e % BX : e / BK, p = CONTIG_X ? e / BX : e % BK;
    const long long gx = x0 + x, gp = p0 + p;
    const bool ok = gx < xs && gp < ks;
    detail::copy_async(dst + L::at(x, p), ok ? addr(gx, gp) : any, ok);
  }
}

// A thread's T rows (x = (r R + t) V + v) of one depth of a panel laid out along x (row: that depth's BX values).
template <class D, int BX, int T, int R>
__device__ __forceinline__ void load_depth(D (&f)[T], const D* row, int t) {
  constexpr int V = 16 / static_cast<int>(sizeof(D));
  using Vec = std::conditional_t<sizeof(D) == 8, double2, float4>;
#pragma unroll
  for (int r = 0; r < T / V; ++r) {  // one 16-byte load: V rows
    const Vec x = *reinterpret_cast<const Vec*>(row + (r * R + t) * V);
    const D* xv = reinterpret_cast<const D*>(&x);
#pragma unroll
    for (int v = 0; v < V; ++v) f[r * V + v] = xv[v];
  }
}

// Panel of B stored k x n: from its depth-major landing area into the
// compute layout along n (one 16-byte shared load of V depths of a column,
// V 4-byte or 8-byte stores; consecutive threads take consecutive columns:
// both sides conflict-free, the landing rows being BK + V values apart).
template <class D, int BN, int BK, int THREADS>
__device__ __forceinline__ void transpose_landed_panel(D* to, const D* landed) {
  using LS = PanelLayout<D, BN, BK, true>;
  using LB = PanelLayout<D, BN, BK, false>;
  constexpr int V = LS::V;
  using Vec = std::conditional_t<sizeof(D) == 8, double2, float4>;
#pragma unroll
  for (int e = threadIdx.x; e < BN * BK / V; e += THREADS) {
    const int j = e % BN, p = (e / BN) * V;
    const Vec x = *reinterpret_cast<const Vec*>(landed + LS::at(j, p));
    const D* xv = reinterpret_cast<const D*>(&x);
#pragma unroll
    for (int v = 0; v < V; ++v) to[LB::at(j, p + v)] = xv[v];
  }
}

// Shared memory of gemm_register_blocked: two panels of op(A); two of op(B)
// when B is stored transposed (its panels land along n), else one, plus two
// depth-major landing areas.
template <class D, int BM, int BN, int BK>
constexpr std::size_t register_blocked_shared_bytes(bool tb) {
  return (2ull * PanelLayout<D, BM, BK, false>::ELEMS + (tb ? 2ull * PanelLayout<D, BN, BK, false>::ELEMS
                                                            : PanelLayout<D, BN, BK, false>::ELEMS + 2ull * PanelLayout<D, BN, BK, true>::ELEMS)) *
         sizeof(D);
}

template <class D, int BM, int BN, int BK, int TM, int TN, bool ta, bool tb>
__global__ void __launch_bounds__((BM / TM) * (BN / TN), sizeof(D) == 4 ? 2 : 1) gemm_register_blocked(long long m, long long n, long long k, D alpha,
                                                                              const D* __restrict__ a, long long lda, const D* __restrict__ b,
                                                                              long long ldb, D beta, D* c, long long ldc, bool aligned) {
  constexpr int RX = BM / TM, RY = BN / TN, THREADS = RX * RY, V = 16 / static_cast<int>(sizeof(D));
  // B stored k x n (LANDED): its panels land depth-major (16-byte copies along
  // its storage, two landing areas) and are transposed in shared memory into
  // the compute layout, which is then the same in every case. Reading the
  // depth-major panel in the inner loop instead (one 16-byte load per column
  // and V depths) measured 35.5 TFLOP/s in float (128x128x32, 8192^3 NN)
  // against 46.4 with B stored n x k (NT); transposed from one landing area,
  // the next panel's copy waiting for the transpose, 42.7; from two, 44.0.
  constexpr bool LANDED = !tb;
  using LA = PanelLayout<D, BM, BK, false>;
  using LB = PanelLayout<D, BN, BK, false>;
  using LS = PanelLayout<D, BN, BK, true>;
  static_assert(TM % V == 0 && TN % V == 0 && BK % V == 0, "a thread's rows, columns and depths come in 16-byte groups");
  extern __shared__ __align__(16) unsigned char shared_raw[];
  D* const as = reinterpret_cast<D*>(shared_raw);       // [2][LA::ELEMS]
  D* const bs = as + 2 * LA::ELEMS;                     // [LANDED ? 1 : 2][LB::ELEMS]
  D* const landed = bs + (LANDED ? 1 : 2) * LB::ELEMS;  // [2][LS::ELEMS] when LANDED
  const int t = threadIdx.x, tx = t % RX, ty = t / RX;
  long long bi = 0, bj = 0;
  detail::grouped_tile<8>(blockIdx.x, (m + BM - 1) / BM, (n + BN - 1) / BN, bi, bj);
  const long long i0 = bi * BM, j0 = bj * BN;
  const bool inside = aligned && i0 + BM <= m && j0 + BN <= n;
  const auto address_a = [=](long long i, long long p) { return detail::address_a(a, lda, ta, i, p); };
  const auto address_b = [=](long long j, long long p) { return detail::address_b(b, ldb, tb, p, j); };
  const auto load_panel = [&](int buf, long long p0) {
    const bool fast = inside && p0 + BK <= k;
    load_operand_panel<D, BM, BK, THREADS, false, !ta>(as + buf * LA::ELEMS, address_a, i0, p0, m, k, fast, a);
    if constexpr (LANDED) load_operand_panel<D, BN, BK, THREADS, true, false>(landed + buf * LS::ELEMS, address_b, j0, p0, n, k, fast, b);
    else load_operand_panel<D, BN, BK, THREADS, false, true>(bs + buf * LB::ELEMS, address_b, j0, p0, n, k, fast, b);
  };
  D acc[TM][TN];
#pragma unroll
  for (int r = 0; r < TM; ++r)
#pragma unroll
    for (int s = 0; s < TN; ++s) acc[r][s] = D(0);
  const long long panels = (k + BK - 1) / BK;
  load_panel(0, 0);
  detail::copy_async_commit();
  for (long long kt = 0; kt < panels; ++kt) {
    if constexpr (LANDED) {
      detail::copy_async_wait<0>();  // panel kt (A, and B in its landing area) has landed
      __syncthreads();               // ... for every thread; and everyone is done with panel kt - 1 (A's buffer, bs, its landing area)
      if (kt + 1 < panels) load_panel(static_cast<int>((kt + 1) % 2), (kt + 1) * BK);  // in flight during the transpose and the FMAs
      detail::copy_async_commit();
      transpose_landed_panel<D, BN, BK, THREADS>(bs, landed + (kt % 2) * LS::ELEMS);
      __syncthreads();  // B's panel kt is complete
    } else {
      if (kt + 1 < panels) load_panel(static_cast<int>((kt + 1) % 2), (kt + 1) * BK);
      detail::copy_async_commit();
      detail::copy_async_wait<1>();  // panel kt has landed
      __syncthreads();
    }
    const D* sa = as + (kt % 2) * LA::ELEMS;
    const D* sb = bs + (LANDED ? 0 : (kt % 2) * LB::ELEMS);
#pragma unroll
    for (int p = 0; p < BK; p += V) {
      D br[V][TN];
#pragma unroll
      for (int g = 0; g < V; ++g) load_depth<D, BN, TN, RY>(br[g], sb + LB::at(0, p + g), ty);
#pragma unroll
      for (int g = 0; g < V; ++g) {  // op(A) one depth at a time: TM registers, not V TM
        D ar[TM];
        load_depth<D, BM, TM, RX>(ar, sa + LA::at(0, p + g), tx);
#pragma unroll
        for (int r = 0; r < TM; ++r)
#pragma unroll
          for (int s = 0; s < TN; ++s) acc[r][s] += ar[r] * br[g][s];
      }
    }
    if constexpr (!LANDED) __syncthreads();  // everyone is done with this buffer before it is refilled
  }
#pragma unroll
  for (int s = 0; s < TN; ++s) {
    const long long j = j0 + (s / V * RY + ty) * V + s % V;
    if (j >= n) continue;
#pragma unroll
    for (int r = 0; r < TM; ++r) {
      const long long i = i0 + (r / V * RX + tx) * V + r % V;
      if (i < m) store_c(c, ldc, i, j, alpha, acc[r][s], beta);
    }
  }
}

unsigned grid_dim(long long n, long long per_block, const char* what) {
  const long long g = (n + per_block - 1) / per_block;
  if (g > 65535 && std::string(what) == "y") throw Error(ErrorCode::invalid_argument, "GEMM: n too large for the grid (" + std::to_string(n) + ")");
  return static_cast<unsigned>(std::max(1LL, g));
}

template <class D, int BM, int BN, int BK, int TM, int TN>
void launch_register(const Executor& ex, const GemmShape& s, bool ta, bool tb, D alpha, const D* a, long long lda, const D* b, long long ldb,
                     D beta, D* c, long long ldc) {
  // 16-byte panel copies need 16-byte aligned storage and leading dimensions in whole 16-byte runs.
  const bool aligned = detail::in_16_byte_runs<D>({a, b}, {lda, ldb});
  detail::with_transposes(ta, tb, [&](auto at, auto bt) {
    const auto kernel = gemm_register_blocked<D, BM, BN, BK, TM, TN, decltype(at)::value, decltype(bt)::value>;
    constexpr std::size_t bytes = register_blocked_shared_bytes<D, BM, BN, BK>(decltype(bt)::value);
    detail::launch_c_tiles<BM, BN>("GEMM", ex, s, kernel, (BM / TM) * (BN / TN), bytes, s.m, s.n, s.k, alpha, a, lda, b, ldb, beta, c, ldc, aligned);
  });
}

template <class T>
void cublas_gemm(const Executor& ex, const GemmShape& s, Op ta, Op tb, T alpha, const ConstDenseView<T>& a, const ConstDenseView<T>& b, T beta,
                 const DenseView<T>& c, bool tf32) {
  cublasHandle_t h = cublas_handle(ex);
  // The shared handle stays in default math (exact FP32) between calls.
  struct MathMode {
    cublasHandle_t h;
    ~MathMode() { cublasSetMathMode(h, CUBLAS_DEFAULT_MATH); }
  } restore{h};
  if (cublasSetMathMode(h, tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH) != CUBLAS_STATUS_SUCCESS) {
    throw Error(ErrorCode::cuda, "cublasSetMathMode failed");
  }
  const cublasOperation_t oa = ta == Op::transpose ? CUBLAS_OP_T : CUBLAS_OP_N, ob = tb == Op::transpose ? CUBLAS_OP_T : CUBLAS_OP_N;
  if (s.m > INT_MAX || s.n > INT_MAX || s.k > INT_MAX || a.ld > INT_MAX || b.ld > INT_MAX || c.ld > INT_MAX) {
    throw Error(ErrorCode::invalid_argument, "cuBLAS GEMM: a size above 2^31 - 1");
  }
  const int m = static_cast<int>(s.m), n = static_cast<int>(s.n), k = static_cast<int>(s.k);
  cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
  if constexpr (std::is_same_v<T, double>) {
    st = cublasDgemm(h, oa, ob, m, n, k, &alpha, a.data, static_cast<int>(a.ld), b.data, static_cast<int>(b.ld), &beta, c.data, static_cast<int>(c.ld));
  } else if constexpr (std::is_same_v<T, float>) {
    st = cublasSgemm(h, oa, ob, m, n, k, &alpha, a.data, static_cast<int>(a.ld), b.data, static_cast<int>(b.ld), &beta, c.data, static_cast<int>(c.ld));
  } else {
    throw Error(ErrorCode::unsupported, "the cuBLAS GEMM baseline is float and double only");
  }
  if (st != CUBLAS_STATUS_SUCCESS) throw Error(ErrorCode::cuda, "cublas gemm failed with status " + std::to_string(static_cast<int>(st)));
}

}  // namespace

template <class T>
void gemm(const Executor& ex, GemmAlgorithm algorithm, Op ta, Op tb, T alpha, const ConstDenseView<T>& a, const ConstDenseView<T>& b, T beta,
          const DenseView<T>& c, const GemmTile& requested_tile) {
  const GemmShape s = check_gemm_shapes<T>(ta, tb, a, b, c);
  constexpr bool is_float = std::is_same_v<T, float>, is_double = std::is_same_v<T, double>;
  // Precision is never changed silently: TF32 only when asked for by name.
  if (algorithm == GemmAlgorithm::tensor && !is_double) {
    throw Error(ErrorCode::unsupported, std::string("GEMM 'tensor' is FP64 DMMA, double only") +
                                            (is_float ? "; float on tensor cores rounds its inputs to TF32: ask for it with 'tf32'" : ""));
  }
  if ((algorithm == GemmAlgorithm::tf32 || algorithm == GemmAlgorithm::cublas_tf32) && !is_float) {
    throw Error(ErrorCode::unsupported, std::string("GEMM '") + to_string(algorithm) + "' is float only (TF32 tensor cores)");
  }
  const GemmTile tile = gemm_tile_for(to_string(algorithm), requested_tile);
  if (s.m == 0 || s.n == 0) return;
  if (algorithm == GemmAlgorithm::cublas || algorithm == GemmAlgorithm::cublas_tf32) {
    return cublas_gemm<T>(ex, s, ta, tb, alpha, a, b, beta, c, algorithm == GemmAlgorithm::cublas_tf32);
  }
  if (algorithm == GemmAlgorithm::tensor || algorithm == GemmAlgorithm::tf32) {
    gemm_tensor_core<T>(ex, s, ta, tb, alpha, a, b, beta, c, tile);
    HSPARSE_CUDA_CHECK(cudaGetLastError());
    return;
  }
  using D = detail::device_t<T>;
  const bool at = ta == Op::transpose, bt = tb == Op::transpose;
  const D* ad = detail::dev(a.data);
  const D* bd = detail::dev(b.data);
  D* cd = detail::dev(c.data);
  const D al = detail::dev_value(alpha), be = detail::dev_value(beta);
  const auto stream = detail::stream_of(ex);
  if constexpr (is_complex_v<T>) {
    if (algorithm == GemmAlgorithm::register_blocked) algorithm = GemmAlgorithm::tiled;  // complex: the tiled kernel (stated in the header)
  }
  switch (algorithm) {
    case GemmAlgorithm::untiled: {
      const dim3 block(32, 8), grid(grid_dim(s.m, 32, "x"), grid_dim(s.n, 8, "y"));
      gemm_untiled<D><<<grid, block, 0, stream>>>(s.m, s.n, s.k, at, bt, al, ad, a.ld, bd, b.ld, be, cd, c.ld);
      break;
    }
    case GemmAlgorithm::tiled: {
      constexpr int TILE = 16;
      const dim3 block(TILE, TILE), grid(grid_dim(s.m, TILE, "x"), grid_dim(s.n, TILE, "y"));
      gemm_tiled<D, TILE><<<grid, block, 0, stream>>>(s.m, s.n, s.k, at, bt, al, ad, a.ld, bd, b.ld, be, cd, c.ld);
      break;
    }
    case GemmAlgorithm::register_blocked:
      if constexpr (!is_complex_v<T>) {
        const auto is = [&](int bm, int bn, int bk, int tm, int tn) {
          return tile.bm == bm && tile.bn == bn && tile.bk == bk && tile.tm == tm && tile.tn == tn;
        };
        if (is(128, 128, 8, 8, 8)) launch_register<D, 128, 128, 8, 8, 8>(ex, s, at, bt, al, ad, a.ld, bd, b.ld, be, cd, c.ld);
        else if (is(64, 64, 16, 4, 4)) launch_register<D, 64, 64, 16, 4, 4>(ex, s, at, bt, al, ad, a.ld, bd, b.ld, be, cd, c.ld);
        else if (is(128, 64, 8, 8, 4)) launch_register<D, 128, 64, 8, 8, 4>(ex, s, at, bt, al, ad, a.ld, bd, b.ld, be, cd, c.ld);
        else if (is(128, 128, 16, 8, 8)) launch_register<D, 128, 128, 16, 8, 8>(ex, s, at, bt, al, ad, a.ld, bd, b.ld, be, cd, c.ld);
        else if (is(128, 128, 32, 8, 8)) launch_register<D, 128, 128, 32, 8, 8>(ex, s, at, bt, al, ad, a.ld, bd, b.ld, be, cd, c.ld);
        else {
          std::string names;
          for (const auto& t : gemm_tiles()) names += " " + t.name();
          throw Error(ErrorCode::invalid_argument, "GEMM tile " + tile.name() + " is not compiled; compiled:" + names);
        }
      }
      break;
    case GemmAlgorithm::tensor:
    case GemmAlgorithm::tf32:
    case GemmAlgorithm::cublas:
    case GemmAlgorithm::cublas_tf32: break;  // handled above
  }
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

#define HSPARSE_INSTANTIATE(T)                                                                                                        \
  template void gemm(const Executor&, GemmAlgorithm, Op, Op, T, const ConstDenseView<T>&, const ConstDenseView<T>&, T, const DenseView<T>&, \
                     const GemmTile&);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
