// Tall-skinny products on the CPU (kernels/dense_ops.hpp). Rows are cut
// into blocks of kRows, small enough that a block of every column of V and
// W stays in L1/L2 while all k x l products are formed from it, so V and W
// stream from memory once. Inside a block the products are register-blocked,
// the lecture's tiling one level down (as the GEMM's micro-kernel):
//  - V^T W: a tile of up to 4 x 4 dot products (AVX-512; 3 x 3 on AVX2)
//    is summed together over the block's rows, a vector of rows at a time:
//    8 loads feed 16 vector FMAs (one dot at a time: 2 loads per FMA, and a
//    block of 16 or more columns no longer fits L1: k = l = 16 at n = 2e6
//    took 3.6x OpenBLAS's time on a 2-core Zen 4);
//  - V S: 2 vectors of rows of 4 columns of Y stay in registers while
//    every column of V is added in (2 loads per 8 vector FMAs, Y read and
//    written once per block).
// The kernels are compiled for AVX-512, AVX2+FMA and the baseline and chosen
// by simd_level, as the GEMM's. V^T W: each thread sums its own
// contiguous range of blocks (static schedule), the thread partials are
// added in thread order: the result does not depend on timing. Sums in
// double (complex<double>).
// block_dots is also the multiple dot product (mdot, vector_ops.cpp): W one column.
#include <omp.h>

#include <algorithm>
#include <complex>
#include <cstring>
#include <vector>

#include "hsparse/core/host_system.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/kernels/dense_ops.hpp"
#include "simd_dispatch.hpp"
#include "simd_vector.hpp"
#include "tall_skinny.hpp"

