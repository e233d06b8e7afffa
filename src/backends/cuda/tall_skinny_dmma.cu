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
//    Measured (H200, n = 1e7): k = l = 16 0.690 ms, 32 1.383 ms,
//    82% of the read bandwidth, ahead of cuBLAS (0.974, 1.490); the SIMT
//    kernel with S in shared memory it replaced: 1.149, 2.320 ms.
//  - V^T W: tiles staged through shared memory by bulk copies (below). The
//    same register-direct design (lane (g, q) loading rows 8c + 2q, + 1 of
//    V's columns g, g + 8 and W's columns g, ..., two k-steps per 8 rows)
//    measured slower: 0.770 / 1.873 ms at k = l = 16 / 32 with one chunk of
//    8 rows per warp and step, 0.862 / 1.788 with two, against 0.758 / 1.545
//    staged (same run).
#include <algorithm>
#include <type_traits>

#include "bulk_copy.cuh"
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
// l columns go global -> shared into a ring of three stages (two tiles in
// flight while one is multiplied). A block is warp-specialised: a producer
// warp fills the stages, each column segment (R doubles, 1 KB) one bulk
// copy of the TMA unit completing on the stage's `full` barrier
// (bulk_copy.cuh), and eight consumer warps multiply, each R / 8 of a
// tile's rows (k-steps of 8 rows, m16n8k8 DMMA: 16-byte fragment loads)
// for the whole k x l output, up to 2 x 4 tiles of 16 x 8 in 32 registers,
// then release the stage on its `empty` barrier. No __syncthreads in the
// loop. Every thread that wrote or read a stage arrives itself: an arrival
// releases only its own thread's accesses (PTX memory model; racecheck
// flags a warp whose lane 0 arrives for all). A stage holds k and l rounded up to the MMA tiles (KP = 16 tiles_m,
// LP = 8 tiles_n columns), at most COLS = 32 or 64, of R + 8 rows. Columns
// past k or l are never copied: their garbage only reaches outputs past k
// or l, which are not written; rows past n are zero-filled. The warps' sums
// are added in warp order, the blocks' by finish_dot: deterministic.
// Where bulk copies cannot run (V or W not 16-byte aligned, an odd leading
// dimension; and the last, partial tile) the producer warp copies the
// tile with plain loads.
// Measured on the H200 (n = 1e7), the kernels before it: 256 threads
// copying by cp.async (16 bytes each, a __syncthreads per tile): k = l =
// 16 / 32 0.774 / 1.491 ms, 73% / 76% of the read bandwidth (ncu at
// k = l = 32: 4.6x cuBLAS's instructions, stalls on the barrier per tile
// and on the copies' address arithmetic); the SIMT kernel 0.38x cuBLAS at
// k = l = 16.
constexpr int kTcPad = 8;  // R + 8 = 8 mod 16 doubles: a quarter-warp's 16-byte fragment loads (columns g, g + 1; rows 2q, 2q + 1) hit 8 bank groups
constexpr int kConsumerWarps = 8;
constexpr int kDotThreads = 32 * (kConsumerWarps + 1);  // and the producer warp

// A stage of COLS columns: two blocks per SM up to 32 columns, one above;
// 128 rows, three stages. Measured (H200, n = 1e7, this kernel,
// V^T W ms at k x l = 8 x 8 / 16 x 16 / 16 x 8; 32 x 32 1.33):
//   two blocks of 128 rows, 3 stages (this)  0.303 / 0.652 / 0.500
//   one block of 128 rows, 4 stages          0.443 / 0.700 / 0.574
//   one block of 256 rows, 3 stages          0.348 / 0.633 / 0.489
// and for 64 columns 6 stages of 64 rows: 32 x 32 2.50 ms (against 1.33).
// The time follows the bytes in flight per SM up to ~64 KB (8 x 8 reaches
// 93% of the read bandwidth there); past it, 128 KB at 16 x 16 and 32 x 32,
// it settles at 87-89%.
template <int COLS>
struct TcStage {
  static_assert(COLS == 32 || COLS == 64, "two k-tiles of 16 and four n-tiles of 8 at most");
  static constexpr int ROWS = 128, STAGES = 3, BLOCKS_PER_SM = COLS > 32 ? 1 : 2;
  static constexpr int DOUBLES = COLS * (ROWS + kTcPad);
  static constexpr std::size_t SHARED = STAGES * DOUBLES * sizeof(double);  // the warps' sums (66 KB) reuse it
  static_assert(STAGES * DOUBLES >= kConsumerWarps * kMax * (kMax + 1), "the warps' sums fit the stages");
  static_assert((ROWS + kTcPad) * sizeof(double) % 16 == 0, "column segments of a stage start 16-byte aligned (bulk copies)");
  static_assert(ROWS % 64 == 0, "each consumer warp takes whole k-steps of 8 rows");
};

