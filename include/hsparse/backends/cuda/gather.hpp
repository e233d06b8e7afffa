#pragma once
// dst[i] = src[indices[i]] and dst[indices[i]] += src[i] on device data
// (kernels/gather.hpp declares the operations; these are the CUDA ones), on
// the executor's stream, without waiting. All four value types.
#include <cstdint>

#include "hsparse/backends/cuda/device.hpp"

namespace hsparse::cuda {

template <class V>
void gather(const Executor& ex, long long n, const V* src, const std::int64_t* indices, V* dst);
template <class V>
void scatter_add(const Executor& ex, long long n, const V* src, const std::int64_t* indices, V* dst);

}  // namespace hsparse::cuda
