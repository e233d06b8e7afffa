// Tall-skinny products in double with more than 8 columns on a side
// (tall_skinny_kernels.hpp), on the FP64 tensor cores (DMMA, PTX
// mma.m16n8k4; gemm_common.cuh states its fragment layout).
//
// Both products stream V (and W or Y) once; at k = l = 32 they need
// 4 flops per byte, past what the SIMT FP64 pipe sustains beside the loads
// at the H200's ~4.8 TB/s, so the FMAs go to the tensor cores.
//  - V S: each lane loads its MMA fragments straight from global memory
//    into registers (no shared memory, no barrier in the loop); the MMA's
//    rows are mapped to matrix rows so that a lane's two values are two
//    consecutive rows of one column: one 16-byte load and one 16-byte
//    store (PAIR: V, Y 16-byte aligned, even leading dimensions), else two.
//    Measured (H200, n = 1e7, 2026-11-25): k = l = 16 0.690 ms, 32 1.383 ms,
//    82% of the read bandwidth, ahead of cuBLAS (0.974, 1.490); the SIMT
//    kernel with S in shared memory it replaced: 1.149, 2.320 ms.
//  - V^T W: tiles staged through shared memory by cp.async (below). The
//    same register-direct design (lane (g, q) loading rows 8c + 2q, + 1 of
//    V's columns g, g + 8 and W's columns g, ..., two k-steps per 8 rows)
//    measured slower: 0.770 / 1.873 ms at k = l = 16 / 32 with one chunk of
//    8 rows per warp and step, 0.862 / 1.788 with two, against 0.758 / 1.545
//    staged (same run, 2026-11-25).
#include <algorithm>
#include <type_traits>

#include "device_common.cuh"
#include "gemm_common.cuh"
#include "tall_skinny_finish.cuh"
#include "tall_skinny_kernels.hpp"