namespace hsparse::openmp {

namespace {
using detail::Vec;
using detail::load_vec;
using detail::store_vec;
constexpr long long kRows = 512;

// N values from p (any alignment) as a vector of N doubles.
template <int N, class T>
[[gnu::always_inline]] inline Vec<double, 8 * N> load_doubles(const T* p) {
  if constexpr (std::is_same_v<T, double>) return load_vec<double, 8 * N>(p);
  else return __builtin_convertvector((load_vec<float, 4 * N>(p)), Vec<double, 8 * N>);
}

// acc[a + b k] += sum over rows [i0, i1) of v[a][i] w[b][i] for the TA x TB
// columns of one tile, in double: a vector of N partial sums per product
// (TA x TB vectors in registers; TA + TB loads feed TA x TB FMAs per step),
// added in lane order, then the tail rows.
template <int N, int TA, int TB, class T>
[[gnu::always_inline]] inline void tile_dots(const T* const* v, const T* const* w, long long i0, long long i1, double* acc, long long k) {
  using D = Vec<double, 8 * N>;
  D s[TA][TB] = {};
  const T* va[TA];
  const T* wb[TB];
  for (int a = 0; a < TA; ++a) va[a] = v[a];
  for (int b = 0; b < TB; ++b) wb[b] = w[b];
  long long i = i0;
  for (; i + N <= i1; i += N) {
    D x[TA], y[TB];
    for (int a = 0; a < TA; ++a) x[a] = load_doubles<N>(va[a] + i);
    for (int b = 0; b < TB; ++b) y[b] = load_doubles<N>(wb[b] + i);
    for (int a = 0; a < TA; ++a)
      for (int b = 0; b < TB; ++b) s[a][b] += x[a] * y[b];
  }
  for (int a = 0; a < TA; ++a) {
    for (int b = 0; b < TB; ++b) {
      double sum = 0;
      for (int u = 0; u < N; ++u) sum += s[a][b][u];
      for (long long r = i; r < i1; ++r) sum += static_cast<double>(va[a][r]) * static_cast<double>(wb[b][r]);
      acc[a + b * k] += sum;
    }
  }
}

// A TA x tb tile (tb from 1 to TILE), a direct call so that it is inlined into
// the instruction set's copy of block_tiles (a pointer would call a copy
// compiled for the baseline).
template <int N, int TILE, int TA, class T>
[[gnu::always_inline]] inline void tile_dots_by(int tb, const T* const* v, const T* const* w, long long i0, long long i1, double* acc, long long k) {
  if (tb == 1) return tile_dots<N, TA, 1, T>(v, w, i0, i1, acc, k);
  if (tb == 2) return tile_dots<N, TA, 2, T>(v, w, i0, i1, acc, k);
  if constexpr (TILE == 4) {
    if (tb == 3) return tile_dots<N, TA, 3, T>(v, w, i0, i1, acc, k);
  }
  return tile_dots<N, TA, TILE, T>(v, w, i0, i1, acc, k);
}

// Every tile of one row block: TILE x TILE tiles, and fewer columns on a
// side at the edges. N and TILE per instruction set keep the TILE^2 sums and
// the TILE loaded vectors of one side in registers: AVX-512 8 doubles and
// 4 x 4 (16 + 4 of 32 zmm), AVX2 4 and 3 x 3 (9 + 3 of 16 ymm), baseline 2
// and 3 x 3.
template <int N, int TILE, class T>
[[gnu::always_inline]] inline void block_tiles(const T* const* v, long long k, const T* const* w, long long l, long long i0, long long i1, double* acc) {
  static_assert(TILE == 3 || TILE == 4, "tiles of 3 or 4 columns on a side");
  for (long long b = 0; b < l; b += TILE) {
    const int tb = static_cast<int>(std::min<long long>(TILE, l - b));
    for (long long a = 0; a < k; a += TILE) {
      const T* const* va = v + a;
      const T* const* wb = w + b;
      double* out = acc + a + b * k;
      const long long ta = std::min<long long>(TILE, k - a);
      if (ta == 1) tile_dots_by<N, TILE, 1, T>(tb, va, wb, i0, i1, out, k);
      else if (ta == 2) tile_dots_by<N, TILE, 2, T>(tb, va, wb, i0, i1, out, k);
      else if (TILE == 4 && ta == 3) tile_dots_by<N, TILE, 3, T>(tb, va, wb, i0, i1, out, k);
      else tile_dots_by<N, TILE, TILE, T>(tb, va, wb, i0, i1, out, k);
    }
  }
}


// Y's columns b .. b + TB - 1 over rows [i0, i1): y = V coef + beta y with
// coef = alpha S (k x l, column-major, formed once per call). Real types:
// two vectors of rows of the TB columns of Y stay in registers while every
// column of V is added in: 2 TB independent FMA chains, 2 loads per 2 TB
// FMAs. The rows after the last whole pair of vectors, and complex types,
// one row at a time.
template <int BYTES, int TB, class T>
[[gnu::always_inline]] inline void update_columns(const ConstDenseView<T>& v, const T* coef, T beta, const DenseView<T>& y, long long b, long long i0,
                                                  long long i1) {
  const long long k = v.cols;
  T* yc[TB];
  for (int c = 0; c < TB; ++c) yc[c] = &y(0, b + c);
  const T* cb = coef + b * k;  // coef's column b + c starts at cb + c k
  long long i = i0;
  if constexpr (!is_complex_v<T>) {
    constexpr int L = BYTES / static_cast<int>(sizeof(T));
    using V = Vec<T, BYTES>;
    for (; i + 2 * L <= i1; i += 2 * L) {
      V acc[TB][2];
      for (int c = 0; c < TB; ++c) {
        for (int h = 0; h < 2; ++h) acc[c][h] = beta == T(0) ? V{} : beta * load_vec<T, BYTES>(yc[c] + i + h * L);  // beta = 0: y is not read
      }
      for (long long a = 0; a < k; ++a) {
        const T* va = v.data + i + a * v.ld;
        const V x0 = load_vec<T, BYTES>(va), x1 = load_vec<T, BYTES>(va + L);
        for (int c = 0; c < TB; ++c) {
          const T f = cb[a + c * k];
          acc[c][0] += f * x0;
          acc[c][1] += f * x1;
        }
      }
      for (int c = 0; c < TB; ++c) {
        store_vec<T, BYTES>(yc[c] + i, acc[c][0]);
        store_vec<T, BYTES>(yc[c] + i + L, acc[c][1]);
      }
    }
  }
  for (; i < i1; ++i) {
    for (int c = 0; c < TB; ++c) {
      T sum = beta == T(0) ? T(0) : beta * yc[c][i];
      for (long long a = 0; a < k; ++a) sum += cb[a + c * k] * v(i, a);
      yc[c][i] = sum;
    }
  }
}

template <int BYTES, class T>
[[gnu::always_inline]] inline void update_block(const ConstDenseView<T>& v, const T* coef, T beta, const DenseView<T>& y, long long i0, long long i1) {
  const long long l = y.cols;
  long long b = 0;
  constexpr int kColumns = 4;  // of Y per register tile
  for (; b + kColumns <= l; b += kColumns) update_columns<BYTES, kColumns, T>(v, coef, beta, y, b, i0, i1);
  switch (l - b) {
    case 3: update_columns<BYTES, 3, T>(v, coef, beta, y, b, i0, i1); break;
    case 2: update_columns<BYTES, 2, T>(v, coef, beta, y, b, i0, i1); break;
    case 1: update_columns<BYTES, 1, T>(v, coef, beta, y, b, i0, i1); break;
    default: break;
  }
}


}  // namespace

template <class T, class Acc>
void block_dots(const T* const* v, long long k, const T* const* w, long long l, long long n, Acc* out) {
  if (k == 0 || l == 0) return;
  const int threads = omp_get_max_threads();
  std::vector<Acc> partial(static_cast<std::size_t>(threads * k * l), Acc(0));
  const long long blocks = (n + kRows - 1) / kRows;
  const SimdLevel simd = simd_level();
#pragma omp parallel num_threads(threads)
  {
    Acc* acc = partial.data() + static_cast<long long>(omp_get_thread_num()) * k * l;
#pragma omp for schedule(static)
    for (long long blk = 0; blk < blocks; ++blk) {
      const long long i0 = blk * kRows, i1 = std::min(n, i0 + kRows);
      if constexpr (is_complex_v<T>) {
        for (long long b = 0; b < l; ++b) {
          for (long long a = 0; a < k; ++a) {
            Acc sum = 0;
            for (long long i = i0; i < i1; ++i) sum += static_cast<Acc>(v[a][i]) * static_cast<Acc>(w[b][i]);
            acc[a + b * k] += sum;
          }
        }
      } else {
        // The lanes and the tile per instruction set (block_tiles).
        detail::with_simd_level(simd, [&](auto set) __attribute__((always_inline)) {
          if constexpr (set == SimdLevel::avx512) block_tiles<8, 4, T>(v, k, w, l, i0, i1, acc);
          else if constexpr (set == SimdLevel::avx2) block_tiles<4, 3, T>(v, k, w, l, i0, i1, acc);
          else block_tiles<2, 3, T>(v, k, w, l, i0, i1, acc);
        });
      }
    }
  }
  for (long long o = 0; o < k * l; ++o) {
    Acc sum = 0;
    for (int t = 0; t < threads; ++t) sum += partial[static_cast<std::size_t>(t * k * l + o)];
    out[o] = sum;
  }
}

template <class T>
void tall_skinny_dot(T alpha, const ConstDenseView<T>& v, const ConstDenseView<T>& w, T beta, const DenseView<T>& s) {
  const GemmShape sh = check_gemm_shapes<T>(Op::transpose, Op::none, v, w, s);  // m = k columns of V, n = l columns of W, k = rows
  using Acc = std::conditional_t<is_complex_v<T>, std::complex<double>, double>;
  const long long k = sh.m, l = sh.n;
  std::vector<const T*> vc, wc;
  for (long long a = 0; a < k; ++a) vc.push_back(&v(0, a));
  for (long long b = 0; b < l; ++b) wc.push_back(&w(0, b));
  std::vector<Acc> sums(static_cast<std::size_t>(k * l));
  block_dots<T, Acc>(vc.data(), k, wc.data(), l, sh.k, sums.data());
  for (long long b = 0; b < l; ++b) {
    for (long long a = 0; a < k; ++a) {
      const T r = alpha * static_cast<T>(sums[static_cast<std::size_t>(a + b * k)]);
      s(a, b) = beta == T(0) ? r : r + beta * s(a, b);
    }
  }
}

template <class T>
void tall_skinny_update(T alpha, const ConstDenseView<T>& v, const ConstDenseView<T>& s, T beta, const DenseView<T>& y) {
  const GemmShape sh = check_gemm_shapes<T>(Op::none, Op::none, v, s, y);  // m = rows, n = l, k = columns of V
  const long long n = sh.m, l = sh.n, k = sh.k;
  std::vector<T> coef(static_cast<std::size_t>(k * l));  // alpha S, contiguous
  for (long long b = 0; b < l; ++b)
    for (long long a = 0; a < k; ++a) coef[static_cast<std::size_t>(a + b * k)] = alpha * s(a, b);
  // Row blocks whose k columns of V fit L1 (32 KiB): each group of Y's
  // columns re-reads them (k = 32 at 512 rows, 128 KiB from L2: 2.3x the
  // time of 128 rows with the AVX2 kernel on a Zen 4).
  const long long rows = std::clamp<long long>((32768 / (static_cast<long long>(sizeof(T)) * std::max(1LL, k))) / 64 * 64, 64, kRows);
  const long long blocks = (n + rows - 1) / rows;
  const SimdLevel simd = simd_level();
#pragma omp parallel for schedule(static)
  for (long long blk = 0; blk < blocks; ++blk) {
    const long long i0 = blk * rows, i1 = std::min(n, i0 + rows);
    // One register of the instruction set per vector (update_columns); complex types one row at a time, on the baseline.
    detail::with_simd_level(is_complex_v<T> ? SimdLevel::baseline : simd, [&](auto set) __attribute__((always_inline)) {
      constexpr int kBytes = set == SimdLevel::avx512 ? 64 : set == SimdLevel::avx2 ? 32 : 16;
      update_block<kBytes, T>(v, coef.data(), beta, y, i0, i1);
    });
  }
}

template void block_dots(const float* const*, long long, const float* const*, long long, long long, double*);
template void block_dots(const double* const*, long long, const double* const*, long long, long long, double*);

#define HSPARSE_INSTANTIATE(T)                                                                               \
  template void tall_skinny_dot(T, const ConstDenseView<T>&, const ConstDenseView<T>&, T, const DenseView<T>&); \
  template void tall_skinny_update(T, const ConstDenseView<T>&, const ConstDenseView<T>&, T, const DenseView<T>&);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
