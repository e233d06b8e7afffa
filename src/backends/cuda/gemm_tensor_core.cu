// The tensor-core GEMM's dispatcher (backends/cuda/dense_ops.hpp) and its
// float kernel: double runs on the FP64 DMMA kernel (gemm_dmma.cu); float,
// opt-in only, on m16n8k8 tf32, whose inputs are rounded to TF32 (10-bit
// mantissa: about 1e-3 relative error per product). Named "tf32" so nobody
// gets it by accident; exact float goes to the SIMT kernels.
// The CUTLASS hierarchy of Owens' lecture on Hopper's warp-level MMA:
// global memory -> shared memory by cp.async in a STAGES-deep ring (the
// next panels land while the tensor cores work on this one); shared memory
// -> registers as MMA fragments; registers -> tensor cores by mma.sync.
// A block computes a BM x BN tile of C with (BM/WM) x (BN/WN) warps, each
// warp a WM x WN tile as (WM/16) x (WN/8) MMA tiles held in registers.
// A panel is BK = 128 bytes deep (16 doubles, 32 floats); each operand's
// tile keeps its global contiguity in shared memory (no transposing copy),
// with rows padded by 32 bytes so that a fragment load (8 groups x 4 lanes)
// hits 32 different banks in either layout.
#include <climits>

#include "check.cuh"
#include "gemm_common.cuh"
#include "gemm_tensor_core.hpp"
#include "hsparse/backends/cuda/dense_ops.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda {

