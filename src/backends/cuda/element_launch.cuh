#pragma once
// What the GPU element products (lma_spmv.cu, pa_spmv.cu) share: y scaled
// by beta first (zeroed for beta == 0: y is not read, it may hold NaN), and
// the element loop: one launch over every element (atomics) or a launch per
// colour (elements of one colour share no node; section 8.3).
#include <type_traits>
#include <vector>

#include "device_common.cuh"
#include "hsparse/backends/cuda/vector_ops.hpp"
#include "hsparse/kernels/lma_spmv.hpp"

namespace hsparse::cuda::detail {

template <class V>
__global__ void scale_kernel(long long n, V beta, V* y) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) y[i] *= beta;
}

// The elements in one launch (atomics) or a launch per colour.
template <class Run>
void over_elements(LmaScatter scatter, long long elements, const std::vector<long long>& colours, Run&& run) {
  if (scatter == LmaScatter::atomics) {
    run(0LL, elements, std::true_type{});
  } else {
    for (std::size_t c = 0; c + 1 < colours.size(); ++c) run(colours[c], colours[c + 1], std::false_type{});
  }
}

template <class V>
void scale_y(const Executor& ex, long long n, V beta, V* y) {
  if (beta == V(0)) fill_zero<V>(ex, n, y);  // y is not read (it may hold NaN)
  else if (beta != V(1)) scale_kernel<<<grid_for(n, 256), 256, 0, stream_of(ex)>>>(n, beta, y);
}

}  // namespace hsparse::cuda::detail
