// The FP64 tensor-core GEMM (Owens' lecture, the CUTLASS hierarchy: global
// -> shared -> registers -> tensor cores), C = alpha op(A) op(B) + beta C on
// Hopper's DMMA (PTX mma.m16n8k4 f64: IEEE double products and sums; only
// the order of the additions differs from the SIMT kernels).
//
// Each level moves 16 bytes (two doubles) per instruction:
//  - global -> shared: cp.async of 16-byte units along each operand's
//    storage (one value at a time where a pointer or leading dimension
//    breaks the 16-byte alignment); a STAGES-deep ring, so the next panels
//    land while the tensor cores work on this one.
//  - shared -> registers: one 16-byte load gives a lane two fragment values.
//    An MMA's rows, columns and depth order are ours to choose as long as A,
//    B and C agree, so they are permuted to make a lane's values adjacent in
//    whichever layout the operand has:
//      rows:    MMA row g -> tile row 2g, row g + 8 -> 2g + 1 (a0, a1 of one
//               k: adjacent where A runs along m);
//      columns: MMA column g of tile pair (2t, 2t+1) -> 16t + 2g and
//               16t + 2g + 1 (one B value of each: adjacent where B runs along n);
//      depth:   step s of a 16-deep panel, MMA column q -> depth 4q + s (the
//               four steps' values of a lane adjacent where A or B run along k).
//    The old kernel (8-byte loads, no permutation) issued 12 loads per 16
//    MMAs and measured 55% of cuBLAS at 8192^3 (2026-11-23).
//  - shared tiles are XOR-swizzled in 16-byte units within each 128 bytes
//    (the 32 banks), which keeps both the copies and the fragment loads free
//    of bank conflicts without padding.
// A block computes BM x BN of C with (BM/WM) x (BN/WN) warps, a warp WM x WN
// as (WM/16) x (WN/8) MMA tiles in registers; panels are BK = 16 doubles deep.
#include <climits>

#include "check.cuh"
#include "gemm_common.cuh"
#include "gemm_tensor_core.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda {

namespace {

constexpr int BK = 16;  // depth of a panel: 128 bytes of doubles

// A tile "along" its storage's contiguous dimension, in 16-byte units:
// ROWS rows of UNITS units. Wide tiles run along m (A) or n (B), one row
// per depth (UNITS = BM/2 or BN/2); deep tiles run along the depth, one row
// per i or j (UNITS = BK/2 = 8).
//  - wide: a fragment load reads depth 4q + s, units base + g (g = 0..7):
//    swizzle bits 1-2 by the depth's quarter q, so the 8 lanes of a
//    quarter-warp (g in {2h, 2h+1}, q = 0..3) hit 8 different units mod 8;
//  - deep: a fragment load reads row base + 2g (+ 0 or 1), unit 2q (+ 0 or 1):
//    swizzle bit 0 by bit 1 of the row, which separates rows 2g and 2g + 2.
// The copies write 8 consecutive units of a row per quarter-warp: a
// permutation within 128 bytes, also conflict-free.
template <int UNITS, bool WIDE>
struct Tile {
  static_assert(UNITS % 8 == 0, "a tile row is whole 128-byte groups");
  static constexpr int WIDTH = UNITS;
  static __device__ __forceinline__ int at(int row, int unit) {
    return row * UNITS + (WIDE ? unit ^ (2 * ((row / 4) % 4)) : unit ^ ((row / 2) % 2));
  }
};

// Global -> shared for one operand's BK-deep panel: the tile's rows are
// `outer` (depth for wide tiles, i or j for deep ones), units run along
// `inner`. Element (inner x, outer y) of the panel lives at
// base[x + y * ld] for x < inner_size, y < outer_size; beyond, zeros (the
// edge tiles and the last panel: zero A and B depths add nothing).
template <int ROWS, int UNITS, int THREADS>
struct PanelCopy {
  static_assert(THREADS % UNITS == 0 && ROWS % (THREADS / UNITS) == 0, "whole rows per pass");
  static constexpr int ROWS_PER_PASS = THREADS / UNITS, PASSES = ROWS / ROWS_PER_PASS;
  int unit, row;  // this thread's unit and first row