namespace {

// Fragment layout of mma.m16n8k8 tf32 (PTX ISA, "Matrix fragments for mma"), lane = 4 g + q:
//   A (16 x K): value r at row g + 8 (r % 2), column q + 4 (r / 2), K/2 values;
//   B (K x 8):  value r at row q + 4 r, column g, K/4 values;
//   C (16 x 8): value r at row g + 8 (r / 2), column 2 q + r % 2.
template <class D, int K>
struct Mma;

__device__ __forceinline__ unsigned to_tf32(float x) {
  unsigned r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
  return r;
}

template <>
struct Mma<float, 8> {
  static __device__ __forceinline__ void run(float (&c)[4], const float (&a)[4], const float (&b)[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(to_tf32(a[0])), "r"(to_tf32(a[1])), "r"(to_tf32(a[2])), "r"(to_tf32(a[3])), "r"(to_tf32(b[0])), "r"(to_tf32(b[1])));
  }
};

// Shared-memory shape of one stage: op(A) is BM x BK, op(B) BK x BN, each
// stored along its global contiguity (A: rows i fastest unless transposed).
template <class D, int BM, int BN, bool TA, bool TB>
struct StageLayout {
  static constexpr int BK = 128 / static_cast<int>(sizeof(D)), PAD = 32 / static_cast<int>(sizeof(D));
  static constexpr int A_LD = TA ? BK + PAD : BM + PAD, B_LD = TB ? BN + PAD : BK + PAD;
  static constexpr int A_ELEMS = TA ? BM * A_LD : BK * A_LD, B_ELEMS = TB ? BK * B_LD : BN * B_LD;
  static __device__ __forceinline__ int a_at(int i, int p) { return TA ? i * A_LD + p : p * A_LD + i; }
  static __device__ __forceinline__ int b_at(int p, int j) { return TB ? p * B_LD + j : j * B_LD + p; }
};

template <class D, int BM, int BN, int WM, int WN, int MK, int STAGES, bool TA, bool TB>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
    gemm_mma(long long m, long long n, long long k, D alpha, const D* __restrict__ a, long long lda, const D* __restrict__ b, long long ldb, D beta,
             D* __restrict__ c, long long ldc) {
  using L = StageLayout<D, BM, BN, TA, TB>;
  constexpr int BK = L::BK, WARPS_M = BM / WM, THREADS = WARPS_M * (BN / WN) * 32, MI = WM / 16, NI = WN / 8;
  extern __shared__ __align__(16) unsigned char shared_raw[];
  D* const as = reinterpret_cast<D*>(shared_raw);
  D* const bs = as + STAGES * L::A_ELEMS;

  const long long tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
  long long bi = 0, bj = 0;
  detail::grouped_tile<8>(blockIdx.x, tiles_m, tiles_n, bi, bj);
  const long long i0 = bi * BM, j0 = bj * BN;
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  const int wm0 = (warp % WARPS_M) * WM, wn0 = (warp / WARPS_M) * WN, g = lane / 4, q = lane % 4;

  // Consecutive threads take consecutive addresses of the operand's storage.
  const auto load_stage = [&](int stage, long long p0) {
    D* sa = as + stage * L::A_ELEMS;
    D* sb = bs + stage * L::B_ELEMS;
#pragma unroll
    for (int e = t; e < BM * BK; e += THREADS) {
      const int ii = TA ? e / BK : e % BM, pp = TA ? e % BK : e / BM;
      const long long gi = i0 + ii, gp = p0 + pp;
      const bool ok = gi < m && gp < k;
      detail::copy_async(sa + L::a_at(ii, pp), ok ? detail::address_a(a, lda, TA, gi, gp) : a, ok);
    }
#pragma unroll
    for (int e = t; e < BN * BK; e += THREADS) {
      const int jj = TB ? e % BN : e / BK, pp = TB ? e / BN : e % BK;
      const long long gj = j0 + jj, gp = p0 + pp;
      const bool ok = gj < n && gp < k;
      detail::copy_async(sb + L::b_at(pp, jj), ok ? detail::address_b(b, ldb, TB, gp, gj) : b, ok);
    }
  };

  D acc[MI][NI][4];
#pragma unroll
  for (int mi = 0; mi < MI; ++mi)
#pragma unroll
    for (int ni = 0; ni < NI; ++ni)
#pragma unroll
      for (int r = 0; r < 4; ++r) acc[mi][ni][r] = D(0);

  const long long ktiles = (k + BK - 1) / BK;
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < ktiles) load_stage(s, static_cast<long long>(s) * BK);
    detail::copy_async_commit();  // empty groups keep the wait count uniform
  }
  for (long long kt = 0; kt < ktiles; ++kt) {
    detail::copy_async_wait<STAGES - 2>();  // stage kt has landed (this thread's copies)
    __syncthreads();                        // ... and everyone's; stage kt - 1 is free again
    const long long next = kt + STAGES - 1;
    if (next < ktiles) load_stage(static_cast<int>(next % STAGES), next * BK);
    detail::copy_async_commit();
    const D* sa = as + (kt % STAGES) * L::A_ELEMS;
    const D* sb = bs + (kt % STAGES) * L::B_ELEMS;
#pragma unroll
    for (int kk = 0; kk < BK; kk += MK) {
      D bf[NI][MK / 4];
#pragma unroll
      for (int ni = 0; ni < NI; ++ni)
#pragma unroll
        for (int r = 0; r < MK / 4; ++r) bf[ni][r] = sb[L::b_at(kk + q + 4 * r, wn0 + ni * 8 + g)];
#pragma unroll
      for (int mi = 0; mi < MI; ++mi) {
        D af[MK / 2];
#pragma unroll
        for (int r = 0; r < MK / 2; ++r) af[r] = sa[L::a_at(wm0 + mi * 16 + g + 8 * (r % 2), kk + q + 4 * (r / 2))];
#pragma unroll
        for (int ni = 0; ni < NI; ++ni) Mma<D, MK>::run(acc[mi][ni], af, bf[ni]);
      }
    }
  }
  detail::copy_async_wait<0>();

#pragma unroll
  for (int mi = 0; mi < MI; ++mi)
