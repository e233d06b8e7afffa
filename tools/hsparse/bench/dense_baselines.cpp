// Eigen's GEMM on our column-major views (dense_baselines.hpp).
#include "dense_baselines.hpp"

#include "hsparse/core/error.hpp"
#ifdef HSPARSE_HAVE_EIGEN
#include <Eigen/Dense>
#endif

namespace hsparse::bench {

bool have_eigen_gemm() {
#ifdef HSPARSE_HAVE_EIGEN
  return true;
#else
  return false;
#endif
}

template <class T>
void eigen_gemm(Op ta, Op tb, T alpha, const ConstDenseView<T>& a, const ConstDenseView<T>& b, T beta, const DenseView<T>& c) {
  check_gemm_shapes<T>(ta, tb, a, b, c);
#ifdef HSPARSE_HAVE_EIGEN
  using M = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
  using Stride = Eigen::OuterStride<>;
  const Eigen::Map<const M, 0, Stride> am(a.data, a.rows, a.cols, Stride(a.ld)), bm(b.data, b.rows, b.cols, Stride(b.ld));
  Eigen::Map<M, 0, Stride> cm(c.data, c.rows, c.cols, Stride(c.ld));
  if (beta == T(0)) cm.setZero();  // C is not read: NaN in C must not survive
  else cm *= beta;
  if (ta == Op::none && tb == Op::none) cm.noalias() += alpha * am * bm;
  else if (ta == Op::transpose && tb == Op::none) cm.noalias() += alpha * am.transpose() * bm;
  else if (ta == Op::none) cm.noalias() += alpha * am * bm.transpose();
  else cm.noalias() += alpha * am.transpose() * bm.transpose();
#else
  (void)alpha;
  (void)beta;
  throw Error(ErrorCode::unsupported, "this hsparse was built without Eigen (the CPU GEMM baseline)");
#endif
}

template void eigen_gemm(Op, Op, float, const ConstDenseView<float>&, const ConstDenseView<float>&, float, const DenseView<float>&);
template void eigen_gemm(Op, Op, double, const ConstDenseView<double>&, const ConstDenseView<double>&, double, const DenseView<double>&);

}  // namespace hsparse::bench