  __device__ explicit PanelCopy(int t) : unit(t % UNITS), row(t / UNITS) {}

  template <class Layout>
  __device__ __forceinline__ void issue(double2* shared, const double* base, long long ld, long long inner0, long long inner_size, long long outer0,
                                        long long outer_size, bool vec16) const {
    const long long x = inner0 + 2 * unit;
    const long long left = inner_size - x;  // values of this unit inside the operand along inner
#pragma unroll
    for (int pass = 0; pass < PASSES; ++pass) {
      const int r = row + pass * ROWS_PER_PASS;
      const long long y = outer0 + r;
      const bool rows_ok = y < outer_size;
      const double* src = base + x + y * ld;
      double2* dst = shared + Layout::at(r, unit);
      if (vec16) {
        const int bytes = rows_ok && left > 0 ? (left >= 2 ? 16 : 8) : 0;
        detail::copy_async_16(dst, bytes > 0 ? src : base, bytes);
      } else {
        auto* d = reinterpret_cast<double*>(dst);
        detail::copy_async(d, rows_ok && left > 0 ? src : base, rows_ok && left > 0);
        detail::copy_async(d + 1, rows_ok && left > 1 ? src + 1 : base, rows_ok && left > 1);
      }
    }
  }
};

template <int BM, int BN, int WM, int WN, int STAGES, bool TA, bool TB>
struct DmmaConfig {
  static constexpr int WARPS_M = BM / WM, THREADS = WARPS_M * (BN / WN) * 32, MI = WM / 16, NI = WN / 8;
  static_assert(BM % WM == 0 && BN % WN == 0 && WM % 16 == 0 && WN % 16 == 0, "warp tiles of whole MMA tiles, column pairs");
  // op(A) is wide (along m) unless transposed; op(B) is wide (along n) when transposed.
  using ATile = Tile<TA ? BK / 2 : BM / 2, !TA>;
  using BTile = Tile<TB ? BN / 2 : BK / 2, TB>;
  using ACopy = PanelCopy<TA ? BM : BK, ATile::WIDTH, THREADS>;
  using BCopy = PanelCopy<TB ? BK : BN, BTile::WIDTH, THREADS>;
  static constexpr int A_UNITS = BM * BK / 2, B_UNITS = BN * BK / 2;
  static constexpr std::size_t SHARED_BYTES = static_cast<std::size_t>(STAGES) * (A_UNITS + B_UNITS) * 16;
};

template <int BM, int BN, int WM, int WN, int STAGES, bool TA, bool TB>
__global__ void __launch_bounds__(DmmaConfig<BM, BN, WM, WN, STAGES, TA, TB>::THREADS, 1)
    gemm_dmma(long long m, long long n, long long k, double alpha, const double* __restrict__ a, long long lda, const double* __restrict__ b,
              long long ldb, double beta, double* __restrict__ c, long long ldc, bool vec16) {
  using Cfg = DmmaConfig<BM, BN, WM, WN, STAGES, TA, TB>;
  using AT = typename Cfg::ATile;
  using BT = typename Cfg::BTile;
  constexpr int MI = Cfg::MI, NI = Cfg::NI;
  extern __shared__ __align__(16) unsigned char shared_raw[];
  double2* const as = reinterpret_cast<double2*>(shared_raw);
  double2* const bs = as + STAGES * Cfg::A_UNITS;

  const long long tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
  long long bi = 0, bj = 0;
  detail::grouped_tile<8>(blockIdx.x, tiles_m, tiles_n, bi, bj);
  const long long i0 = bi * BM, j0 = bj * BN;
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  const int wm0 = (warp % Cfg::WARPS_M) * WM, wn0 = (warp / Cfg::WARPS_M) * WN, g = lane / 4, q = lane % 4;

  const typename Cfg::ACopy a_copy(t);
  const typename Cfg::BCopy b_copy(t);
  // op(A)(i, p): wide = a[i + p lda] (inner i, outer p), deep = a[p + i lda]; op(B)(p, j) likewise.
  const auto load_stage = [&](int stage, long long p0) {
    double2* sa = as + stage * Cfg::A_UNITS;
    double2* sb = bs + stage * Cfg::B_UNITS;
    if constexpr (TA) a_copy.template issue<AT>(sa, a, lda, p0, k, i0, m, vec16);
    else a_copy.template issue<AT>(sa, a, lda, i0, m, p0, k, vec16);
    if constexpr (TB) b_copy.template issue<BT>(sb, b, ldb, j0, n, p0, k, vec16);
    else b_copy.template issue<BT>(sb, b, ldb, p0, k, j0, n, vec16);
  };

  double acc[MI][NI][4];
#pragma unroll
  for (int mi = 0; mi < MI; ++mi)
#pragma unroll
    for (int ni = 0; ni < NI; ++ni)
#pragma unroll
      for (int r = 0; r < 4; ++r) acc[mi][ni][r] = 0.0;

  const long long ktiles = (k + BK - 1) / BK;
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < ktiles) load_stage(s, static_cast<long long>(s) * BK);
    detail::copy_async_commit();  // empty groups keep the wait count uniform
  }
  for (long long kt = 0; kt < ktiles; ++kt) {
    detail::copy_async_wait<STAGES - 2>();  // panel kt has landed (this thread's copies)
    __syncthreads();                        // ... and everyone's; the panel of kt - 1 is free again
    const long long next = kt + STAGES - 1;
    if (next < ktiles) load_stage(static_cast<int>(next % STAGES), next * BK);
    detail::copy_async_commit();
    const double2* sa = as + (kt % STAGES) * Cfg::A_UNITS;
    const double2* sb = bs + (kt % STAGES) * Cfg::B_UNITS;

    // B fragments of the whole panel: bf[ni][s] = op(B)(4q + s, column of MMA column g in tile ni).
    double bf[NI][4];
#pragma unroll
    for (int ni = 0; ni < NI; ni += 2) {
      const int col = wn0 + 8 * ni + 2 * g;  // tile pair ni / 2 covers columns wn0 + 16 (ni / 2) ...
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        if constexpr (TB) {
          const double2 v = sb[BT::at(4 * q + 2 * h, (wn0 + 8 * ni) / 2 + g)], w = sb[BT::at(4 * q + 2 * h + 1, (wn0 + 8 * ni) / 2 + g)];
          bf[ni][2 * h] = v.x, bf[ni + 1][2 * h] = v.y, bf[ni][2 * h + 1] = w.x, bf[ni + 1][2 * h + 1] = w.y;
        } else {
          const double2 v = sb[BT::at(col, 2 * q + h)], w = sb[BT::at(col + 1, 2 * q + h)];
          bf[ni][2 * h] = v.x, bf[ni][2 * h + 1] = v.y, bf[ni + 1][2 * h] = w.x, bf[ni + 1][2 * h + 1] = w.y;
        }
      }
    }