// Columns of a stage for k x l (see TcStage).
inline int tc_stage_columns(int k, int l) { return 16 * ((k + 15) / 16) + 8 * ((l + 7) / 8) <= 32 ? 32 : 64; }

// The producer warp: the block's tiles i = 0, 1, ... into stage i % 3, each
// once the consumers released the tile three before it. BULK: V and W in
// 16-byte runs (bulk copies allowed for whole tiles).
template <class Stage, bool BULK>
__device__ __forceinline__ void produce_tiles(long long n, int k, int l, int kp, const double* v, long long ldv, const double* w, long long ldw,
                                              double* stages, int stage_doubles, std::uint64_t* full, std::uint64_t* empty, long long mine) {
  constexpr int R = Stage::ROWS, ld = R + kTcPad, S = Stage::STAGES;
  const int lane = threadIdx.x % 32;
  for (long long i = 0; i < mine; ++i) {
    const int stage = static_cast<int>(i % S);
    if (i >= S) barrier_wait(&empty[stage], static_cast<unsigned>((i / S - 1) & 1));
    const long long row = (blockIdx.x + i * static_cast<long long>(gridDim.x)) * R;
    double* const dst = stages + stage * stage_doubles;
    const auto column = [&](int c) { return c < k ? v + c * ldv : w + (c - k) * ldw; };
    const auto slot = [&](int c) { return dst + (c < k ? c : kp + c - k) * ld; };
    // Every lane arrives on `full` (an arrival releases only its own thread's writes): lane 0 with the bytes the copies will bring.
    if (BULK && row + R <= n) {
      if (lane == 0) barrier_arrive_expect_bytes(&full[stage], static_cast<unsigned>((k + l) * R * sizeof(double)));
      __syncwarp();
      for (int c = lane; c < k + l; c += 32) bulk_copy(slot(c), column(c) + row, R * sizeof(double), &full[stage]);
      if (lane != 0) barrier_arrive(&full[stage]);
    } else {
      for (int c = 0; c < k + l; ++c) {
        const double* src = column(c);
        double* to = slot(c);
        for (int r = lane; r < R; r += 32) to[r] = row + r < n ? src[row + r] : 0.0;
      }
      fence_proxy_async();  // before any later bulk copy into these bytes
      barrier_arrive(&full[stage]);
    }
  }
}

