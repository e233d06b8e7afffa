#pragma once
// Every cuSPARSE call is checked; the error names the call (cuSPARSE baselines).
#include <cusparse.h>

#include <complex>
#include <string>
#include <type_traits>

#include "hsparse/core/error.hpp"

namespace hsparse::cuda::detail {

inline void check_cusparse(cusparseStatus_t status, const char* what) {
  if (status != CUSPARSE_STATUS_SUCCESS) {
    throw Error(status == CUSPARSE_STATUS_ALLOC_FAILED    ? ErrorCode::out_of_memory
                : status == CUSPARSE_STATUS_NOT_SUPPORTED ? ErrorCode::unsupported
                                                          : ErrorCode::cuda,
                std::string(what) + ": " + cusparseGetErrorString(status));
  }
}

// cuSPARSE's names of our value and index types.
template <class V>
constexpr cudaDataType cusparse_value_type() {
  if constexpr (std::is_same_v<V, float>) return CUDA_R_32F;
  else if constexpr (std::is_same_v<V, double>) return CUDA_R_64F;
  else if constexpr (std::is_same_v<V, std::complex<float>>) return CUDA_C_32F;
  else return CUDA_C_64F;
}
template <class I>
constexpr cusparseIndexType_t cusparse_index_type() { return sizeof(I) == 4 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I; }

}  // namespace hsparse::cuda::detail

#define HSPARSE_CUSPARSE_CHECK(call) ::hsparse::cuda::detail::check_cusparse((call), #call)
