// Cache- and register-blocked GEMM on the CPU (kernels/dense_ops.hpp): the
// tiling of Owens' lecture (blocks of A, B and C held in fast memory, q ~ b)
// applied at two levels, as GotoBLAS and BLIS do:
//  - cache: op(B) is packed in kc x nc panels (kept in L3 / shared), op(A)
//    in mc x kc blocks (L2, one per thread), each in the order the micro-
//    kernel reads them;
//  - registers: an MR x NR block of C lives in registers for the whole kc
//    loop, the lecture's register blocking (MAGMA's 4 x 4 per thread) on a
//    CPU core. MR is two vectors, NR is chosen so that the MR x NR
//    accumulators are independent FMA chains enough to cover the FMA
//    latency on every port: AVX2 2 x 6 = 12 of its 16 ymm registers;
//    AVX-512 2 x 8 = 16 of its 32 zmm registers (an Intel core with two
//    512-bit FMA ports and 4-cycle latency needs at least 8 in flight; the
//    2 x 6 block, 6 zmm chains, caps it at 75% of peak: SGEMM ran at 69%
//    of OpenBLAS on a 16-core Xeon).
// The packing zero-fills partial slivers, so edges cost a little padding,
// not a second code path. Threads split the mc blocks of each panel. The
// macro-kernel is compiled for the SIMD level (simd_dispatch.hpp), the
// packing for that level's MR x NR. Complex types take the baseline path.
#include <omp.h>

#include <algorithm>
#include <complex>
#include <vector>

#include "hsparse/core/host_system.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/kernels/dense_ops.hpp"
#include "simd_dispatch.hpp"

