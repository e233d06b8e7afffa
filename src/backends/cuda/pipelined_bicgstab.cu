// Pipelined BiCGStab's fused kernels on the GPU (backends/cuda/pipelined_bicgstab.hpp).
// Each entry's arithmetic is that of src/backends/common/pipelined_bicgstab_rows.hpp
// (real values), in a grid-stride loop; the sums go through reduction.cuh's
// one-launch grid sum, so the totals are the same from run to run.
#include "hsparse/backends/cuda/pipelined_bicgstab.hpp"

#include "device_common.cuh"
#include "reduction.cuh"

namespace hsparse::cuda {

namespace {

template <class V>
__global__ void directions_kernel(long long n, bool first, V alpha, V beta, V omega, PipelinedBicgstabVectors<V> v, double* partials, unsigned* counter,
                                  double* out) {
  double s[2] = {0, 0};
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    if (first) {
      v.p2[i] = v.r2[i];
      v.s[i] = v.w[i];
      v.s2[i] = v.w2[i];
      v.z[i] = v.t[i];
    } else {
      v.p2[i] = v.r2[i] + beta * (v.p2[i] - omega * v.s2[i]);
      v.s[i] = v.w[i] + beta * (v.s[i] - omega * v.z[i]);
      v.s2[i] = v.w2[i] + beta * (v.s2[i] - omega * v.z2[i]);
      v.z[i] = v.t[i] + beta * (v.z[i] - omega * v.v[i]);
    }
    const V q = v.r[i] - alpha * v.s[i], y = v.w[i] - alpha * v.z[i];
    v.q[i] = q;
    v.q2[i] = v.r2[i] - alpha * v.s2[i];
    v.y[i] = y;
    s[0] += static_cast<double>(y) * static_cast<double>(q);
    s[1] += static_cast<double>(y) * static_cast<double>(y);
  }
  if (detail::grid_sum<2>(s, partials, counter) && threadIdx.x == 0) {
    out[0] = s[0];
    out[1] = s[1];
  }
}

template <class V>
__global__ void residuals_kernel(long long n, V alpha, V omega, PipelinedBicgstabVectors<V> v, double* partials, unsigned* counter, double* out) {
  double s[5] = {0, 0, 0, 0, 0};
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    v.x[i] += alpha * v.p2[i] + omega * v.q2[i];
    const V r = v.q[i] - omega * v.y[i];
    v.r[i] = r;
    v.r2[i] = v.q2[i] - omega * (v.w2[i] - alpha * v.z2[i]);
    const V w = v.y[i] - omega * (v.t[i] - alpha * v.v[i]);
    v.w[i] = w;
    const double rh = v.rhat[i];
    s[0] += rh * static_cast<double>(r);
    s[1] += rh * static_cast<double>(v.s[i]);
    s[2] += rh * static_cast<double>(w);
    s[3] += rh * static_cast<double>(v.z[i]);
    s[4] += static_cast<double>(r) * static_cast<double>(r);
  }
  if (detail::grid_sum<5>(s, partials, counter) && threadIdx.x == 0) {
#pragma unroll
    for (int k = 0; k < 5; ++k) out[k] = s[k];
  }
}

template <std::size_t K>
std::array<double, K> to_host(const Executor& ex, ReductionScratch& scratch) {
  std::array<double, K> h{};
  HSPARSE_CUDA_CHECK(cudaGetLastError());
  HSPARSE_CUDA_CHECK(cudaMemcpyAsync(h.data(), scratch.results(), K * sizeof(double), cudaMemcpyDeviceToHost, detail::stream_of(ex)));
  HSPARSE_CUDA_CHECK(cudaStreamSynchronize(detail::stream_of(ex)));
  return h;
}

}  // namespace

template <class V>
std::array<double, 2> pipelined_bicgstab_directions(const Executor& ex, bool first, V alpha, V beta, V omega, const PipelinedBicgstabVectors<V>& v,
                                                    ReductionScratch& scratch) {
  const auto n = static_cast<long long>(v.n);
  const unsigned blocks = detail::reduction_blocks(n, ReductionScratch::kMaxBlocks);
  directions_kernel<<<blocks, detail::kReduceThreads, 0, detail::stream_of(ex)>>>(n, first, alpha, beta, omega, v, scratch.partials(), scratch.counter(),
                                                                                   scratch.results());
  return to_host<2>(ex, scratch);
}

template <class V>
std::array<double, 5> pipelined_bicgstab_residuals(const Executor& ex, V alpha, V omega, const PipelinedBicgstabVectors<V>& v, ReductionScratch& scratch) {
  const auto n = static_cast<long long>(v.n);
  const unsigned blocks = detail::reduction_blocks(n, ReductionScratch::kMaxBlocks);
  residuals_kernel<<<blocks, detail::kReduceThreads, 0, detail::stream_of(ex)>>>(n, alpha, omega, v, scratch.partials(), scratch.counter(), scratch.results());
  return to_host<5>(ex, scratch);
}

#define HSPARSE_INSTANTIATE(V)                                                                                                                       \
  template std::array<double, 2> pipelined_bicgstab_directions(const Executor&, bool, V, V, V, const PipelinedBicgstabVectors<V>&, ReductionScratch&); \
  template std::array<double, 5> pipelined_bicgstab_residuals(const Executor&, V, V, const PipelinedBicgstabVectors<V>&, ReductionScratch&);
HSPARSE_INSTANTIATE(float)
HSPARSE_INSTANTIATE(double)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
