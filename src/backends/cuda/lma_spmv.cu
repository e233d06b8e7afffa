// The LMA product on the GPU (backends/cuda/lma_spmv.hpp): a thread per
// element, its m gathered values of x in registers (M a template parameter:
// the loops unroll), K_e read row by row, each row's sum scatter-added at
// once. y is first scaled by beta (or zeroed) by the vector kernels.
#include "device_common.cuh"
#include "hsparse/backends/cuda/lma_spmv.hpp"
#include "hsparse/backends/cuda/vector_ops.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda {

namespace {

constexpr int kThreads = 128;

template <class V>
__global__ void scale_kernel(long long n, V beta, V* y) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) y[i] *= beta;
}

template <int M, bool ATOMIC, class V, class I>
__global__ void __launch_bounds__(kThreads) lma_kernel(long long first, long long last, long long ne, const I* __restrict__ nodes,
                                                       const V* __restrict__ k, const V* __restrict__ x, V alpha, V* y) {
  const long long e = first + blockIdx.x * static_cast<long long>(kThreads) + threadIdx.x;
  if (e >= last) return;
  V xl[M];
#pragma unroll
  for (int j = 0; j < M; ++j) {
    const I node = nodes[j * ne + e];
    xl[j] = node < 0 ? V(0) : x[node];
  }
#pragma unroll
  for (int i = 0; i < M; ++i) {
    V sum(0);
#pragma unroll
    for (int j = 0; j < M; ++j) sum += k[(i * M + j) * ne + e] * xl[j];
    const I node = nodes[i * ne + e];
    if (node < 0) continue;
    if constexpr (ATOMIC) {
      atomicAdd(y + node, alpha * sum);
    } else {
      y[node] += alpha * sum;  // no other element of this launch's colour holds the node
    }
  }
}

template <int M, class V, class I>
void launch(const Executor& ex, LmaScatter scatter, V alpha, const DeviceLocalMatrices<V, I>& a, const V* x, V* y) {
  const auto s = detail::stream_of(ex);
  const long long ne = a.elements;
  const auto run = [&](long long first, long long last, auto kernel) {
    if (last > first) kernel<<<detail::grid_for(last - first, kThreads), kThreads, 0, s>>>(first, last, ne, a.element_nodes.data(), a.values.data(), x, alpha, y);
  };
  if (scatter == LmaScatter::atomics) {
    run(0, ne, lma_kernel<M, true, V, I>);
  } else {
    for (std::size_t c = 0; c + 1 < a.colour_begin.size(); ++c) run(a.colour_begin[c], a.colour_begin[c + 1], lma_kernel<M, false, V, I>);
  }
}

}  // namespace

template <class V, class I>
void lma_spmv(const Executor& ex, LmaScatter scatter, V alpha, const DeviceLocalMatrices<V, I>& a, const V* x, V beta, V* y) {
  if (a.rows == 0) return;
  if (beta == V(0)) fill_zero<V>(ex, a.rows, y);  // y is not read (it may hold NaN)
  else if (beta != V(1)) scale_kernel<<<detail::grid_for(a.rows, 256), 256, 0, detail::stream_of(ex)>>>(a.rows, beta, y);
  switch (a.nodes_per_element) {
    case 4: launch<4>(ex, scatter, alpha, a, x, y); break;
    case 9: launch<9>(ex, scatter, alpha, a, x, y); break;
    case 16: launch<16>(ex, scatter, alpha, a, x, y); break;
    case 25: launch<25>(ex, scatter, alpha, a, x, y); break;
    default: throw Error(ErrorCode::invalid_argument, "GPU LMA product: elements of " + std::to_string(a.nodes_per_element) + " nodes (Q1-Q4 have 4, 9, 16, 25)");
  }
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

#define HSPARSE_INSTANTIATE(V, I) \
  template void lma_spmv(const Executor&, LmaScatter, V, const DeviceLocalMatrices<V, I>&, const V*, V, V*);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
