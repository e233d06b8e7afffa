// CPU-only builds: the cuSPARSE baselines (backends/cuda/cusparse_baselines.hpp)
// throw Error(unsupported) saying so, as no_device.cpp's stand-ins for the
// rest of the CUDA backend do. None is reached in practice: a cuda::Executor
// cannot be made in such a build.
#include <cstdint>
#include <string>

#include "hsparse/backends/cuda/cusparse_baselines.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda {

namespace {
[[noreturn]] void without_cuda(const char* what) {
  throw Error(ErrorCode::unsupported, std::string(what) + ": this hsparse was built without CUDA");
}
}  // namespace

#define HSPARSE_ABSENT(V)                                                                                                                        \
  template <>                                                                                                                                    \
  BaselineCgResult cusparse_cublas_pcg(const Executor&, const Csr<V, std::int32_t>&, BaselinePreconditioner, const V*, V*, double, int, bool,   \
                                       BaselineFactorTimes*) {                                                                                   \
    without_cuda("the cuSPARSE + cuBLAS PCG");                                                                                                   \
  }                                                                                                                                              \
  template <>                                                                                                                                    \
  BaselineCgResult cusparse_cublas_bicgstab(const Executor&, const Csr<V, std::int32_t>&, BaselinePreconditioner, const V*, V*, double, int,    \
                                            bool, BaselineFactorTimes*) {                                                                        \
    without_cuda("the cuSPARSE + cuBLAS BiCGStab");                                                                                              \
  }                                                                                                                                              \
  template <>                                                                                                                                    \
  BaselineFactorTimes cusparse_factor_and_apply(const Executor&, const Csr<V, std::int32_t>&, BaselinePreconditioner, const V*, V*, int) {     \
    without_cuda("cuSPARSE's incomplete factorisation");                                                                                        \
  }
HSPARSE_ABSENT(float)
HSPARSE_ABSENT(double)
#undef HSPARSE_ABSENT

}  // namespace hsparse::cuda
