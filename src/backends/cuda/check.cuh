#pragma once
// Every CUDA runtime call goes through HSPARSE_CUDA_CHECK, which turns a
// failure into hsparse::Error naming the call and CUDA's message.
#include <cuda_runtime.h>

#include <string>

#include "hsparse/core/error.hpp"

namespace hsparse::cuda::detail {

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw Error(status == cudaErrorMemoryAllocation ? ErrorCode::out_of_memory : ErrorCode::cuda,
                std::string(what) + ": " + cudaGetErrorString(status));
  }
}

}  // namespace hsparse::cuda::detail

#define HSPARSE_CUDA_CHECK(call) ::hsparse::cuda::detail::check((call), #call)
