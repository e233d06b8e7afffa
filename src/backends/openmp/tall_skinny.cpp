// Tall-skinny products on the CPU (kernels/dense_ops.hpp). Rows are cut
// into blocks of kRows, small enough that a block of every column of V and
// W stays in L1/L2 while all k x l products are formed from it, so V and W
// stream from memory once. Inside a block the products are register-blocked,
// the lecture's tiling one level down (as the GEMM's micro-kernel):
//  - V^T W: a tile of up to 4 x 4 dot products is summed together over the
//    block's rows, 8 rows at a time in 4 x 4 x 8 accumulators: 8 loads
//    feed 16 vector FMAs (one dot at a time: 2 loads per FMA, and a block
//    of 16 or more columns no longer fits L1: k = l = 16 at n = 2e6 took
//    3.6x OpenBLAS's time on a 2-core Zen 4, 2026-11-26);
//  - V S: 2 vectors of rows of 4 columns of Y stay in registers while
//    every column of V is added in (2 loads per 8 vector FMAs, Y read and
//    written once per block).
// The kernels are compiled for AVX-512, AVX2+FMA and the baseline and chosen
// by the CPU's features, as the GEMM's. V^T W: each thread sums its own
// contiguous range of blocks (static schedule), the thread partials are
// added in thread order: the result does not depend on timing. Sums in
// double (complex<double>).
// block_dots is also the multiple dot product (mdot, vector_ops.cpp): W one column.
#include <omp.h>

#include <algorithm>
#include <complex>
#include <cstring>
#include <vector>

#include "hsparse/core/types.hpp"
#include "hsparse/kernels/dense_ops.hpp"
#include "tall_skinny.hpp"

// Vec<T> values passed between inlined helpers: no ABI is involved.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace hsparse::openmp {

