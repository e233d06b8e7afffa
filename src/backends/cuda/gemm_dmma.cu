// The FP64 tensor-core GEMM (Owens' lecture, the CUTLASS hierarchy: global
// -> shared -> registers -> tensor cores), C = alpha op(A) op(B) + beta C on
// Hopper's DMMA (PTX mma.m16n8k8 f64, the shape cuBLAS's DGEMM runs there:
// IEEE double products and sums; only the order of the additions differs
// from the SIMT kernels).
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
//      depth:   a 16-deep panel is four k4 steps s (two m16n8k8, steps s and
//               s + 1 their depths q and q + 4); step s, MMA column q ->
//               depth 4q + s (the four steps' values of a lane adjacent
//               where A or B run along k).
//  - the interior blocks copy whole panels without bound checks.
// Measured on the H200 at 8192^3 NN (cuBLAS 58.4-61.3 TFLOP/s
// in the same runs): the old kernel (8-byte copies and loads, m16n8k4) 33;
// 16-byte copies and loads 42.9; m16n8k8 45.8; unchecked interior copies
// (they had been 2/3 of the main loop's instructions, ncu) 50.7 with
// 128 x 128 tiles and 55.0 with 128 x 64 (cuBLAS's tile: 4 warps of 64 x 32,
// two blocks per SM).
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

// Global -> shared for one operand's BK-deep panels: the tile's rows run
// along `outer` (the depth for wide tiles, i or j for deep ones), its units
// along `inner`. Element (inner x, outer y) lives at base[x + y ld] for
// x < inner_size, y < outer_size; beyond, zeros (edge tiles and the last
// panel: zero depths add nothing). A thread copies one unit in each of
// PASSES rows; its pointer and what is left along each dimension are set
// once and moved by the depth per panel.
template <int ROWS, int UNITS, int THREADS, bool WIDE>
struct PanelCopy {
  static_assert(THREADS % UNITS == 0 && ROWS % (THREADS / UNITS) == 0, "whole rows per pass");
  static constexpr int ROWS_PER_PASS = THREADS / UNITS, PASSES = ROWS / ROWS_PER_PASS;
  using Layout = Tile<UNITS, WIDE>;
  const double* src;     // this thread's unit in its first row, at depth 0
  long long pass_step;   // ld ROWS_PER_PASS: to the next pass's row
  long long inner_left;  // values of the unit inside the operand along inner, at depth 0
  long long outer_left;  // rows inside the operand from this thread's first row, at depth 0
  int row, unit;

  // inner0 / outer0: the block's first index along each (the depth's is 0).
  __device__ PanelCopy(int t, const double* base, long long ld, long long inner0, long long inner_size, long long outer0, long long outer_size)
      : pass_step(ld * ROWS_PER_PASS), row(t / UNITS), unit(t % UNITS) {
    src = base + (inner0 + 2 * unit) + (outer0 + row) * ld;
    inner_left = inner_size - inner0 - 2 * unit;
    outer_left = outer_size - outer0 - row;
  }

  // The panel at depth p0 into one stage's tile. `whole`: the block's panel
  // lies inside the operand (the interior blocks' every panel but the
  // last), so no unit needs a bound check: measured (ncu, 4096^3), the
  // checked copies were most of the main loop's instructions. VEC16: the
  // operand moves in 16-byte units (in_16_byte_runs), else one value at a time.
  template <bool VEC16>
  __device__ __forceinline__ void issue(double2* tile, long long p0, long long ld, bool whole, const double* any) const {
    const double* s = src + (WIDE ? p0 * ld : p0);
    if (whole) {
#pragma unroll
      for (int pass = 0; pass < PASSES; ++pass, s += pass_step) copy(tile + Layout::at(row + pass * ROWS_PER_PASS, unit), s, 2, s, VEC16);
      return;
    }
    const long long in_left = WIDE ? inner_left : inner_left - p0, out_left = WIDE ? outer_left - p0 : outer_left;
    const int values = in_left >= 2 ? 2 : (in_left == 1 ? 1 : 0);
#pragma unroll
    for (int pass = 0; pass < PASSES; ++pass, s += pass_step) {
      copy(tile + Layout::at(row + pass * ROWS_PER_PASS, unit), s, pass * ROWS_PER_PASS < out_left ? values : 0, any, VEC16);
    }
  }

