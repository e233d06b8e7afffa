// Tall-skinny products on the GPU (backends/cuda/dense_ops.hpp).
//
// V^T W: a block stages TR rows of all k columns of V and l columns of W in
// shared memory (coalesced column segments), then its threads form the
// k x l products from the tile: each owns an MT x MT block of outputs
// (2 MT shared loads per MT^2 FMAs; MT = 4 for k, l > 16, else 2) and a
// lane of rows, R = 256 / (MT x MT blocks) lanes splitting the tile's rows. The sums stay in registers over
// the grid-stride loop, lanes are added in lane order once per block, and
// the last block to finish (a counter) adds the blocks' partials in a fixed
// order and writes S (finish_dot): one launch, deterministic, no atomics on
// values. In double with k l >= 64 the products run on the tensor cores
// (ts_dot_dmma_kernel).
// V and W are read once: (k + l) n words for 2 k l n flops.
//
// With one column on a side (l = 1, or k = 1: S^T = W^T V) V^T W is a
// multiple dot product: it runs as the solvers' mdot kernel (Rupp's
// batches of up to 8 vectors, w read once per batch; vector_ops.hpp's
// mdot_scaled), which streams without staging through shared memory.
//
// V S: a thread per row keeps the row's k values of V in registers and
// writes its l outputs; S sits in shared memory. k and l above 32 are done
// 32 at a time.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "check.cuh"
#include "device_common.cuh"
#include "gemm_common.cuh"
#include "hsparse/core/types.hpp"
#include "hsparse/backends/cuda/dense_ops.hpp"
#include "hsparse/backends/cuda/vector_ops.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda {

namespace {

constexpr int kThreads = 256;
constexpr int kMax = 32;  // k and l per launch

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

template <class D, int TR, int MT>
__global__ void __launch_bounds__(kThreads) ts_dot_kernel(long long n, int k, int l, const D* __restrict__ v, long long ldv, const D* __restrict__ w,
                                                          long long ldw, double* partials, unsigned* counter, D alpha, D beta, D* s, long long lds) {
  extern __shared__ double smem_d[];
  D* sv = reinterpret_cast<D*>(smem_d);
  D* sw = sv + k * (TR + 1);
  const int ml = (l + MT - 1) / MT, P = ((k + MT - 1) / MT) * ml, R = kThreads / P;
  const int t = threadIdx.x, micro = t % P, lane = t / P;
  const int a0 = MT * (micro / ml), b0 = MT * (micro % ml);
  double acc[MT][MT] = {};
  for (long long base = blockIdx.x * static_cast<long long>(TR); base < n; base += static_cast<long long>(gridDim.x) * TR) {
    const int rows = static_cast<int>(min(static_cast<long long>(TR), n - base));
    for (int e = t; e < k * TR; e += kThreads) {
      const int c = e / TR, r = e % TR;
      sv[c * (TR + 1) + r] = r < rows ? v[base + r + c * ldv] : D(0);
    }
    for (int e = t; e < l * TR; e += kThreads) {
      const int c = e / TR, r = e % TR;
      sw[c * (TR + 1) + r] = r < rows ? w[base + r + c * ldw] : D(0);
    }
    __syncthreads();
    if (lane < R) {
      for (int r = lane; r < rows; r += R) {
        double x[MT], y[MT];
#pragma unroll
        for (int i = 0; i < MT; ++i) {
          x[i] = a0 + i < k ? static_cast<double>(sv[(a0 + i) * (TR + 1) + r]) : 0.0;
          y[i] = b0 + i < l ? static_cast<double>(sw[(b0 + i) * (TR + 1) + r]) : 0.0;
        }
#pragma unroll
        for (int i = 0; i < MT; ++i)
#pragma unroll
          for (int j = 0; j < MT; ++j) acc[i][j] += x[i] * y[j];
      }
    }
    __syncthreads();
  }
  // Lanes in lane order, then this block's partial per output.
  double* red = smem_d;  // R * P * MT^2 doubles (<= 256 MT^2), the tile is no longer needed
  if (lane < R) {
    double* mine = red + (lane * P + micro) * MT * MT;
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
      for (int j = 0; j < MT; ++j) mine[i * MT + j] = acc[i][j];
  }
  __syncthreads();
  const int outputs = k * l;
  for (int o = t; o < outputs; o += kThreads) {
    const int a = o % k, b = o / k, m = (a / MT) * ml + b / MT, q = (a % MT) * MT + (b % MT);
    double sum = 0;
    for (int ln = 0; ln < R; ++ln) sum += red[(ln * P + m) * MT * MT + q];
    partials[o * static_cast<long long>(gridDim.x) + blockIdx.x] = sum;
  }
  finish_dot(k, l, partials, counter, alpha, beta, s, lds);
}

// V^T W in double on the tensor cores (k l >= 64): a GEMM of M = k, N = l
// and K = n, split over the blocks. Tiles of R rows of V's k and W's l
// columns are copied global -> shared by cp.async into a ring of three
// stages (two tiles in flight while one is multiplied); each warp takes
// R / 8 of a tile's rows (k-steps of m16n8k4 DMMA, gemm_tensor_core.cu's
// fragment layout) for the whole k x l output, up to 2 x 4 tiles of
// 16 x 8 in 32 registers. A stage holds k and l rounded up to the MMA
// tiles (KP = 16 tiles_m, LP = 8 tiles_n columns) of R + 4 rows, R = 64,
// 128 or 256, the most that fit kTcStageDoubles: narrow products get long
// tiles, so the bytes in flight do not shrink with k + l. Columns past k
// or l are never copied: their garbage only reaches outputs past k or l,
// which are not written; rows past n are zero-filled. The warps' sums are
// added in warp order, the blocks' by finish_dot: deterministic.
// Measured on the H200 before it (56ee034, n = 1e7): the SIMT kernel
// reached 0.38x cuBLAS at k = l = 16 and 0.30x at 32, its shared-memory
// operand loads the limit; with two stages of 64 rows, 0.72x and 0.76x
// (9c357c6): one tile in flight per block.
constexpr int kTcStageDoubles = 2 * kMax * (64 + 4);  // 64 columns of 64 rows (+4: R + 4 = 4 mod 16 words, conflict-free fragment loads)
constexpr int kTcStages = 3;
constexpr std::size_t kTcShared = kTcStages * kTcStageDoubles * sizeof(double);  // the warps' sums (64 KB) reuse it

__device__ __forceinline__ void dmma_m16n8k4(double (&c)[4], double a0, double a1, double b) {
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
               : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
               : "d"(a0), "d"(a1), "d"(b));
}

