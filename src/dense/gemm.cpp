// GEMM dispatched by executor (dense/gemm.hpp).
#include "hsparse/dense/gemm.hpp"

#include <algorithm>
#include <complex>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"

namespace hsparse {

std::vector<std::string> gemm_algorithms(Backend backend) {
  switch (backend) {
    case Backend::cpu: return {"blocked", "reference"};
    case Backend::cuda: return {"register", "tiled", "untiled", "cublas"};
  }
  return {};
}

template <class T>
void gemm(Op ta, Op tb, T alpha, const DenseMatrix<T>& a, const DenseMatrix<T>& b, T beta, DenseMatrix<T>& c, const GemmOptions& o) {
  const Backend backend = c.executor()->backend();
  if (a.executor()->backend() != backend || b.executor()->backend() != backend) {
    throw Error(ErrorCode::invalid_argument, "gemm: A, B and C must be on one backend (A " + a.executor()->description() + ", B " +
                                                 b.executor()->description() + ", C " + c.executor()->description() + ")");
  }
  const auto names = gemm_algorithms(backend);
  const std::string algorithm = o.algorithm == "auto" ? names.front() : o.algorithm;
  if (std::find(names.begin(), names.end(), algorithm) == names.end()) {
    std::string list = "auto";
    for (const auto& n : names) list += ", " + n;
    throw Error(ErrorCode::invalid_argument, "gemm algorithm '" + o.algorithm + "' on " + to_string(backend) + ": valid are " + list);
  }
  switch (backend) {
    case Backend::cpu:
      if (algorithm == "reference") return reference::gemm<T>(ta, tb, alpha, a.view(), b.view(), beta, c.view());
      return openmp::gemm<T>(ta, tb, alpha, a.view(), b.view(), beta, c.view());
    case Backend::cuda:
#ifdef HSPARSE_HAVE_CUDA
      cuda::gemm<T>(cuda_executor(*c.executor(), "a GPU GEMM"), cuda::parse_gemm_algorithm(algorithm), ta, tb, alpha, a.view(), b.view(), beta,
                    c.view(), o.tile);
      return;
#else
      throw Error(ErrorCode::unsupported, "a GPU GEMM in a build without CUDA");
#endif
  }
}

#define HSPARSE_INSTANTIATE(T)                                                                                        \
  template void gemm(Op, Op, T, const DenseMatrix<T>&, const DenseMatrix<T>&, T, DenseMatrix<T>&, const GemmOptions&);
HSPARSE_INSTANTIATE(float)
HSPARSE_INSTANTIATE(double)
HSPARSE_INSTANTIATE(std::complex<float>)
HSPARSE_INSTANTIATE(std::complex<double>)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