namespace hsparse::cuda::detail {

namespace {

constexpr int kThreads = 256;

// Rows row and row + 1 of a column (left: rows from `row` to n).
template <bool PAIR>
__device__ __forceinline__ void load_pair(double (&x)[2], const double* p, long long left) {
  if (PAIR && left >= 2) {
    const double2 t = *reinterpret_cast<const double2*>(p);
    x[0] = t.x;
    x[1] = t.y;
  } else {
    x[0] = left > 0 ? p[0] : 0.0;
    x[1] = left > 1 ? p[1] : 0.0;
  }
}

template <bool PAIR>
__device__ __forceinline__ void store_pair(double* p, double x0, double x1, long long left) {
  if (PAIR && left >= 2) {
    *reinterpret_cast<double2*>(p) = make_double2(x0, x1);
  } else {
    if (left > 0) p[0] = x0;
    if (left > 1) p[1] = x1;
  }
}

constexpr int kMax = 32;
// V^T W in double on the tensor cores (k or l above 8): a GEMM of M = k, N = l
// and K = n, split over the blocks. Tiles of R = 128 rows of V's k and W's
// l columns are copied global -> shared by cp.async into a ring of three
// stages (two tiles in flight while one is multiplied); each warp takes
// R / 8 of a tile's rows (k-steps of 8 rows, m16n8k8 DMMA: 16-byte
// fragment loads and half the MMAs of m16n8k4, as the GEMM's gemm_dmma.cu;
// measured 0.760 / 1.529 ms at k = l = 16 / 32 against 0.758 / 1.545 with
// m16n8k4, H200 2026-11-25: the loads were not the limit) for the whole
// k x l output, up to 2 x 4 tiles of 16 x 8 in 32 registers. A stage holds
// k and l rounded up to the MMA tiles (KP = 16 tiles_m, LP = 8 tiles_n
// columns), at most COLS = 32 or 64, of R + 8 rows. Columns past k or l
// are never copied: their garbage only reaches outputs past k or l, which
// are not written; rows past n are zero-filled. The warps' sums are added
// in warp order, the blocks' by finish_dot: deterministic.
// Measured on the H200 before it (56ee034, n = 1e7): the SIMT kernel
// reached 0.38x cuBLAS at k = l = 16 and 0.30x at 32, its shared-memory
// operand loads the limit; with two stages of 64 rows, 0.72x and 0.76x
// (9c357c6): one tile in flight per block.
constexpr int kTcRows = 128;
constexpr int kTcPad = 8;  // R + 8 = 8 mod 16 doubles: a quarter-warp's 16-byte fragment loads (columns g, g + 1; rows 2q, 2q + 1) hit 8 bank groups
constexpr int kTcStages = 3;

// A stage of COLS columns: two blocks per SM up to 32 columns, one above.
// Measured (H200, 2026-11-25, n = 1e7): k = l = 32 with two blocks of
// 64-row stages (the same bytes in flight) 1.53 ms, cuBLAS's split-K DGEMM
// 1.20 (ncu: 4.6x its instructions, stalls on the barrier per tile and the
// copies' arithmetic); one block of 128-row stages 1.42 ms. k = l = 16:
// two blocks of 128 rows 0.76 ms, one block of 256 rows 0.84.
template <int COLS>
struct TcStage {
  static_assert(COLS == 32 || COLS == 64, "two k-tiles of 16 and four n-tiles of 8 at most");
  static constexpr int DOUBLES = COLS * (kTcRows + kTcPad), BLOCKS_PER_SM = COLS > 32 ? 1 : 2;
  static constexpr std::size_t SHARED = kTcStages * DOUBLES * sizeof(double);  // the warps' sums (66 KB) reuse it
  static_assert(kTcStages * DOUBLES >= (kThreads / 32) * kMax * (kMax + 1), "the warps' sums fit the stages");
};

// Columns of a stage for k x l (see TcStage).
inline int tc_stage_columns(int k, int l) { return 16 * ((k + 15) / 16) + 8 * ((l + 7) / 8) <= 32 ? 32 : 64; }

// The tile's row count is a compile-time constant: the copy loop divides
// by it (a runtime R made that loop's integer divisions the kernel's cost:
// 0.797 ms at k = l = 8 against 0.546 ms with R fixed at 64, 2b14e89).
// The copy loop was still the cost at k = l = 32 (ncu, H200, 69d8730: SM
// throughput 56%, DRAM 52%, stalls on address arithmetic), so a thread
// keeps one row offset and steps over columns, and with VEC = 2 (V and W
// 16-byte aligned, even leading dimensions) copies two rows per cp.async.
template <int COLS, int VEC>
__global__ void __launch_bounds__(kThreads, TcStage<COLS>::BLOCKS_PER_SM) ts_dot_dmma_kernel(long long n, int k, int l, const double* __restrict__ v,
                                                                                            long long ldv, const double* __restrict__ w, long long ldw,
                                                                                            double* partials, unsigned* counter, double alpha,
                                                                                            double beta, double* s, long long lds) {
  constexpr int R = kTcRows, kTcStageDoubles = TcStage<COLS>::DOUBLES;
  extern __shared__ double smem_d[];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
  const int tiles_m = (k + 15) / 16, tiles_n = (l + 7) / 8, kp = 16 * tiles_m;
  constexpr int ld = R + kTcPad, steps = R / 64;  // a warp's k-steps of 8 rows per tile
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
          copy_async_16(to, src, inside * 8);
        } else {
          copy_async(to, src, inside > 0);
        }
      }
    }
    copy_async_commit();
  };
  double acc[2][4][4] = {};
  const long long mine = (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x;  // this block's tiles (>= 1: the grid has at most one block per tile)
  for (int i = 0; i < kTcStages - 1; ++i) load_tile(i);
  for (long long i = 0; i < mine; ++i) {
    copy_async_wait<kTcStages - 2>();  // tile i has landed
    __syncthreads();                            // ... for every thread; and stage (i - 1) % 3 is no longer read
    load_tile(i + kTcStages - 1);
    const double* sv = smem_d + (i % kTcStages) * kTcStageDoubles;
    const double* sw = sv + kp * ld;
#pragma unroll 1
    for (int step = 0; step < steps; ++step) {
      // m16n8k8 with its depths q and q + 4 mapped to rows 2q and 2q + 1 of the step's 8: one 16-byte load per column fragment.
      const int r = warp * (R / 8) + step * 8 + 2 * q;
      const double2 zero = {0.0, 0.0};
      double2 av[2][2], bv[4];
#pragma unroll
      for (int mt = 0; mt < 2; ++mt) {
        av[mt][0] = mt < tiles_m ? *reinterpret_cast<const double2*>(sv + (mt * 16 + g) * ld + r) : zero;
        av[mt][1] = mt < tiles_m ? *reinterpret_cast<const double2*>(sv + (mt * 16 + g + 8) * ld + r) : zero;
      }
#pragma unroll
      for (int nt = 0; nt < 4; ++nt) bv[nt] = nt < tiles_n ? *reinterpret_cast<const double2*>(sw + (nt * 8 + g) * ld + r) : zero;
#pragma unroll
      for (int mt = 0; mt < 2; ++mt) {
        const double a[4] = {av[mt][0].x, av[mt][1].x, av[mt][0].y, av[mt][1].y};
#pragma unroll
        for (int nt = 0; nt < 4; ++nt) {
          const double b[2] = {bv[nt].x, bv[nt].y};
          if (mt < tiles_m && nt < tiles_n) dmma_m16n8k8(acc[mt][nt], a, b);
        }
      }
    }
  }
  copy_async_wait<0>();
  __syncthreads();  // every stage read and landed: the sums may overwrite them
  // The warps' 32 x 32 sums through shared memory (C fragment: value i at row g + 8 (i / 2), column 2 q + i % 2), added in warp order;
  // rows kRed = 33 apart, so the sums' reads (consecutive threads: consecutive rows) are free of bank conflicts.
  constexpr int kRed = kMax + 1;
  double* red = smem_d;
#pragma unroll
  for (int mt = 0; mt < 2; ++mt)
#pragma unroll
    for (int nt = 0; nt < 4; ++nt)
#pragma unroll
      for (int i = 0; i < 4; ++i) red[warp * kMax * kRed + (mt * 16 + g + 8 * (i / 2)) * kRed + nt * 8 + 2 * q + i % 2] = acc[mt][nt][i];
  __syncthreads();
  for (int o = threadIdx.x; o < k * l; o += kThreads) {
    const int a = o % k, b = o / k;
    double sum = 0;
    for (int wp = 0; wp < kThreads / 32; ++wp) sum += red[wp * kMax * kRed + a * kRed + b];
    partials[o * static_cast<long long>(gridDim.x) + blockIdx.x] = sum;
  }
  finish_dot(k, l, partials, counter, alpha, beta, s, lds);
}