// Rows per tile for k x l: the longest of 256, 128, 64 whose stage fits.
__host__ __device__ inline int tc_tile_rows(int k, int l) {
  const int cols = 16 * ((k + 15) / 16) + 8 * ((l + 7) / 8);
  return cols * (256 + 4) <= kTcStageDoubles ? 256 : cols * (128 + 4) <= kTcStageDoubles ? 128 : 64;
}

// R (tc_tile_rows) is a template parameter: the copy loop divides by it
// (a runtime R made that loop's integer divisions the kernel's cost:
// 0.797 ms at k = l = 8 against 0.546 ms with R fixed at 64, 2b14e89).
// The copy loop was still the cost at k = l = 32 (ncu, H200, 69d8730: SM
// throughput 56%, DRAM 52%, stalls on address arithmetic), so a thread
// keeps one row offset and steps over columns, and with VEC = 2 (V and W
// 16-byte aligned, even leading dimensions) copies two rows per cp.async.
template <int R, int VEC>
__global__ void __launch_bounds__(kThreads, 2) ts_dot_dmma_kernel(long long n, int k, int l, const double* __restrict__ v, long long ldv,
                                                               const double* __restrict__ w, long long ldw, double* partials, unsigned* counter,
                                                               double alpha, double beta, double* s, long long lds) {
  extern __shared__ double smem_d[];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
  const int tiles_m = (k + 15) / 16, tiles_n = (l + 7) / 8, kp = 16 * tiles_m;
  constexpr int ld = R + 4, steps = R / 32;  // a warp's k-steps per tile
  const long long tiles = (n + R - 1) / R;
  const auto load_tile = [&](long long i) {  // the block's i-th tile, into stage i % kTcStages; an empty group past the end
    const long long tile = blockIdx.x + i * static_cast<long long>(gridDim.x);
    if (tile < tiles) {
      double* dst = smem_d + (i % kTcStages) * kTcStageDoubles;
      constexpr int per_column = R / VEC, column_step = kThreads / per_column;
      const int r = (threadIdx.x % per_column) * VEC;
      const long long row = tile * R + r;
      const int inside = static_cast<int>(min(static_cast<long long>(VEC), max(0LL, n - row)));  // rows of this copy inside V and W
      for (int c = threadIdx.x / per_column; c < k + l; c += column_step) {
        const bool in_v = c < k;
        const double* src = inside > 0 ? (in_v ? v + c * ldv : w + (c - k) * ldw) + row : v;
        double* to = dst + (in_v ? c : kp + c - k) * ld + r;
        if constexpr (VEC == 2) {
          detail::copy_async_16(to, src, inside * 8);
        } else {
          detail::copy_async(to, src, inside > 0);
        }
      }
    }
    detail::copy_async_commit();
  };
  double acc[2][4][4] = {};
  const long long mine = (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x;  // this block's tiles (>= 1: the grid has at most one block per tile)
  for (int i = 0; i < kTcStages - 1; ++i) load_tile(i);
  for (long long i = 0; i < mine; ++i) {
    detail::copy_async_wait<kTcStages - 2>();  // tile i has landed
    __syncthreads();                            // ... for every thread; and stage (i - 1) % 3 is no longer read
    load_tile(i + kTcStages - 1);
    const double* sv = smem_d + (i % kTcStages) * kTcStageDoubles;
    const double* sw = sv + kp * ld;
#pragma unroll 2
    for (int step = 0; step < steps; ++step) {
      const int r = warp * (R / 8) + step * 4 + q;
      double a[2][2], b[4];
#pragma unroll
      for (int mt = 0; mt < 2; ++mt) {
        a[mt][0] = mt < tiles_m ? sv[(mt * 16 + g) * ld + r] : 0.0;
        a[mt][1] = mt < tiles_m ? sv[(mt * 16 + g + 8) * ld + r] : 0.0;
      }
#pragma unroll
      for (int nt = 0; nt < 4; ++nt) b[nt] = nt < tiles_n ? sw[(nt * 8 + g) * ld + r] : 0.0;
#pragma unroll
      for (int mt = 0; mt < 2; ++mt)
#pragma unroll
        for (int nt = 0; nt < 4; ++nt)
          if (mt < tiles_m && nt < tiles_n) dmma_m16n8k4(acc[mt][nt], a[mt][0], a[mt][1], b[nt]);
    }
  }
  detail::copy_async_wait<0>();
  __syncthreads();  // every stage read and landed: the sums may overwrite them
  // The warps' 32 x 32 sums through shared memory (C fragment: value i at row g + 8 (i / 2), column 2 q + i % 2), added in warp order.
  double* red = smem_d;
#pragma unroll
  for (int mt = 0; mt < 2; ++mt)
#pragma unroll
    for (int nt = 0; nt < 4; ++nt)
#pragma unroll
      for (int i = 0; i < 4; ++i) red[warp * kMax * kMax + (mt * 16 + g + 8 * (i / 2)) * kMax + nt * 8 + 2 * q + i % 2] = acc[mt][nt][i];
  __syncthreads();
  for (int o = threadIdx.x; o < k * l; o += kThreads) {
    const int a = o % k, b = o / k;
    double sum = 0;
    for (int wp = 0; wp < kThreads / 32; ++wp) sum += red[wp * kMax * kMax + a * kMax + b];
    partials[o * static_cast<long long>(gridDim.x) + blockIdx.x] = sum;
  }
  finish_dot(k, l, partials, counter, alpha, beta, s, lds);
}

template <class D>
__global__ void __launch_bounds__(kThreads) ts_update_kernel(long long n, int k, int l, const D* __restrict__ v, long long ldv, const D* __restrict__ s,
                                                             long long lds, D alpha, D beta, D* y, long long ldy) {
  __shared__ D ss[kMax * kMax];
  for (int e = threadIdx.x; e < k * l; e += kThreads) ss[(e % k) + (e / k) * kMax] = alpha * s[(e % k) + (e / k) * lds];
  __syncthreads();
  for (long long i = blockIdx.x * static_cast<long long>(kThreads) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * kThreads) {
    D x[kMax];
#pragma unroll
    for (int a = 0; a < kMax; ++a) x[a] = a < k ? v[i + a * ldv] : D(0);
    for (int b = 0; b < l; ++b) {
      D sum = D(0);
#pragma unroll
      for (int a = 0; a < kMax; ++a) {
        if (a < k) sum += x[a] * ss[a + b * kMax];  // ss past k is not written: never read it
      }
      D& out = y[i + b * ldy];
      out = beta == D(0) ? sum : sum + beta * out;
    }
  }
}

// Partials and the completion counter, kept per host thread and grown as needed.
struct TallSkinnyScratch {
  DeviceArray<double> partials;
  DeviceArray<unsigned> counter;
  double* reserve(const Executor& ex, std::size_t n) {
    if (counter.size() == 0) {
      counter = DeviceArray<unsigned>(1);
      ex.fill_zero(counter.data(), sizeof(unsigned));
    }
    if (partials.size() < n) partials = DeviceArray<double>(n);
    return partials.data();
  }
};

int dot_blocks(const Executor& ex, long long n, int tr) {
  const long long tiles = (n + tr - 1) / tr;
  return static_cast<int>(std::clamp<long long>(tiles, 1, 4LL * ex.multiprocessors()));
}

template <class D>
void launch_dot(const Executor& ex, long long n, int k, int l, const D* v, long long ldv, const D* w, long long ldw, D alpha, D beta, D* s,
                long long lds) {
  thread_local TallSkinnyScratch scratch;
  const auto stream = detail::stream_of(ex);
  if constexpr (std::is_same_v<D, double>) {
    if (k * l >= 64) {  // the tensor cores: two blocks per SM (104 KB of shared memory each)
      const long long tiles = (n + tc_tile_rows(k, l) - 1) / tc_tile_rows(k, l);
      const int blocks = static_cast<int>(std::clamp<long long>(tiles, 1, 2LL * ex.multiprocessors()));
      double* partials = scratch.reserve(ex, static_cast<std::size_t>(blocks) * k * l);
      const auto run = [&](auto kernel) {
        // Above 48 KiB of dynamic shared memory a kernel must opt in (per device, so on every launch; the call is cheap).
        HSPARSE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(kTcShared)));
        kernel<<<blocks, kThreads, kTcShared, stream>>>(n, k, l, v, ldv, w, ldw, partials, scratch.counter.data(), alpha, beta, s, lds);
      };
      const bool pairs = reinterpret_cast<std::uintptr_t>(v) % 16 == 0 && reinterpret_cast<std::uintptr_t>(w) % 16 == 0 && ldv % 2 == 0 && ldw % 2 == 0;
      const auto with_rows = [&](auto vec) {
        constexpr int VEC = decltype(vec)::value;
        switch (tc_tile_rows(k, l)) {
          case 256: run(ts_dot_dmma_kernel<256, VEC>); break;
          case 128: run(ts_dot_dmma_kernel<128, VEC>); break;
          default: run(ts_dot_dmma_kernel<64, VEC>); break;
        }
      };
      if (pairs) with_rows(std::integral_constant<int, 2>{});
      else with_rows(std::integral_constant<int, 1>{});
      HSPARSE_CUDA_CHECK(cudaGetLastError());
      return;
    }
  }
  // Short tiles for many columns (shared memory), long ones for few (every lane busy).
  const bool wide = k + l > 16;
  const int tr = wide ? 64 : 256;
  const int blocks = dot_blocks(ex, n, tr);
  double* partials = scratch.reserve(ex, static_cast<std::size_t>(blocks) * k * l);
  // 4 x 4 outputs per thread (8 shared loads per 16 FMAs) once k and l
  // are both above 16. Measured on the H200, V^T W with n = 1e7
  // (2026-11-23): k = l = 32 4.46 ms with 2 x 2, 3.84 ms with 4 x 4; but
  // k = l = 16 1.35 ms with 2 x 2 (R = 4 lanes), 1.61 ms with 4 x 4.
  const bool big = k > 16 && l > 16;
  const std::size_t shared = std::max<std::size_t>(static_cast<std::size_t>(k + l) * (tr + 1) * sizeof(D), kThreads * (big ? 16 : 4) * sizeof(double));
  if (big) {
    ts_dot_kernel<D, 64, 4><<<blocks, kThreads, shared, stream>>>(n, k, l, v, ldv, w, ldw, partials, scratch.counter.data(), alpha, beta, s, lds);
  } else if (wide) {
    ts_dot_kernel<D, 64, 2><<<blocks, kThreads, shared, stream>>>(n, k, l, v, ldv, w, ldw, partials, scratch.counter.data(), alpha, beta, s, lds);
  } else {
    ts_dot_kernel<D, 256, 2><<<blocks, kThreads, shared, stream>>>(n, k, l, v, ldv, w, ldw, partials, scratch.counter.data(), alpha, beta, s, lds);
  }
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

