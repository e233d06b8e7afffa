#pragma once
// Every cuSPARSE call is checked; the error names the call (cuSPARSE baselines).
#include <cusparse.h>

#include <string>

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

}  // namespace hsparse::cuda::detail

#define HSPARSE_CUSPARSE_CHECK(call) ::hsparse::cuda::detail::check_cusparse((call), #call)