#pragma unroll
    for (int ni = 0; ni < NI; ++ni)
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const long long i = i0 + wm0 + mi * 16 + g + 8 * (r / 2), j = j0 + wn0 + ni * 8 + 2 * q + r % 2;
        if (i < m && j < n) detail::store_c(c, ldc, i, j, alpha, acc[mi][ni][r], beta);
      }
}

template <class D, int BM, int BN, int WM, int WN, int MK, int STAGES, bool TA, bool TB>
void launch_mma(const Executor& ex, const GemmShape& s, D alpha, const D* a, long long lda, const D* b, long long ldb, D beta, D* c,
                long long ldc) {
  using L = StageLayout<D, BM, BN, TA, TB>;
  constexpr std::size_t bytes = static_cast<std::size_t>(STAGES) * (L::A_ELEMS + L::B_ELEMS) * sizeof(D);
  const auto kernel = gemm_mma<D, BM, BN, WM, WN, MK, STAGES, TA, TB>;
  detail::launch_c_tiles<BM, BN>("tensor-core GEMM", ex, s, kernel, (BM / WM) * (BN / WN) * 32, bytes, s.m, s.n, s.k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <class D, int BM, int BN, int WM, int WN, int MK, int STAGES>
void launch_mma_op(const Executor& ex, const GemmShape& s, bool ta, bool tb, D alpha, const D* a, long long lda, const D* b, long long ldb, D beta,
                   D* c, long long ldc) {
  detail::with_transposes(ta, tb, [&](auto at, auto bt) {
    launch_mma<D, BM, BN, WM, WN, MK, STAGES, decltype(at)::value, decltype(bt)::value>(ex, s, alpha, a, lda, b, ldb, beta, c, ldc);
  });
}

}  // namespace

[[noreturn]] void throw_tensor_tile_not_compiled(const GemmTile& tile) {
  std::string names;
  for (const auto& t : gemm_tensor_tiles()) names += " " + t.name();
  throw Error(ErrorCode::invalid_argument, "tensor-core GEMM tile " + tile.name() + " is not compiled; compiled:" + names);
}

template <class T>
void gemm_tensor_core(const Executor& ex, const GemmShape& s, Op ta, Op tb, T alpha, const ConstDenseView<T>& a, const ConstDenseView<T>& b, T beta,
                      const DenseView<T>& c, const GemmTile& tile) {
  if constexpr (std::is_same_v<T, double>) {
    gemm_dmma(ex, s, ta, tb, alpha, a, b, beta, c, tile);
  } else if constexpr (std::is_same_v<T, float>) {
    const bool at = ta == Op::transpose, bt = tb == Op::transpose;
    const auto is = [&](int bm, int bn, int wm, int wn) { return tile.bm == bm && tile.bn == bn && tile.tm == wm && tile.tn == wn; };
    if (is(128, 128, 64, 32)) launch_mma_op<float, 128, 128, 64, 32, 8, 4>(ex, s, at, bt, alpha, a.data, a.ld, b.data, b.ld, beta, c.data, c.ld);
    else if (is(128, 64, 64, 32)) launch_mma_op<float, 128, 64, 64, 32, 8, 4>(ex, s, at, bt, alpha, a.data, a.ld, b.data, b.ld, beta, c.data, c.ld);
    else if (is(64, 64, 32, 32)) launch_mma_op<float, 64, 64, 32, 32, 8, 4>(ex, s, at, bt, alpha, a.data, a.ld, b.data, b.ld, beta, c.data, c.ld);
    else throw_tensor_tile_not_compiled(tile);
  } else {
    throw Error(ErrorCode::unsupported, "the tensor-core GEMM is double (DMMA) and float (TF32) only");
  }
}

#define HSPARSE_INSTANTIATE(T)                                                                                                                 \
  template void gemm_tensor_core(const Executor&, const GemmShape&, Op, Op, T, const ConstDenseView<T>&, const ConstDenseView<T>&, T, \
                                 const DenseView<T>&, const GemmTile&);
HSPARSE_INSTANTIATE(float)
HSPARSE_INSTANTIATE(double)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