template <class T>
void tall_skinny_dot(const Executor& ex, T alpha, const ConstDenseView<T>& v, const ConstDenseView<T>& w, T beta, const DenseView<T>& s) {
  const GemmShape sh = check_gemm_shapes<T>(Op::transpose, Op::none, v, w, s);
  if constexpr (is_complex_v<T>) {
    throw Error(ErrorCode::unsupported, "the GPU tall-skinny products take float and double");
  } else {
    if (sh.m == 0 || sh.n == 0) return;
    if (sh.m == 1 || sh.n == 1) {  // a multiple dot product: mdot's kernel
      thread_local ReductionScratch scratch;
      const bool one_w = sh.n == 1;  // S(a, 0) = <W_0, V_a>; else S(0, b) = <V_0, W_b>
      const ConstDenseView<T>& many = one_w ? v : w;
      std::vector<const T*> columns;
      for (long long c = 0; c < (one_w ? sh.m : sh.n); ++c) columns.push_back(many.data + c * many.ld);
      mdot_scaled<T>(ex, sh.k, one_w ? w.data : v.data, columns, alpha, beta, s.data, one_w ? 1 : s.ld, scratch);
      return;
    }
    for (long long a0 = 0; a0 < sh.m; a0 += kMax) {
      for (long long b0 = 0; b0 < sh.n; b0 += kMax) {
        const int k = static_cast<int>(std::min<long long>(kMax, sh.m - a0)), l = static_cast<int>(std::min<long long>(kMax, sh.n - b0));
        launch_dot<T>(ex, sh.k, k, l, v.data + a0 * v.ld, v.ld, w.data + b0 * w.ld, w.ld, alpha, beta, s.data + a0 + b0 * s.ld, s.ld);
      }
    }
  }
}