#pragma unroll
    for (int mi = 0; mi < MI; ++mi) {
      // af[s] = (op(A)(row 2g, 4q + s), op(A)(row 2g + 1, 4q + s)) of MMA tile mi.
      double2 af[4];
      const int row = wm0 + mi * 16 + 2 * g;
      if constexpr (TA) {
        const double2 v0 = sa[AT::at(row, 2 * q)], v1 = sa[AT::at(row, 2 * q + 1)];
        const double2 w0 = sa[AT::at(row + 1, 2 * q)], w1 = sa[AT::at(row + 1, 2 * q + 1)];
        af[0] = {v0.x, w0.x}, af[1] = {v0.y, w0.y}, af[2] = {v1.x, w1.x}, af[3] = {v1.y, w1.y};
      } else {
#pragma unroll
        for (int s = 0; s < 4; ++s) af[s] = sa[AT::at(4 * q + s, row / 2)];
      }
#pragma unroll
      for (int s = 0; s < 4; ++s)
#pragma unroll
        for (int ni = 0; ni < NI; ++ni) detail::dmma_m16n8k4(acc[mi][ni], af[s].x, af[s].y, bf[ni][s]);
    }
  }
  detail::copy_async_wait<0>();

  // acc[mi][ni][r]: MMA row g + 8 (r / 2) -> tile row 2g + r / 2; MMA column
  // 2q + r % 2 of tile ni -> 16 (ni / 2) + 2 (2q + r % 2) + ni % 2.
