// GEMM dispatched by executor (dense/gemm.hpp).
#include "hsparse/dense/gemm.hpp"

#include <algorithm>
#include <complex>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"

namespace hsparse {

std::vector<std::string> gemm_algorithms(Backend backend) {
  switch (backend) {
    case Backend::cpu: return {"blocked", "reference", "tall-skinny"};
    case Backend::cuda: return {"register", "tensor", "tf32", "tiled", "untiled", "cublas", "cublas-tf32", "tall-skinny"};
  }
  return {};
}

template <class T>
std::string default_gemm_algorithm(Backend backend) {
  // The GPU's double runs on the FP64 tensor cores (exact FP64 arithmetic,
  // twice the SIMT rate); float stays exact (SIMT), TF32 only when named.
  if (backend == Backend::cuda && std::is_same_v<T, double>) return "tensor";
  return gemm_algorithms(backend).front();
}

namespace {
// The backend all three operands share, or Error(invalid_argument) naming them.
template <class T>
Backend common_backend(const char* what, const DenseMatrix<T>& a, const DenseMatrix<T>& b, const DenseMatrix<T>& c) {
  const Backend backend = c.executor()->backend();
  if (a.executor()->backend() != backend || b.executor()->backend() != backend) {
    throw Error(ErrorCode::invalid_argument, std::string(what) + ": the operands must be on one backend (" + a.executor()->description() + ", " +
                                                 b.executor()->description() + ", " + c.executor()->description() + ")");
  }
  return backend;
}
}  // namespace

template <class T>
void gemm(Op ta, Op tb, T alpha, const DenseMatrix<T>& a, const DenseMatrix<T>& b, T beta, DenseMatrix<T>& c, const GemmOptions& o) {
  const Backend backend = common_backend("gemm", a, b, c);
  const auto names = gemm_algorithms(backend);
  const std::string algorithm = o.algorithm == "auto" ? default_gemm_algorithm<T>(backend) : o.algorithm;
  if (std::find(names.begin(), names.end(), algorithm) == names.end()) {
    std::string list = "auto";
    for (const auto& n : names) list += ", " + n;
    throw Error(ErrorCode::invalid_argument, "gemm algorithm '" + o.algorithm + "' on " + to_string(backend) + ": valid are " + list);
  }
  if (algorithm == "tall-skinny") {  // the shapes it serves: V^T W (A transposed, B not) and V S (neither)
    if (tb == Op::transpose) throw Error(ErrorCode::invalid_argument, "gemm tall-skinny: V^T W (--transa) or V S (no transpose), not op(B) = B^T");
    if (ta == Op::transpose) return tall_skinny_dot<T>(alpha, a, b, beta, c);
    return tall_skinny_update<T>(alpha, a, b, beta, c);
  }
  switch (backend) {
    case Backend::cpu:
      if (algorithm == "reference") return reference::gemm<T>(ta, tb, alpha, a.view(), b.view(), beta, c.view());
      return openmp::gemm<T>(ta, tb, alpha, a.view(), b.view(), beta, c.view());
    case Backend::cuda:
      cuda::gemm<T>(cuda_executor(*c.executor(), "a GPU GEMM"), cuda::parse_gemm_algorithm(algorithm), ta, tb, alpha, a.view(), b.view(), beta,
                    c.view(), o.tile);
      return;
  }
}

template <class T>
void tall_skinny_dot(T alpha, const DenseMatrix<T>& v, const DenseMatrix<T>& w, T beta, DenseMatrix<T>& s) {
  switch (common_backend("tall_skinny_dot", v, w, s)) {
    case Backend::cpu: return openmp::tall_skinny_dot<T>(alpha, v.view(), w.view(), beta, s.view());
    case Backend::cuda:
      return cuda::tall_skinny_dot<T>(cuda_executor(*s.executor(), "tall_skinny_dot"), alpha, v.view(), w.view(), beta, s.view());
  }
}

template <class T>
void tall_skinny_update(T alpha, const DenseMatrix<T>& v, const DenseMatrix<T>& s, T beta, DenseMatrix<T>& y) {
  switch (common_backend("tall_skinny_update", v, s, y)) {
    case Backend::cpu: return openmp::tall_skinny_update<T>(alpha, v.view(), s.view(), beta, y.view());
    case Backend::cuda:
      return cuda::tall_skinny_update<T>(cuda_executor(*y.executor(), "tall_skinny_update"), alpha, v.view(), s.view(), beta, y.view());
  }
}

#define HSPARSE_INSTANTIATE(T)                                                                                         \
  template std::string default_gemm_algorithm<T>(Backend);                                                             \
  template void gemm(Op, Op, T, const DenseMatrix<T>&, const DenseMatrix<T>&, T, DenseMatrix<T>&, const GemmOptions&); \
  template void tall_skinny_dot(T, const DenseMatrix<T>&, const DenseMatrix<T>&, T, DenseMatrix<T>&);                  \
  template void tall_skinny_update(T, const DenseMatrix<T>&, const DenseMatrix<T>&, T, DenseMatrix<T>&);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