namespace hsparse::openmp {

namespace {

// The cache blocks, the same for every instruction set (gemm_blocks).
template <class T>
struct CacheBlocking {
  static constexpr long long KC = 256;
  static constexpr long long MC = std::is_same_v<T, float> ? 192 : 96;  // MC x KC of A in L2 (~200 KB)
  static constexpr long long NC = 3072;                                 // KC x NC of B in L3
};

// The register block: MR rows (two vectors) x NR columns (see the top).
template <class T, int VECTOR_BYTES, int COLUMNS>
struct RegisterBlock {
  static constexpr int MR = 2 * VECTOR_BYTES / static_cast<int>(sizeof(T)), NR = COLUMNS;
  static_assert(CacheBlocking<T>::MC % MR == 0, "whole slivers of A per block");
};
template <class T> using Avx512Block = RegisterBlock<T, 64, 8>;
template <class T> using Avx2Block = RegisterBlock<T, 32, 6>;

// One sliver of a packed operand: W rows (of op(A)) or columns (of op(B))
// by kc depths, stored depth by depth (out[p * W + r]); element (r, p) of
// the sliver is src[r * width_stride + p * depth_stride], and rows past
// `width` are zeros. Either stride is 1 (column-major storage): the loops
// read along it, so every load is contiguous.
template <class T, int W>
void pack_sliver(const T* src, long long width_stride, long long depth_stride, long long width, long long kc, T* out) {
  if (width == W && width_stride == 1) {
    for (long long p = 0; p < kc; ++p) {
#pragma omp simd
      for (int r = 0; r < W; ++r) out[p * W + r] = src[p * depth_stride + r];
    }
    return;
  }
  for (long long r = 0; r < W; ++r) {
    T* o = out + r;
    if (r >= width) {
      for (long long p = 0; p < kc; ++p) o[p * W] = T(0);
    } else {
      const T* in = src + r * width_stride;
      for (long long p = 0; p < kc; ++p) o[p * W] = in[p * depth_stride];
    }
  }
}

// A block (rows i0.. of op(A), depth p0..) into MR-row slivers.
template <class T, class R>
void pack_a(Op t, const ConstDenseView<T>& a, long long i0, long long mc, long long p0, long long kc, T* out) {
  // op(A)(i, p) is a(i, p) (rows contiguous) or a(p, i) (depths contiguous).
  const long long row_stride = t == Op::none ? 1 : a.ld, depth_stride = t == Op::none ? a.ld : 1;
  const T* base = a.data + i0 * row_stride + p0 * depth_stride;
  for (long long s = 0; s < mc; s += R::MR, out += R::MR * kc) {
    pack_sliver<T, R::MR>(base + s * row_stride, row_stride, depth_stride, std::min<long long>(R::MR, mc - s), kc, out);
  }
}

// A panel of op(B) (depth p0.., columns j0..) into NR-column slivers.
template <class T, class R>
void pack_b(Op t, const ConstDenseView<T>& b, long long p0, long long kc, long long j0, long long nc, T* out) {
  // op(B)(p, j) is b(p, j) (depths contiguous) or b(j, p) (columns contiguous).
  const long long column_stride = t == Op::none ? b.ld : 1, depth_stride = t == Op::none ? 1 : b.ld;
  const T* base = b.data + j0 * column_stride + p0 * depth_stride;
  const long long slivers = (nc + R::NR - 1) / R::NR;
#pragma omp parallel for schedule(static)
  for (long long s = 0; s < slivers; ++s) {
    pack_sliver<T, R::NR>(base + s * R::NR * column_stride, column_stride, depth_stride, std::min<long long>(R::NR, nc - s * R::NR), kc,
                          out + s * R::NR * kc);
  }
}

// C(MR x NR block at i, j; `rows` x `cols` of it inside C) = alpha * Ap Bp + beta C.
template <class T, class R>
[[gnu::always_inline]] inline void micro_kernel(long long kc, const T* __restrict__ ap, const T* __restrict__ bp, T alpha, T beta, T* c,
                                                long long ldc, long long rows, long long cols) {
  constexpr int MR = R::MR, NR = R::NR;
  T acc[NR][MR] = {};
  for (long long p = 0; p < kc; ++p) {
    for (int j = 0; j < NR; ++j) {
      const T bv = bp[p * NR + j];
#pragma omp simd
      for (int i = 0; i < MR; ++i) acc[j][i] += ap[p * MR + i] * bv;
    }
  }
  for (long long j = 0; j < cols; ++j) {
    T* cj = c + j * ldc;
    if (beta == T(0)) {
      for (long long i = 0; i < rows; ++i) cj[i] = alpha * acc[j][i];
    } else {
      for (long long i = 0; i < rows; ++i) cj[i] = alpha * acc[j][i] + beta * cj[i];
    }
  }
}

// The products of one packed A block with every sliver of the packed B panel.
template <class T, class R>
[[gnu::always_inline]] inline void macro_kernel(long long mc, long long nc, long long kc, const T* ap, const T* bp, T alpha, T beta,
                                                const DenseView<T>& c, long long i0, long long j0) {
  constexpr int MR = R::MR, NR = R::NR;
  for (long long js = 0; js < nc; js += NR) {
    for (long long is = 0; is < mc; is += MR) {
      micro_kernel<T, R>(kc, ap + is * kc, bp + js * kc, alpha, beta, &c(i0 + is, j0 + js), c.ld, std::min<long long>(MR, mc - is),
                      std::min<long long>(NR, nc - js));
    }
  }
}

// The blocked product with register block R, its macro-kernel compiled
// for the SIMD level `simd` (simd_dispatch.hpp; R is the level's block).
template <class T, class R>
void gemm_blocked(Op ta, Op tb, T alpha, const ConstDenseView<T>& a, const ConstDenseView<T>& b, T beta, const DenseView<T>& c, const GemmShape& s,
                  SimdLevel simd) {
  using B = CacheBlocking<T>;
  // Packing buffers kept per calling thread and reused: allocating (and
  // faulting in) a few hundred KiB per call cost ~1.4 ms on a 2-core VM,
  // more than a whole 300 x 200 x 77 product.
  // (References, not the thread_local names, inside the parallel regions:
  // there a worker thread's name would mean its own, empty, buffers.)
  thread_local std::vector<T> bpack_cache;
  thread_local std::vector<std::vector<T>> apacks_cache;
  std::vector<T>& bpack = bpack_cache;
  std::vector<std::vector<T>>& apacks = apacks_cache;
  bpack.resize(std::max(bpack.size(), static_cast<std::size_t>(B::KC * ((std::min(B::NC, s.n) + R::NR - 1) / R::NR * R::NR))));
  const auto threads = static_cast<std::size_t>(omp_get_max_threads());
  if (apacks.size() < threads) apacks.resize(threads);
  for (auto& ap : apacks) ap.resize(std::max(ap.size(), static_cast<std::size_t>(B::KC * ((B::MC + R::MR - 1) / R::MR * R::MR))));
  for (long long j0 = 0; j0 < s.n; j0 += B::NC) {
    const long long nc = std::min(B::NC, s.n - j0);
    for (long long p0 = 0; p0 < s.k; p0 += B::KC) {
      const long long kc = std::min(B::KC, s.k - p0);
      const T beta_here = p0 == 0 ? beta : T(1);  // later depth blocks accumulate
      pack_b<T, R>(tb, b, p0, kc, j0, nc, bpack.data());
      const long long blocks = (s.m + B::MC - 1) / B::MC;
      // Work items: an A block times a part of the B panel. Row blocks alone
      // left threads idle: n = 2048 float has 11 blocks of MC = 192 rows for
      // 16 threads (SGEMM 62% of OpenBLAS on the GPU host's 16 cores).
      // Each item packs its own A block: MC x KC copies
      // against MC x KC x (NC / parts) x 2 flops, under 1% at parts of
      // 64 columns and more.
      const long long parts = std::clamp<long long>((2 * static_cast<long long>(threads) + blocks - 1) / blocks, 1, std::max<long long>(1, nc / 64));
      const long long part_cols = (nc / parts + R::NR - 1) / R::NR * R::NR;
#pragma omp parallel for schedule(dynamic, 1)
      for (long long item = 0; item < blocks * parts; ++item) {
        const long long ib = item / parts, jp = item % parts;
        const long long i0 = ib * B::MC, mc = std::min(B::MC, s.m - i0);
        const long long js = jp * part_cols, ncp = std::min(part_cols, nc - js);
        if (ncp <= 0) continue;
        T* ap = apacks[static_cast<std::size_t>(omp_get_thread_num())].data();
        pack_a<T, R>(ta, a, i0, mc, p0, kc, ap);
        detail::with_simd_level(simd, [&](auto set) __attribute__((always_inline)) {
          // Only the level's own block is compiled into its copy.
          if constexpr ((set == SimdLevel::avx512) == std::is_same_v<R, Avx512Block<T>>) {
            macro_kernel<T, R>(mc, ncp, kc, ap, bpack.data() + js * kc, alpha, beta_here, c, i0, j0 + js);
          }
        });
      }
    }
  }
}

}  // namespace

template <class T>
void gemm(Op ta, Op tb, T alpha, const ConstDenseView<T>& a, const ConstDenseView<T>& b, T beta, const DenseView<T>& c) {
  const GemmShape s = check_gemm_shapes<T>(ta, tb, a, b, c);
  if (s.m == 0 || s.n == 0) return;
  if (s.k == 0 || alpha == T(0)) {  // C = beta C (beta == 0: zeros, C not read)
#pragma omp parallel for schedule(static)
    for (long long j = 0; j < s.n; ++j) {
      for (long long i = 0; i < s.m; ++i) c(i, j) = beta == T(0) ? T(0) : beta * c(i, j);
    }
    return;
  }
  // The instruction set (simd_level), and with it the register block.
  const SimdLevel simd = is_complex_v<T> ? SimdLevel::baseline : simd_level();
  if (simd == SimdLevel::avx512) gemm_blocked<T, Avx512Block<T>>(ta, tb, alpha, a, b, beta, c, s, simd);
  else gemm_blocked<T, Avx2Block<T>>(ta, tb, alpha, a, b, beta, c, s, simd);
}

template <class T>
GemmBlocks gemm_blocks() {
  return {CacheBlocking<T>::MC, CacheBlocking<T>::NC, CacheBlocking<T>::KC};
}

#define HSPARSE_INSTANTIATE(T) \
  template GemmBlocks gemm_blocks<T>(); \
  template void gemm(Op, Op, T, const ConstDenseView<T>&, const ConstDenseView<T>&, T, const DenseView<T>&);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
