// Tall-skinny products on the CPU (kernels/dense_ops.hpp). Rows are cut
// into blocks of kRows, small enough that a block of every column of V and
// W stays in L1/L2 while all k x l products are formed from it, so V and W
// stream from memory once. V^T W: each thread sums its own contiguous range
// of blocks (static schedule), the thread partials are added in thread
// order: the result does not depend on timing. Sums in double (complex<double>).
// block_dots is also the multiple dot product (mdot, vector_ops.cpp): W one column.
#include <omp.h>

#include <complex>
#include <vector>

#include "hsparse/core/types.hpp"
#include "hsparse/kernels/dense_ops.hpp"
#include "tall_skinny.hpp"

namespace hsparse::openmp {

namespace {
constexpr long long kRows = 512;
}

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
      for (long long b = 0; b < l; ++b) {
        const T* wb = w[b];
        for (long long a = 0; a < k; ++a) {
          const T* va = v[a];
          Acc sum = 0;
          if constexpr (is_complex_v<T>) {
            for (long long i = i0; i < i1; ++i) sum += static_cast<Acc>(va[i]) * static_cast<Acc>(wb[i]);
          } else {
#pragma omp simd reduction(+ : sum)
            for (long long i = i0; i < i1; ++i) sum += static_cast<double>(va[i]) * static_cast<double>(wb[i]);
          }
          acc[a + b * k] += sum;
        }
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
  const long long blocks = (n + kRows - 1) / kRows;
#pragma omp parallel for schedule(static)
  for (long long blk = 0; blk < blocks; ++blk) {
    const long long i0 = blk * kRows, i1 = std::min(n, i0 + kRows);
    for (long long b = 0; b < l; ++b) {
      T* yb = &y(0, b);
      if (beta == T(0)) {
        for (long long i = i0; i < i1; ++i) yb[i] = T(0);
      } else if (beta != T(1)) {
        for (long long i = i0; i < i1; ++i) yb[i] *= beta;
      }
      for (long long a = 0; a < k; ++a) {
        const T coef = alpha * s(a, b);
        const T* va = &v(0, a);
#pragma omp simd
        for (long long i = i0; i < i1; ++i) yb[i] += coef * va[i];
      }
    }
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
