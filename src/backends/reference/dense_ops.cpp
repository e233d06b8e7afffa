// The reference GEMM (kernels/dense_ops.hpp): Owens' unblocked triple loop,
// each C(i, j) a dot product of row i of op(A) and column j of op(B)
// summed in double (complex<double> for complex types), the definition the
// other kernels are held to.
#include <complex>

#include "hsparse/core/types.hpp"
#include "hsparse/kernels/dense_ops.hpp"

namespace hsparse::reference {

template <class T>
void gemm(Op ta, Op tb, T alpha, const ConstDenseView<T>& a, const ConstDenseView<T>& b, T beta, const DenseView<T>& c) {
  const GemmShape s = check_gemm_shapes<T>(ta, tb, a, b, c);
  using Acc = std::conditional_t<is_complex_v<T>, std::complex<double>, double>;
  for (long long j = 0; j < s.n; ++j) {
    for (long long i = 0; i < s.m; ++i) {
      Acc sum = 0;
      for (long long p = 0; p < s.k; ++p) {
        const T x = ta == Op::none ? a(i, p) : a(p, i);
        const T y = tb == Op::none ? b(p, j) : b(j, p);
        sum += static_cast<Acc>(x) * static_cast<Acc>(y);
      }
      const T v = alpha * static_cast<T>(sum);
      c(i, j) = beta == T(0) ? v : v + beta * c(i, j);
    }
  }
}

// The tall-skinny products are GEMMs of particular shapes: the reference
// is the GEMM's (V^T W: A = V transposed; V S: plain).
template <class T>
void tall_skinny_dot(T alpha, const ConstDenseView<T>& v, const ConstDenseView<T>& w, T beta, const DenseView<T>& s) {
  gemm<T>(Op::transpose, Op::none, alpha, v, w, beta, s);
}
template <class T>
void tall_skinny_update(T alpha, const ConstDenseView<T>& v, const ConstDenseView<T>& s, T beta, const DenseView<T>& y) {
  gemm<T>(Op::none, Op::none, alpha, v, s, beta, y);
}

#define HSPARSE_INSTANTIATE(T)                                                                                     \
  template void gemm(Op, Op, T, const ConstDenseView<T>&, const ConstDenseView<T>&, T, const DenseView<T>&);          \
  template void tall_skinny_dot(T, const ConstDenseView<T>&, const ConstDenseView<T>&, T, const DenseView<T>&);       \
  template void tall_skinny_update(T, const ConstDenseView<T>&, const ConstDenseView<T>&, T, const DenseView<T>&);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::reference
