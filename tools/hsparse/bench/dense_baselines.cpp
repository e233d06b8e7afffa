// Eigen's and OpenBLAS's GEMM on our column-major views (dense_baselines.hpp).
#include "dense_baselines.hpp"

#include <algorithm>
#include <climits>
#include <omp.h>

#include "hsparse/core/error.hpp"
#ifdef HSPARSE_HAVE_EIGEN
#include <Eigen/Dense>
#endif
#ifdef HSPARSE_HAVE_OPENBLAS
#include <cblas.h>
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

bool have_openblas_gemm() {
#ifdef HSPARSE_HAVE_OPENBLAS
  return true;
#else
  return false;
#endif
}

std::string openblas_core() {
#ifdef HSPARSE_HAVE_OPENBLAS
  return openblas_get_corename();
#else
  return "";
#endif
}

std::string openblas_handicap() {
#ifdef HSPARSE_HAVE_OPENBLAS
  if (openblas_get_corename() == std::string("Prescott")) return "OpenBLAS runs its generic Prescott (SSE3) kernels here (CPU model hidden?): set OPENBLAS_CORETYPE (e.g. Haswell, SkylakeX)";
  if (omp_get_proc_bind() != omp_proc_bind_false && omp_get_max_threads() > 1) {
    return "OMP_PROC_BIND is set: OpenBLAS's own threads inherit the main thread's binding to one place and share it; unset OMP_PROC_BIND to compare with OpenBLAS";
  }
#endif
  return "";
}

template <class T>
void openblas_gemm(Op ta, Op tb, T alpha, const ConstDenseView<T>& a, const ConstDenseView<T>& b, T beta, const DenseView<T>& c) {
  const GemmShape s = check_gemm_shapes<T>(ta, tb, a, b, c);
#ifdef HSPARSE_HAVE_OPENBLAS
  if (s.m > INT_MAX || s.n > INT_MAX || s.k > INT_MAX || a.ld > INT_MAX || b.ld > INT_MAX || c.ld > INT_MAX) {
    throw Error(ErrorCode::invalid_argument, "OpenBLAS GEMM: a size above 2^31 - 1");
  }
  if (s.m == 0 || s.n == 0) return;
  // OpenBLAS's own threads, as many as our OpenMP kernels use (like with like).
  openblas_set_num_threads(omp_get_max_threads());
  const auto op = [](Op o) { return o == Op::transpose ? CblasTrans : CblasNoTrans; };
  const int m = static_cast<int>(s.m), n = static_cast<int>(s.n), k = static_cast<int>(s.k);
  const int lda = static_cast<int>(std::max(1LL, a.ld)), ldb = static_cast<int>(std::max(1LL, b.ld)), ldc = static_cast<int>(std::max(1LL, c.ld));
  if (beta == T(0)) {  // BLAS reads C when beta is 0 only to scale it: make NaN in C harmless anyway
    for (long long j = 0; j < s.n; ++j)
      for (long long i = 0; i < s.m; ++i) c.data[i + j * c.ld] = T(0);
  }
  if constexpr (std::is_same_v<T, double>) cblas_dgemm(CblasColMajor, op(ta), op(tb), m, n, k, alpha, a.data, lda, b.data, ldb, beta, c.data, ldc);
  else cblas_sgemm(CblasColMajor, op(ta), op(tb), m, n, k, alpha, a.data, lda, b.data, ldb, beta, c.data, ldc);
#else
  (void)s;
  (void)alpha;
  (void)beta;
  throw Error(ErrorCode::unsupported, "this hsparse was built without OpenBLAS (the CPU GEMM baseline)");
#endif
}

template void openblas_gemm(Op, Op, float, const ConstDenseView<float>&, const ConstDenseView<float>&, float, const DenseView<float>&);
template void openblas_gemm(Op, Op, double, const ConstDenseView<double>&, const ConstDenseView<double>&, double, const DenseView<double>&);
template void eigen_gemm(Op, Op, float, const ConstDenseView<float>&, const ConstDenseView<float>&, float, const DenseView<float>&);
template void eigen_gemm(Op, Op, double, const ConstDenseView<double>&, const ConstDenseView<double>&, double, const DenseView<double>&);

}  // namespace hsparse::bench