 private:
  // `values` (0, 1, 2) of the unit at s, zeros after them; `any` is a valid address that is not read.
  static __device__ __forceinline__ void copy(double2* d, const double* s, int values, const double* any, bool vec16) {
    if (vec16) {
      detail::copy_async_16(d, values > 0 ? s : any, 8 * values);
    } else {
      auto* e = reinterpret_cast<double*>(d);
      detail::copy_async(e, values > 0 ? s : any, values > 0);
      detail::copy_async(e + 1, values > 1 ? s + 1 : any, values > 1);
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
  using ACopy = PanelCopy<TA ? BM : BK, ATile::WIDTH, THREADS, !TA>;
  using BCopy = PanelCopy<TB ? BK : BN, BTile::WIDTH, THREADS, TB>;
  static constexpr int A_UNITS = BM * BK / 2, B_UNITS = BN * BK / 2;
  static constexpr std::size_t SHARED_BYTES = static_cast<std::size_t>(STAGES) * (A_UNITS + B_UNITS) * 16;
};

template <int BM, int BN, int WM, int WN, int STAGES, bool TA, bool TB, bool VEC16>
__global__ void __launch_bounds__(DmmaConfig<BM, BN, WM, WN, STAGES, TA, TB>::THREADS, 1)
    gemm_dmma(long long m, long long n, long long k, double alpha, const double* __restrict__ a, long long lda, const double* __restrict__ b,
              long long ldb, double beta, double* __restrict__ c, long long ldc) {
  using Cfg = DmmaConfig<BM, BN, WM, WN, STAGES, TA, TB>;
  constexpr int MI = Cfg::MI, NI = Cfg::NI, A_ROW = Cfg::ATile::WIDTH, B_ROW = Cfg::BTile::WIDTH;
  extern __shared__ __align__(16) unsigned char shared_raw[];
  double2* const as = reinterpret_cast<double2*>(shared_raw);
  double2* const bs = as + STAGES * Cfg::A_UNITS;

  const long long tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
  long long bi = 0, bj = 0;
  detail::grouped_tile<8>(blockIdx.x, tiles_m, tiles_n, bi, bj);
  const long long i0 = bi * BM, j0 = bj * BN;
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  const int wm0 = (warp % Cfg::WARPS_M) * WM, wn0 = (warp / Cfg::WARPS_M) * WN, g = lane / 4, q = lane % 4;

  // op(A)(i, p): wide = a[i + p lda] (inner i, outer p), deep = a[p + i lda]; op(B)(p, j) likewise.
  const typename Cfg::ACopy a_copy = TA ? typename Cfg::ACopy(t, a, lda, 0, k, i0, m) : typename Cfg::ACopy(t, a, lda, i0, m, 0, k);
  const typename Cfg::BCopy b_copy = TB ? typename Cfg::BCopy(t, b, ldb, j0, n, 0, k) : typename Cfg::BCopy(t, b, ldb, 0, k, j0, n);
  const bool a_inside = i0 + BM <= m, b_inside = j0 + BN <= n;
  const auto load_stage = [&](int stage, long long p0) {
    const bool depth_inside = p0 + BK <= k;
    a_copy.template issue<VEC16>(as + stage * Cfg::A_UNITS, p0, lda, a_inside && depth_inside, a);
    b_copy.template issue<VEC16>(bs + stage * Cfg::B_UNITS, p0, ldb, b_inside && depth_inside, b);
  };

  // This lane's fragment units in a stage's tiles, the swizzle (Tile::at) of
  // its rows worked out once: what varies per load (mi, ni, the step) is
  // then a constant offset that leaves the swizzled bits alone.
  //  - wide A: depth 4q + s, units wm0 / 2 + 8 mi + g: swizzle 2q on g;
  //  - deep A: rows wm0 + 16 mi + 2g + e, units 2q + h: swizzle g % 2 on h;
  //  - deep B: rows (columns) wn0 + 16 pair + 2g + e, the same;
  //  - wide B: depth 4q + s, units wn0 / 2 + 8 pair + g: swizzle 2q on g.
  const int a_frag = TA ? (wm0 + 2 * g) * A_ROW + 2 * q : 4 * q * A_ROW + wm0 / 2 + (g ^ (2 * q));
  const int b_frag = TB ? 4 * q * B_ROW + wn0 / 2 + (g ^ (2 * q)) : (wn0 + 2 * g) * B_ROW + 2 * q;
  const int h_swap = g % 2;  // deep tiles: unit 2q + h sits at 2q + (h ^ h_swap)

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
    const double2* sa = as + (kt % STAGES) * Cfg::A_UNITS + a_frag;
    const double2* sb = bs + (kt % STAGES) * Cfg::B_UNITS + b_frag;

    // B fragments of the whole panel: bf[ni][s] = op(B)(4q + s, column of MMA column g in tile ni).
    double bf[NI][4];
#pragma unroll
    for (int ni = 0; ni < NI; ni += 2) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        if constexpr (TB) {  // depth 4q + 2h (+1), units of the pair: tile ni's column in x, tile ni + 1's in y
          const double2 v = sb[(2 * h) * B_ROW + 4 * ni], w = sb[(2 * h + 1) * B_ROW + 4 * ni];
          bf[ni][2 * h] = v.x, bf[ni + 1][2 * h] = v.y, bf[ni][2 * h + 1] = w.x, bf[ni + 1][2 * h + 1] = w.y;
        } else {  // columns 16 (ni / 2) + 2g and + 1, depth 4q + 2h and + 1
          const int u = h ^ h_swap;
          const double2 v = sb[8 * ni * B_ROW + u], w = sb[(8 * ni + 1) * B_ROW + u];
          bf[ni][2 * h] = v.x, bf[ni][2 * h + 1] = v.y, bf[ni + 1][2 * h] = w.x, bf[ni + 1][2 * h + 1] = w.y;
        }
      }
    }
#pragma unroll
    for (int mi = 0; mi < MI; ++mi) {
      // af[s] = (op(A)(row 2g, 4q + s), op(A)(row 2g + 1, 4q + s)) of MMA tile mi.
      double2 af[4];
      if constexpr (TA) {
        const double2* r0 = sa + 16 * mi * A_ROW;
        const double2 v0 = r0[h_swap], v1 = r0[1 ^ h_swap], w0 = r0[A_ROW + h_swap], w1 = r0[A_ROW + (1 ^ h_swap)];
        af[0] = {v0.x, w0.x}, af[1] = {v0.y, w0.y}, af[2] = {v1.x, w1.x}, af[3] = {v1.y, w1.y};
      } else {
#pragma unroll
        for (int s = 0; s < 4; ++s) af[s] = sa[s * A_ROW + 8 * mi];
      }
      // m16n8k8: MMA depths q and q + 4 are steps s0 and s0 + 1.
#pragma unroll
      for (int s0 = 0; s0 < 4; s0 += 2) {
        const double av[4] = {af[s0].x, af[s0].y, af[s0 + 1].x, af[s0 + 1].y};
#pragma unroll
        for (int ni = 0; ni < NI; ++ni) {
          const double bv[2] = {bf[ni][s0], bf[ni][s0 + 1]};
          detail::dmma_m16n8k8(acc[mi][ni], av, bv);
        }
      }
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
  const bool vec16 = detail::in_16_byte_runs<double>({a, b}, {lda, ldb});
  const auto kernel = vec16 ? gemm_dmma<BM, BN, WM, WN, STAGES, TA, TB, true> : gemm_dmma<BM, BN, WM, WN, STAGES, TA, TB, false>;
  detail::launch_c_tiles<BM, BN>("tensor-core GEMM", ex, s, kernel, Cfg::THREADS, Cfg::SHARED_BYTES, s.m, s.n, s.k, alpha, a, lda, b, ldb, beta, c, ldc);
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
