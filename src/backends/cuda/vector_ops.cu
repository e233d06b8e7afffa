// The solvers' vector kernels on the GPU (backends/cuda/vector_ops.hpp).
#include "hsparse/backends/cuda/vector_ops.hpp"

#include <cublas_v2.h>

#include <string>

#include "../common/batches.hpp"
#include "device_common.cuh"
#include "elementwise.cuh"
#include "hsparse/core/error.hpp"
#include "cublas_handle.hpp"
#include "reduction.cuh"

namespace hsparse::cuda {

namespace {

template <class V>
struct Batch {
  const V* v[8];
  double c[8];
};

// Where an mdot batch's totals go: as doubles (the solvers' mdot), or
// scaled into the V-typed output of a tall-skinny product (mdot_scaled).
struct DoubleOut {
  double* out;
  __device__ void operator()(int k, double total) const { out[k] = total; }
};
template <class V>
struct ScaledOut {
  V alpha, beta;
  V* out;
  long long stride;
  __device__ void operator()(int k, double total) const {
    V& o = out[k * stride];
    const V r = alpha * static_cast<V>(total);
    o = beta == V(0) ? r : r + beta * o;
  }
};

template <int B, class V, class Out>
__global__ void mdot_kernel(long long n, const V* __restrict__ w, Batch<V> batch, Out out, double* partials, unsigned* counter) {
  double s[B] = {};
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const double wi = w[i];
#pragma unroll
    for (int k = 0; k < B; ++k) s[k] += wi * static_cast<double>(batch.v[k][i]);
  }
  if (detail::grid_sum<B>(s, partials, counter) && threadIdx.x == 0) {
#pragma unroll
    for (int k = 0; k < B; ++k) out(k, s[k]);
  }
}

template <int B, class V>
__global__ void maxpy_kernel(long long n, Batch<V> batch, V* __restrict__ y) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    V t = y[i];
#pragma unroll
    for (int k = 0; k < B; ++k) t -= static_cast<V>(batch.c[k]) * batch.v[k][i];
    y[i] = t;
  }
}

using detail::axpby_kernel;
using detail::elementwise_blocks;
using detail::scale_by_kernel;

template <class V>
Batch<V> make_batch(const std::vector<const V*>& vs, std::size_t first, int b, const double* coef) {
  Batch<V> batch{};
  for (int k = 0; k < b; ++k) {
    batch.v[k] = vs[first + static_cast<std::size_t>(k)];
    batch.c[k] = coef ? coef[first + static_cast<std::size_t>(k)] : 0.0;
  }
  return batch;
}

void check_count(const char* what, std::size_t vectors, std::size_t values) {
  if (vectors != values) {
    throw Error(ErrorCode::invalid_argument, std::string(what) + ": " + std::to_string(vectors) + " vectors but " + std::to_string(values) + " values");
  }
}

// The batches of 8, 4, 3, 2, 1 vectors (Rupp), out_for(first) the writer of the batch starting at vector first.
template <class V, class OutFor>
void launch_mdot(const Executor& ex, long long n, const V* w, const std::vector<const V*>& vs, OutFor out_for, ReductionScratch& scratch) {
  const unsigned blocks = detail::reduction_blocks(n, ReductionScratch::kMaxBlocks);
  const auto s = detail::stream_of(ex);
  hsparse::detail::for_each_batch(vs.size(), [&](std::size_t k, int b) {
    const Batch<V> batch = make_batch(vs, k, b, static_cast<const double*>(nullptr));
    const auto o = out_for(k);
    switch (b) {
      case 8: mdot_kernel<8><<<blocks, detail::kReduceThreads, 0, s>>>(n, w, batch, o, scratch.partials(), scratch.counter()); break;
      case 4: mdot_kernel<4><<<blocks, detail::kReduceThreads, 0, s>>>(n, w, batch, o, scratch.partials(), scratch.counter()); break;
      case 3: mdot_kernel<3><<<blocks, detail::kReduceThreads, 0, s>>>(n, w, batch, o, scratch.partials(), scratch.counter()); break;
      case 2: mdot_kernel<2><<<blocks, detail::kReduceThreads, 0, s>>>(n, w, batch, o, scratch.partials(), scratch.counter()); break;
      default: mdot_kernel<1><<<blocks, detail::kReduceThreads, 0, s>>>(n, w, batch, o, scratch.partials(), scratch.counter()); break;
    }
    HSPARSE_CUDA_CHECK(cudaGetLastError());
  });
}

}  // namespace

