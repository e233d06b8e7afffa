#pragma once
// The cuBLAS handle of the calling thread, bound to the executor's stream,
// host pointer mode (the baselines: mdot as gemv, the cuBLAS CG).
#include <cublas_v2.h>

#include "hsparse/backends/cuda/device.hpp"

namespace hsparse::cuda {
cublasHandle_t cublas_handle(const Executor& ex);
}  // namespace hsparse::cuda
