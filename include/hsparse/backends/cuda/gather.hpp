#pragma once
// dst[i] = src[indices[i]] on device data (kernels/gather.hpp declares the
// operation; this is the CUDA one), on the executor's stream, without
// waiting. All four value types.
#include <cstdint>

#include "hsparse/backends/cuda/device.hpp"

namespace hsparse::cuda {

template <class V>
void gather(const Executor& ex, long long n, const V* src, const std::int64_t* indices, V* dst);

}  // namespace hsparse::cuda