// Y = alpha V S + beta Y: a GEMM of M = n, N = l, K = k. A warp takes
// tiles of 16 rows, TILES at a time; the MMA's row g is matrix row
// 16 t + 2 g and its row g + 8 is 16 t + 2 g + 1, so lane (g, q) loads one
// pair of rows of V's columns q, q + 4, ... (A fragments) and stores one
// pair of rows of Y's columns 8 nt + 2 q and + 1 (C fragments). alpha S's
// fragments (KS k-steps x NT tiles of 8 columns: k <= 4 KS, l <= 8 NT)
// stay in registers for the whole loop.
template <int KS, int NT, bool PAIR>
__global__ void __launch_bounds__(kThreads) ts_update_dmma_kernel(long long n, int k, int l, const double* __restrict__ v, long long ldv,
                                                                 const double* __restrict__ s, long long lds, double alpha, double beta,
                                                                 double* __restrict__ y, long long ldy) {
  constexpr int TILES = 2;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
  double sb[KS][NT];
#pragma unroll
  for (int ks = 0; ks < KS; ++ks)
#pragma unroll
    for (int nt = 0; nt < NT; ++nt) {
      const int r = 4 * ks + q, col = 8 * nt + g;
      sb[ks][nt] = r < k && col < l ? alpha * s[r + col * lds] : 0.0;
    }
  const long long tiles = (n + 15) / 16, warps = static_cast<long long>(gridDim.x) * (kThreads / 32);
  for (long long t0 = (blockIdx.x * static_cast<long long>(kThreads / 32) + warp) * TILES; t0 < tiles; t0 += warps * TILES) {
    double a[TILES][KS][2];
#pragma unroll
    for (int u = 0; u < TILES; ++u) {
      const long long row = (t0 + u) * 16 + 2 * g, left = n - row;
#pragma unroll
      for (int ks = 0; ks < KS; ++ks) {
        const int col = 4 * ks + q;
        if (col < k) load_pair<PAIR>(a[u][ks], v + col * ldv + row, left);
        else a[u][ks][0] = a[u][ks][1] = 0.0;
      }
    }
#pragma unroll
    for (int u = 0; u < TILES; ++u) {
      const long long row = (t0 + u) * 16 + 2 * g, left = n - row;
      double acc[NT][4] = {};
#pragma unroll
      for (int ks = 0; ks < KS; ++ks)
#pragma unroll
        for (int nt = 0; nt < NT; ++nt) dmma_m16n8k4(acc[nt], a[u][ks][0], a[u][ks][1], sb[ks][nt]);
#pragma unroll
      for (int nt = 0; nt < NT; ++nt)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int col = 8 * nt + 2 * q + h;
          if (col >= l || left <= 0) continue;
          double* const to = y + col * ldy + row;
          double y0 = acc[nt][h], y1 = acc[nt][2 + h];  // rows row, row + 1
          if (beta != 0.0) {  // beta = 0: Y is not read (NaN there stays out)
            double old[2];
            load_pair<PAIR>(old, to, left);
            y0 += beta * old[0];
            y1 += beta * old[1];
          }
          store_pair<PAIR>(to, y0, y1, left);
        }
    }
  }
}