namespace {
constexpr long long kRows = 512;
constexpr int kTile = 4;   // columns per side of a register tile
constexpr int kLanes = 8;  // rows per step: one AVX-512 vector of doubles

// acc[a + b k] += sum over rows [i0, i1) of v[a][i] w[b][i] for the TA x TB
// columns of one tile, in double: kLanes partial sums per product, added in
// lane order, then the tail rows.
template <int TA, int TB, class T>
[[gnu::always_inline]] inline void tile_dots(const T* const* v, const T* const* w, long long i0, long long i1, double* acc, long long k) {
  double s[TA][TB][kLanes] = {};
  long long i = i0;
  for (; i + kLanes <= i1; i += kLanes) {
    double vv[TA][kLanes], ww[TB][kLanes];
    for (int a = 0; a < TA; ++a)
      for (int u = 0; u < kLanes; ++u) vv[a][u] = static_cast<double>(v[a][i + u]);
    for (int b = 0; b < TB; ++b)
      for (int u = 0; u < kLanes; ++u) ww[b][u] = static_cast<double>(w[b][i + u]);
    for (int a = 0; a < TA; ++a)
      for (int b = 0; b < TB; ++b)
        for (int u = 0; u < kLanes; ++u) s[a][b][u] += vv[a][u] * ww[b][u];
  }
  for (int a = 0; a < TA; ++a) {
    for (int b = 0; b < TB; ++b) {
      double sum = 0;
      for (int u = 0; u < kLanes; ++u) sum += s[a][b][u];
      for (long long r = i; r < i1; ++r) sum += static_cast<double>(v[a][r]) * static_cast<double>(w[b][r]);
      acc[a + b * k] += sum;
    }
  }
}

// A TA x tb tile (tb from 1 to 4), a direct call so that it is inlined into
// the instruction set's copy of block_tiles (a pointer would call a copy
// compiled for the baseline).
template <int TA, class T>
[[gnu::always_inline]] inline void tile_dots_by(int tb, const T* const* v, const T* const* w, long long i0, long long i1, double* acc, long long k) {
  switch (tb) {
    case 1: return tile_dots<TA, 1, T>(v, w, i0, i1, acc, k);
    case 2: return tile_dots<TA, 2, T>(v, w, i0, i1, acc, k);
    case 3: return tile_dots<TA, 3, T>(v, w, i0, i1, acc, k);
    default: return tile_dots<TA, kTile, T>(v, w, i0, i1, acc, k);
  }
}

// Every tile of one row block: 4 x 4 tiles, and 1 to 3 columns on a side at the edges.
template <class T>
[[gnu::always_inline]] inline void block_tiles(const T* const* v, long long k, const T* const* w, long long l, long long i0, long long i1, double* acc) {
  for (long long b = 0; b < l; b += kTile) {
    const int tb = static_cast<int>(std::min<long long>(kTile, l - b));
    for (long long a = 0; a < k; a += kTile) {
      const T* const* va = v + a;
      const T* const* wb = w + b;
      double* out = acc + a + b * k;
      switch (std::min<long long>(kTile, k - a)) {
        case 1: tile_dots_by<1, T>(tb, va, wb, i0, i1, out, k); break;
        case 2: tile_dots_by<2, T>(tb, va, wb, i0, i1, out, k); break;
        case 3: tile_dots_by<3, T>(tb, va, wb, i0, i1, out, k); break;
        default: tile_dots_by<kTile, T>(tb, va, wb, i0, i1, out, k); break;
      }
    }
  }
}

template <class T>
__attribute__((target("avx512f"))) void block_tiles_avx512(const T* const* v, long long k, const T* const* w, long long l, long long i0, long long i1,
                                                          double* acc) {
  block_tiles<T>(v, k, w, l, i0, i1, acc);
}
template <class T>
__attribute__((target("avx2,fma"))) void block_tiles_avx2(const T* const* v, long long k, const T* const* w, long long l, long long i0, long long i1,
                                                         double* acc) {
  block_tiles<T>(v, k, w, l, i0, i1, acc);
}
template <class T>
void block_tiles_baseline(const T* const* v, long long k, const T* const* w, long long l, long long i0, long long i1, double* acc) {
  block_tiles<T>(v, k, w, l, i0, i1, acc);
}

// GCC's generic vectors of 64 bytes (8 doubles, 16 floats): one zmm
// register in the AVX-512 copy, two ymm in the AVX2 one, four xmm in the
// baseline. Written out because the auto-vectoriser split V S's register
// tile into scalar operations (2026-11-26: 3x slower than OpenBLAS at k = 32).
template <class T> struct Vector64;
template <> struct Vector64<double> { typedef double type __attribute__((vector_size(64))); };
template <> struct Vector64<float> { typedef float type __attribute__((vector_size(64))); };
template <class T> using Vec = typename Vector64<T>::type;
template <class T> constexpr int kVecLanes = 64 / static_cast<int>(sizeof(T));
template <class T>
[[gnu::always_inline]] inline Vec<T> load_vec(const T* p) {
  Vec<T> r;
  std::memcpy(&r, p, sizeof r);
  return r;
}
template <class T>
[[gnu::always_inline]] inline void store_vec(T* p, const Vec<T>& x) { std::memcpy(p, &x, sizeof x); }

// Y's columns b .. b + TB - 1 over rows [i0, i1): y = V coef + beta y with
// coef = alpha S (k x l, column-major, formed once per call). Real types:
// two vectors of rows of the TB columns of Y stay in registers while every
// column of V is added in: 2 TB independent FMA chains, 2 loads per 2 TB
// FMAs. The rows after the last whole pair of vectors, and complex types,
// one row at a time.
template <int TB, class T>
[[gnu::always_inline]] inline void update_columns(const ConstDenseView<T>& v, const T* coef, T beta, const DenseView<T>& y, long long b, long long i0,
                                                  long long i1) {
  const long long k = v.cols;
  T* yc[TB];
  for (int c = 0; c < TB; ++c) yc[c] = &y(0, b + c);
  const T* cb = coef + b * k;  // coef's column b + c starts at cb + c k
  long long i = i0;
  if constexpr (!is_complex_v<T>) {
    constexpr int L = kVecLanes<T>;
    for (; i + 2 * L <= i1; i += 2 * L) {
      Vec<T> acc[TB][2];
      for (int c = 0; c < TB; ++c) {
        for (int h = 0; h < 2; ++h) acc[c][h] = beta == T(0) ? Vec<T>{} : beta * load_vec(yc[c] + i + h * L);  // beta = 0: y is not read
      }
      for (long long a = 0; a < k; ++a) {
        const T* va = v.data + i + a * v.ld;
        const Vec<T> x0 = load_vec(va), x1 = load_vec(va + L);
        for (int c = 0; c < TB; ++c) {
          const T f = cb[a + c * k];
          acc[c][0] += f * x0;
          acc[c][1] += f * x1;
        }
      }
      for (int c = 0; c < TB; ++c) {
        store_vec(yc[c] + i, acc[c][0]);
        store_vec(yc[c] + i + L, acc[c][1]);
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

template <class T>
[[gnu::always_inline]] inline void update_block(const ConstDenseView<T>& v, const T* coef, T beta, const DenseView<T>& y, long long i0, long long i1) {
  const long long l = y.cols;
  long long b = 0;
  for (; b + kTile <= l; b += kTile) update_columns<kTile, T>(v, coef, beta, y, b, i0, i1);
  switch (l - b) {
    case 3: update_columns<3, T>(v, coef, beta, y, b, i0, i1); break;
    case 2: update_columns<2, T>(v, coef, beta, y, b, i0, i1); break;
    case 1: update_columns<1, T>(v, coef, beta, y, b, i0, i1); break;
    default: break;
  }
}

template <class T>
__attribute__((target("avx512f"))) void update_block_avx512(const ConstDenseView<T>& v, const T* coef, T beta, const DenseView<T>& y, long long i0,
                                                           long long i1) {
  update_block<T>(v, coef, beta, y, i0, i1);
}
template <class T>
__attribute__((target("avx2,fma"))) void update_block_avx2(const ConstDenseView<T>& v, const T* coef, T beta, const DenseView<T>& y, long long i0,
                                                          long long i1) {
  update_block<T>(v, coef, beta, y, i0, i1);
}
template <class T>
void update_block_baseline(const ConstDenseView<T>& v, const T* coef, T beta, const DenseView<T>& y, long long i0, long long i1) {
  update_block<T>(v, coef, beta, y, i0, i1);
}

bool have_avx512() {
  static const bool yes = __builtin_cpu_supports("avx512f");
  return yes;
}
bool have_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return yes;
}
}  // namespace

template <class T, class Acc>
void block_dots(const T* const* v, long long k, const T* const* w, long long l, long long n, Acc* out) {
  if (k == 0 || l == 0) return;
  const int threads = omp_get_max_threads();
  std::vector<Acc> partial(static_cast<std::size_t>(threads * k * l), Acc(0));
  const long long blocks = (n + kRows - 1) / kRows;
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
      } else if (have_avx512()) {
        block_tiles_avx512<T>(v, k, w, l, i0, i1, acc);
      } else if (have_avx2()) {
        block_tiles_avx2<T>(v, k, w, l, i0, i1, acc);
      } else {
        block_tiles_baseline<T>(v, k, w, l, i0, i1, acc);
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
  const long long blocks = (n + kRows - 1) / kRows;
#pragma omp parallel for schedule(static)
  for (long long blk = 0; blk < blocks; ++blk) {
    const long long i0 = blk * kRows, i1 = std::min(n, i0 + kRows);
    if constexpr (is_complex_v<T>) update_block_baseline<T>(v, coef.data(), beta, y, i0, i1);
    else if (have_avx512()) update_block_avx512<T>(v, coef.data(), beta, y, i0, i1);
    else if (have_avx2()) update_block_avx2<T>(v, coef.data(), beta, y, i0, i1);
    else update_block_baseline<T>(v, coef.data(), beta, y, i0, i1);
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