template <int COLS, bool BULK>
__global__ void __launch_bounds__(kDotThreads, TcStage<COLS>::BLOCKS_PER_SM) ts_dot_dmma_kernel(long long n, int k, int l, const double* __restrict__ v,
                                                                                               long long ldv, const double* __restrict__ w, long long ldw,
                                                                                               double* partials, unsigned* counter, double alpha,
                                                                                               double beta, double* s, long long lds) {
  using Stage = TcStage<COLS>;
  constexpr int R = Stage::ROWS, ld = R + kTcPad, kStageDoubles = Stage::DOUBLES, S = Stage::STAGES, steps = R / 64;  // a warp's k-steps of 8 rows per tile
  // MMA tiles of the output at most: 16 MTS + 8 NTS <= COLS with k, l >= 1 (COLS = 32 in 2 x 4 tiles spilled at 96 registers).
  constexpr int MTS = COLS == 32 ? 1 : 2, NTS = COLS == 32 ? 2 : 4;
  extern __shared__ __align__(128) double ts_stages[];
  __shared__ std::uint64_t full[S], empty[S];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
  const int tiles_m = (k + 15) / 16, tiles_n = (l + 7) / 8, kp = 16 * tiles_m;
  const long long tiles = (n + R - 1) / R;
  const long long mine = (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x;  // this block's tiles (>= 1: the grid has at most one block per tile)
  if (threadIdx.x == 0) {
    for (int i = 0; i < S; ++i) {
      barrier_init(&full[i], 32);                    // the producer warp's lanes (and the bulk copies' bytes)
      barrier_init(&empty[i], 32 * kConsumerWarps);  // every consumer thread, after its last read of the stage
    }
    fence_barrier_init();
  }
  __syncthreads();
  double acc[MTS][NTS][4] = {};
  if (warp == kConsumerWarps) {
    produce_tiles<Stage, BULK>(n, k, l, kp, v, ldv, w, ldw, ts_stages, kStageDoubles, full, empty, mine);
  } else {
    for (long long i = 0; i < mine; ++i) {
      const int stage = static_cast<int>(i % S);
      barrier_wait(&full[stage], static_cast<unsigned>((i / S) & 1));  // tile i has landed
      const double* sv = ts_stages + stage * kStageDoubles;
      const double* sw = sv + kp * ld;
#pragma unroll 1
      for (int step = 0; step < steps; ++step) {
        // m16n8k8 with its depths q and q + 4 mapped to rows 2q and 2q + 1 of the step's 8: one 16-byte load per column fragment.
        const int r = warp * (R / 8) + step * 8 + 2 * q;
        const double2 zero = {0.0, 0.0};
        double2 av[MTS][2], bv[NTS];
#pragma unroll
        for (int mt = 0; mt < MTS; ++mt) {
          av[mt][0] = mt < tiles_m ? *reinterpret_cast<const double2*>(sv + (mt * 16 + g) * ld + r) : zero;
          av[mt][1] = mt < tiles_m ? *reinterpret_cast<const double2*>(sv + (mt * 16 + g + 8) * ld + r) : zero;
        }
#pragma unroll
        for (int nt = 0; nt < NTS; ++nt) bv[nt] = nt < tiles_n ? *reinterpret_cast<const double2*>(sw + (nt * 8 + g) * ld + r) : zero;
#pragma unroll
        for (int mt = 0; mt < MTS; ++mt) {
          const double a[4] = {av[mt][0].x, av[mt][1].x, av[mt][0].y, av[mt][1].y};
#pragma unroll
          for (int nt = 0; nt < NTS; ++nt) {
            const double b[2] = {bv[nt].x, bv[nt].y};
            if (mt < tiles_m && nt < tiles_n) dmma_m16n8k8(acc[mt][nt], a, b);
          }
        }
      }
      barrier_arrive(&empty[stage]);  // this thread is done with the stage
    }
  }
  __syncthreads();  // every tile landed (the consumers waited on each) and was read: the sums may overwrite the stages
  // The warps' 32 x 32 sums through shared memory (C fragment: value i at row g + 8 (i / 2), column 2 q + i % 2), added in warp order;
  // rows kRed = 33 apart, so the sums' reads (consecutive threads: consecutive rows) are free of bank conflicts.
  constexpr int kRed = kMax + 1;
  double* red = ts_stages;
  if (warp < kConsumerWarps) {
#pragma unroll
    for (int mt = 0; mt < MTS; ++mt)
#pragma unroll
      for (int nt = 0; nt < NTS; ++nt)
#pragma unroll
        for (int i = 0; i < 4; ++i) red[warp * kMax * kRed + (mt * 16 + g + 8 * (i / 2)) * kRed + nt * 8 + 2 * q + i % 2] = acc[mt][nt][i];
  }
  __syncthreads();
  for (int o = threadIdx.x; o < k * l; o += kDotThreads) {
    const int a = o % k, b = o / k;
    double sum = 0;
    for (int wp = 0; wp < kConsumerWarps; ++wp) sum += red[wp * kMax * kRed + a * kRed + b];
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
  const auto run = [&](auto kernel, auto stage) {
    using Stage = decltype(stage);
    const long long tiles = (n + Stage::ROWS - 1) / Stage::ROWS;
    const int blocks = static_cast<int>(std::clamp<long long>(tiles, 1, static_cast<long long>(Stage::BLOCKS_PER_SM) * ex.multiprocessors()));
    double* partials = scratch.reserve(ex, static_cast<std::size_t>(blocks) * k * l);
    // Above 48 KiB of dynamic shared memory a kernel must opt in (per device, so on every launch; the call is cheap).
    HSPARSE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(Stage::SHARED)));
    kernel<<<blocks, kDotThreads, Stage::SHARED, stream>>>(n, k, l, v, ldv, w, ldw, partials, scratch.counter.data(), alpha, beta, s, lds);
  };
  const auto with_copies = [&](auto bulk) {
    constexpr bool BULK = decltype(bulk)::value;
    if (tc_stage_columns(k, l) > 32) run(ts_dot_dmma_kernel<64, BULK>, TcStage<64>{});
    else run(ts_dot_dmma_kernel<32, BULK>, TcStage<32>{});
  };
  if (in_16_byte_runs<double>({v, w}, {ldv, ldw})) with_copies(std::true_type{});
  else with_copies(std::false_type{});
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