// f(KS / 4, NT, PAIR) as compile-time constants: k up to 16 or 32 (KS
// k-steps of 4), l up to 16 or 32 (NT tiles of 8 columns).
template <class F>
void with_tiles(int first_cols, int second_cols, bool pair, F&& f) {
  const auto with_pair = [&](auto a, auto b) {
    if (pair) f(a, b, std::true_type{});
    else f(a, b, std::false_type{});
  };
  const auto with_second = [&](auto a) {
    if (second_cols <= 16) with_pair(a, std::integral_constant<int, 2>{});
    else with_pair(a, std::integral_constant<int, 4>{});
  };
  if (first_cols <= 16) with_second(std::integral_constant<int, 1>{});
  else with_second(std::integral_constant<int, 2>{});
}

}  // namespace


void ts_dot_dmma(const Executor& ex, long long n, int k, int l, const double* v, long long ldv, const double* w, long long ldw, double alpha,
                 double beta, double* s, long long lds) {
  TallSkinnyScratch& scratch = tall_skinny_scratch();
  const auto stream = stream_of(ex);
  const long long tiles = (n + kTcRows - 1) / kTcRows;
  const auto run = [&](auto kernel, auto stage) {
    using Stage = decltype(stage);
    const int blocks = static_cast<int>(std::clamp<long long>(tiles, 1, static_cast<long long>(Stage::BLOCKS_PER_SM) * ex.multiprocessors()));
    double* partials = scratch.reserve(ex, static_cast<std::size_t>(blocks) * k * l);
    // Above 48 KiB of dynamic shared memory a kernel must opt in (per device, so on every launch; the call is cheap).
    HSPARSE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(Stage::SHARED)));
    kernel<<<blocks, kThreads, Stage::SHARED, stream>>>(n, k, l, v, ldv, w, ldw, partials, scratch.counter.data(), alpha, beta, s, lds);
  };
  const bool pairs = in_16_byte_runs<double>({v, w}, {ldv, ldw});
  const auto with_rows = [&](auto vec) {
    constexpr int VEC = decltype(vec)::value;
    if (tc_stage_columns(k, l) > 32) run(ts_dot_dmma_kernel<64, VEC>, TcStage<64>{});
    else run(ts_dot_dmma_kernel<32, VEC>, TcStage<32>{});
  };
  if (pairs) with_rows(std::integral_constant<int, 2>{});
  else with_rows(std::integral_constant<int, 1>{});
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

void ts_update_dmma(const Executor& ex, long long n, int k, int l, const double* v, long long ldv, const double* s, long long lds, double alpha,
                    double beta, double* y, long long ldy) {
  with_tiles(k, l, in_16_byte_runs<double>({v, y}, {ldv, ldy}), [&](auto k_halves, auto nt, auto pair) {
    constexpr auto kernel = ts_update_dmma_kernel<4 * decltype(k_halves)::value, decltype(nt)::value, decltype(pair)::value>;
    const long long tile_pairs = (n + 31) / 32;  // a warp's TILES = 2 tiles of 16 rows per step
    const int blocks = static_cast<int>(std::clamp<long long>((tile_pairs + kThreads / 32 - 1) / (kThreads / 32), 1, resident_blocks<kernel>(ex, kThreads)));
    kernel<<<blocks, kThreads, 0, stream_of(ex)>>>(n, k, l, v, ldv, s, lds, alpha, beta, y, ldy);
  });
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace hsparse::cuda::detail