#pragma unroll
  for (int mi = 0; mi < MI; ++mi)
#pragma unroll
    for (int ni = 0; ni < NI; ++ni)
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const long long i = i0 + wm0 + mi * 16 + 2 * g + r / 2;
        const long long j = j0 + wn0 + 16 * (ni / 2) + 4 * q + 2 * (r % 2) + ni % 2;
        if (i < m && j < n) detail::store_c(c, ldc, i, j, alpha, acc[mi][ni][r], beta);
      }
}

template <int BM, int BN, int WM, int WN, int STAGES, bool TA, bool TB>
void launch_dmma(const Executor& ex, const GemmShape& s, double alpha, const double* a, long long lda, const double* b, long long ldb, double beta,
                 double* c, long long ldc) {
  using Cfg = DmmaConfig<BM, BN, WM, WN, STAGES, TA, TB>;
  const auto kernel = gemm_dmma<BM, BN, WM, WN, STAGES, TA, TB>;
  // Above 48 KiB of dynamic shared memory a kernel must opt in (per device, so on every launch; the call is cheap).
  HSPARSE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(Cfg::SHARED_BYTES)));
  const long long blocks = ((s.m + BM - 1) / BM) * ((s.n + BN - 1) / BN);
  if (blocks > INT_MAX) throw Error(ErrorCode::invalid_argument, "tensor-core GEMM: " + std::to_string(blocks) + " tiles exceed the grid");
  const bool vec16 = detail::in_16_byte_runs<double>({a, b}, {lda, ldb});
  kernel<<<static_cast<unsigned>(blocks), Cfg::THREADS, Cfg::SHARED_BYTES, detail::stream_of(ex)>>>(s.m, s.n, s.k, alpha, a, lda, b, ldb, beta, c,
                                                                                                   ldc, vec16);
}

template <int BM, int BN, int WM, int WN, int STAGES>
void launch_dmma_op(const Executor& ex, const GemmShape& s, bool ta, bool tb, double alpha, const double* a, long long lda, const double* b,
                    long long ldb, double beta, double* c, long long ldc) {
  detail::with_transposes(ta, tb, [&](auto at, auto bt) {
    launch_dmma<BM, BN, WM, WN, STAGES, decltype(at)::value, decltype(bt)::value>(ex, s, alpha, a, lda, b, ldb, beta, c, ldc);
  });
}

}  // namespace

void gemm_dmma(const Executor& ex, const GemmShape& s, Op ta, Op tb, double alpha, const ConstDenseView<double>& a, const ConstDenseView<double>& b,
               double beta, const DenseView<double>& c, const GemmTile& tile) {
  const bool at = ta == Op::transpose, bt = tb == Op::transpose;
  const auto is = [&](int bm, int bn, int wm, int wn) { return tile.bm == bm && tile.bn == bn && tile.tm == wm && tile.tn == wn; };
  if (is(128, 128, 64, 32)) {
    launch_dmma_op<128, 128, 64, 32, 4>(ex, s, at, bt, alpha, a.data, a.ld, b.data, b.ld, beta, c.data, c.ld);
  } else if (is(128, 64, 64, 32)) {
    launch_dmma_op<128, 64, 64, 32, 4>(ex, s, at, bt, alpha, a.data, a.ld, b.data, b.ld, beta, c.data, c.ld);
  } else if (is(64, 64, 32, 32)) {
    launch_dmma_op<64, 64, 32, 32, 4>(ex, s, at, bt, alpha, a.data, a.ld, b.data, b.ld, beta, c.data, c.ld);
  } else {
    throw_tensor_tile_not_compiled(tile);
  }
}

}  // namespace hsparse::cuda