template <class T>
void tall_skinny_update(const Executor& ex, T alpha, const ConstDenseView<T>& v, const ConstDenseView<T>& s, T beta, const DenseView<T>& y) {
  const GemmShape sh = check_gemm_shapes<T>(Op::none, Op::none, v, s, y);
  if constexpr (is_complex_v<T>) {
    throw Error(ErrorCode::unsupported, "the GPU tall-skinny products take float and double");
  } else {
    if (sh.m == 0 || sh.n == 0) return;
    const auto stream = detail::stream_of(ex);
    const int blocks = static_cast<int>(std::clamp<long long>((sh.m + kThreads - 1) / kThreads, 1, 8LL * ex.multiprocessors()));
    for (long long b0 = 0; b0 < sh.n; b0 += kMax) {
      const int l = static_cast<int>(std::min<long long>(kMax, sh.n - b0));
      if (sh.k == 0) {  // Y = beta Y: a launch with no columns of V
        ts_update_kernel<T><<<blocks, kThreads, 0, stream>>>(sh.m, 0, l, v.data, v.ld, s.data, s.ld, alpha, beta, y.data + b0 * y.ld, y.ld);
      }
      for (long long a0 = 0; a0 < sh.k; a0 += kMax) {
        const int k = static_cast<int>(std::min<long long>(kMax, sh.k - a0));
        ts_update_kernel<T><<<blocks, kThreads, 0, stream>>>(sh.m, k, l, v.data + a0 * v.ld, v.ld, s.data + a0 + b0 * s.ld, s.ld, alpha,
                                                             a0 == 0 ? beta : T(1), y.data + b0 * y.ld, y.ld);
      }
    }
    HSPARSE_CUDA_CHECK(cudaGetLastError());
  }
}

#define HSPARSE_INSTANTIATE(T)                                                                                                       \
  template void tall_skinny_dot(const Executor&, T, const ConstDenseView<T>&, const ConstDenseView<T>&, T, const DenseView<T>&);    \
  template void tall_skinny_update(const Executor&, T, const ConstDenseView<T>&, const ConstDenseView<T>&, T, const DenseView<T>&);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