ReductionScratch::ReductionScratch()
    : partials_(static_cast<std::size_t>(kMaxBlocks) * kMaxValues), results_(kMaxValues), counter_(1) {
  const unsigned zero = 0;
  counter_.upload(&zero, 1);
}

template <class V>
void mdot(const Executor& ex, long long n, const V* w, const std::vector<const V*>& vs, double* out, ReductionScratch& scratch) {
  launch_mdot(ex, n, w, vs, [out](std::size_t first) { return DoubleOut{out + first}; }, scratch);
}

template <class V>
void mdot_scaled(const Executor& ex, long long n, const V* w, const std::vector<const V*>& vs, V alpha, V beta, V* out, long long stride,
                 ReductionScratch& scratch) {
  launch_mdot(ex, n, w, vs, [=](std::size_t first) { return ScaledOut<V>{alpha, beta, out + static_cast<long long>(first) * stride, stride}; }, scratch);
}

template <class V>
void dot(const Executor& ex, long long n, const V* a, const V* b, double* out, ReductionScratch& scratch) {
  mdot<V>(ex, n, a, {b}, out, scratch);
}

template <class V>
void mdot_host(const Executor& ex, long long n, const V* w, const std::vector<const V*>& vs, std::span<dot_t<V>> out, ReductionScratch& scratch) {
  check_count("mdot", vs.size(), out.size());
  for (std::size_t k = 0; k < vs.size(); k += ReductionScratch::kMaxValues) {
    const std::size_t count = std::min<std::size_t>(ReductionScratch::kMaxValues, vs.size() - k);
    mdot<V>(ex, n, w, std::vector<const V*>(vs.begin() + static_cast<long>(k), vs.begin() + static_cast<long>(k + count)), scratch.results(), scratch);
    HSPARSE_CUDA_CHECK(cudaMemcpyAsync(out.data() + k, scratch.results(), count * sizeof(double), cudaMemcpyDeviceToHost, detail::stream_of(ex)));
    HSPARSE_CUDA_CHECK(cudaStreamSynchronize(detail::stream_of(ex)));
  }
}

template <class V>
dot_t<V> dot_host(const Executor& ex, long long n, const V* a, const V* b, ReductionScratch& scratch) {
  double r = 0;
  mdot_host<V>(ex, n, a, {b}, std::span<double>(&r, 1), scratch);
  return r;
}

