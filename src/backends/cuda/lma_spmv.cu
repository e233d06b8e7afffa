// The element products on the GPU (backends/cuda/lma_spmv.hpp), a thread per
// element. LMA: its m gathered values of x in registers (M a template
// parameter: the loops unroll), K_e read row by row, each row's sum
// scatter-added at once. Sum-factorised: ../common/pa_element.hpp. y is
// first scaled by beta (or zeroed).
#include <string>
#include <type_traits>
#include <vector>

#include "../common/pa_element.hpp"
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

template <int P, bool ATOMIC, class V, class I>
__global__ void __launch_bounds__(kThreads) pa_kernel(long long first, long long last, long long ne, const I* __restrict__ nodes, const V* __restrict__ d,
                                                      const V* __restrict__ basis, const V* __restrict__ gradient, const V* __restrict__ x, V alpha, V* y) {
  const long long e = first + blockIdx.x * static_cast<long long>(kThreads) + threadIdx.x;
  if (e >= last) return;
  hsparse::detail::pa_element<P, V, I>(
      static_cast<std::size_t>(e), static_cast<std::size_t>(ne), nodes, d, basis, gradient, [&](I node) { return x[node]; },
      [&](I node, V v) {
        if constexpr (ATOMIC) atomicAdd(y + node, alpha * v);
        else y[node] += alpha * v;  // no other element of this launch's colour holds the node
      });
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
  else if (beta != V(1)) scale_kernel<<<detail::grid_for(n, 256), 256, 0, detail::stream_of(ex)>>>(n, beta, y);
}

template <int M, class V, class I>
void launch(const Executor& ex, LmaScatter scatter, V alpha, const DeviceLocalMatrices<V, I>& a, const V* x, V* y) {
  const auto s = detail::stream_of(ex);
  const std::vector<long long> colours(a.colour_begin.begin(), a.colour_begin.end());
  over_elements(scatter, a.elements, colours, [&](long long first, long long last, auto atomic) {
    if (last > first) {
      lma_kernel<M, decltype(atomic)::value, V, I><<<detail::grid_for(last - first, kThreads), kThreads, 0, s>>>(
          first, last, a.elements, a.element_nodes.data(), a.values.data(), x, alpha, y);
    }
  });
}

}  // namespace

template <class V, class I>
void lma_spmv(const Executor& ex, LmaScatter scatter, V alpha, const DeviceLocalMatrices<V, I>& a, const V* x, V beta, V* y) {
  if (a.rows == 0) return;
  scale_y(ex, a.rows, beta, y);
  switch (a.nodes_per_element) {
    case 4: launch<4>(ex, scatter, alpha, a, x, y); break;
    case 9: launch<9>(ex, scatter, alpha, a, x, y); break;
    case 16: launch<16>(ex, scatter, alpha, a, x, y); break;
    case 25: launch<25>(ex, scatter, alpha, a, x, y); break;
    default: throw Error(ErrorCode::invalid_argument, "GPU LMA product: elements of " + std::to_string(a.nodes_per_element) + " nodes (Q1-Q4 have 4, 9, 16, 25)");
  }
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

template <class V, class I>
void pa_spmv(const Executor& ex, LmaScatter scatter, V alpha, const DeviceQuadratureData<V, I>& a, const V* x, V beta, V* y) {
  if (a.degree < 1 || a.degree > 4 || a.points != a.degree + 2) {
    throw Error(ErrorCode::invalid_argument, "GPU PA product: degree " + std::to_string(a.degree) + " with " + std::to_string(a.points) + " points (Q1-Q4 with p + 2 points)");
  }
  if (a.rows == 0) return;
  scale_y(ex, a.rows, beta, y);
  const std::vector<long long> colours(a.colour_begin.begin(), a.colour_begin.end());
  const auto s = detail::stream_of(ex);
  const auto with_degree = [&](auto degree) {
    constexpr int P = decltype(degree)::value;
    over_elements(scatter, a.elements, colours, [&](long long first, long long last, auto atomic) {
      if (last > first) {
        pa_kernel<P, decltype(atomic)::value, V, I><<<detail::grid_for(last - first, kThreads), kThreads, 0, s>>>(
            first, last, a.elements, a.element_nodes.data(), a.d.data(), a.basis.data(), a.gradient.data(), x, alpha, y);
      }
    });
  };
  switch (a.degree) {
    case 1: with_degree(std::integral_constant<int, 1>{}); break;
    case 2: with_degree(std::integral_constant<int, 2>{}); break;
    case 3: with_degree(std::integral_constant<int, 3>{}); break;
    default: with_degree(std::integral_constant<int, 4>{}); break;
  }
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

#define HSPARSE_INSTANTIATE(V, I) \
  template void lma_spmv(const Executor&, LmaScatter, V, const DeviceLocalMatrices<V, I>&, const V*, V, V*); \
  template void pa_spmv(const Executor&, LmaScatter, V, const DeviceQuadratureData<V, I>&, const V*, V, V*);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