template <class V>
void axpby(const Executor& ex, long long n, V alpha, const V* x, V beta, V* y) {
  if (n <= 0) return;
  axpby_kernel<<<elementwise_blocks(n), 256, 0, detail::stream_of(ex)>>>(n, alpha, x, beta, y, beta != V(0));
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

template <class V>
void maxpy_sub(const Executor& ex, long long n, std::span<const dot_t<V>> coef, const std::vector<const V*>& vs, V* y) {
  check_count("maxpy", vs.size(), coef.size());
  if (n <= 0) return;
  const auto s = detail::stream_of(ex);
  const unsigned blocks = elementwise_blocks(n);
  hsparse::detail::for_each_batch(vs.size(), [&](std::size_t k, int b) {
    const Batch<V> batch = make_batch(vs, k, b, coef.data());
    switch (b) {
      case 8: maxpy_kernel<8><<<blocks, 256, 0, s>>>(n, batch, y); break;
      case 4: maxpy_kernel<4><<<blocks, 256, 0, s>>>(n, batch, y); break;
      case 3: maxpy_kernel<3><<<blocks, 256, 0, s>>>(n, batch, y); break;
      case 2: maxpy_kernel<2><<<blocks, 256, 0, s>>>(n, batch, y); break;
      default: maxpy_kernel<1><<<blocks, 256, 0, s>>>(n, batch, y); break;
    }
    HSPARSE_CUDA_CHECK(cudaGetLastError());
  });
}

template <class V>
void fill_zero(const Executor& ex, long long n, V* y) {
  if (n > 0) HSPARSE_CUDA_CHECK(cudaMemsetAsync(y, 0, static_cast<std::size_t>(n) * sizeof(V), detail::stream_of(ex)));
}

template <class V>
void scale_by(const Executor& ex, long long n, const V* d, const V* r, V* z) {
  if (n <= 0) return;
  scale_by_kernel<<<elementwise_blocks(n), 256, 0, detail::stream_of(ex)>>>(n, d, r, z);
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

template <class V>
void mdot_as_dots(const Executor& ex, long long n, const V* w, const std::vector<const V*>& vs, double* out, ReductionScratch& scratch) {
  for (std::size_t k = 0; k < vs.size(); ++k) dot<V>(ex, n, w, vs[k], out + k, scratch);
}

// One cuBLAS handle per thread, bound to the stream of each call (cublas_handle.hpp).
cublasHandle_t cublas_handle(const Executor& ex) {
  thread_local cublasHandle_t handle = nullptr;
  if (!handle && cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) throw Error(ErrorCode::cuda, "cublasCreate failed");
  cublasSetStream(handle, detail::stream_of(ex));
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST);
  return handle;
}

template <class V>
void mdot_as_gemv(const Executor& ex, long long n, long long k, const V* w, const V* columns, V* out) {
  const V one = 1, zero = 0;
  cublasStatus_t st;
  if constexpr (std::is_same_v<V, double>) {
    st = cublasDgemv(cublas_handle(ex), CUBLAS_OP_T, static_cast<int>(n), static_cast<int>(k), &one, columns, static_cast<int>(n), w, 1, &zero, out, 1);
  } else {
    st = cublasSgemv(cublas_handle(ex), CUBLAS_OP_T, static_cast<int>(n), static_cast<int>(k), &one, columns, static_cast<int>(n), w, 1, &zero, out, 1);
  }
  if (st != CUBLAS_STATUS_SUCCESS) throw Error(ErrorCode::cuda, "cuBLAS gemv failed (status " + std::to_string(static_cast<int>(st)) + ")");
}

#define HSPARSE_INSTANTIATE(V)                                                                                                    \
  template void mdot(const Executor&, long long, const V*, const std::vector<const V*>&, double*, ReductionScratch&);            \
  template void mdot_scaled(const Executor&, long long, const V*, const std::vector<const V*>&, V, V, V*, long long, ReductionScratch&); \
  template void dot(const Executor&, long long, const V*, const V*, double*, ReductionScratch&);                                 \
  template void mdot_host(const Executor&, long long, const V*, const std::vector<const V*>&, std::span<double>, ReductionScratch&); \
  template double dot_host(const Executor&, long long, const V*, const V*, ReductionScratch&);                                   \
  template void axpby(const Executor&, long long, V, const V*, V, V*);                                                           \
  template void maxpy_sub(const Executor&, long long, std::span<const double>, const std::vector<const V*>&, V*);               \
  template void scale_by(const Executor&, long long, const V*, const V*, V*);                                                    \
  template void fill_zero(const Executor&, long long, V*);                                                                       \
  template void mdot_as_dots(const Executor&, long long, const V*, const std::vector<const V*>&, double*, ReductionScratch&);    \
  template void mdot_as_gemv(const Executor&, long long, long long, const V*, const V*, V*);
HSPARSE_INSTANTIATE(float)
HSPARSE_INSTANTIATE(double)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
