// The halo's gather on the GPU (backends/cuda/gather.hpp): one thread per
// entry, grid-stride. The value moves as an opaque word of its size, so
// complex values need no arithmetic type.
#include "hsparse/backends/cuda/gather.hpp"

#include <complex>

#include "device_common.cuh"

namespace hsparse::cuda {

namespace {

template <class Word>
__global__ void gather_kernel(long long n, const Word* __restrict__ src, const std::int64_t* __restrict__ indices, Word* __restrict__ dst) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    dst[i] = src[indices[i]];
  }
}

template <class T>
__global__ void scatter_add_kernel(long long n, const T* __restrict__ src, const std::int64_t* __restrict__ indices, T* __restrict__ dst) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    dst[indices[i]] += src[i];
  }
}

unsigned blocks_for(long long n) {
  const long long b = (n + 255) / 256;
  return static_cast<unsigned>(b > 65535 ? 65535 : b);
}

template <std::size_t Bytes> struct word;
template <> struct word<4> { using type = float; };
template <> struct word<8> { using type = double; };
template <> struct word<16> { using type = double2; };

}  // namespace

template <class V>
void gather(const Executor& ex, long long n, const V* src, const std::int64_t* indices, V* dst) {
  if (n <= 0) return;
  using W = typename word<sizeof(V)>::type;
  gather_kernel<W><<<blocks_for(n), 256, 0, detail::stream_of(ex)>>>(n, reinterpret_cast<const W*>(src), indices, reinterpret_cast<W*>(dst));
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

template <class V>
void scatter_add(const Executor& ex, long long n, const V* src, const std::int64_t* indices, V* dst) {
  if (n <= 0) return;
  using T = detail::device_t<V>;
  scatter_add_kernel<T><<<blocks_for(n), 256, 0, detail::stream_of(ex)>>>(n, reinterpret_cast<const T*>(src), indices, reinterpret_cast<T*>(dst));
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

#define HSPARSE_INSTANTIATE(V) template void scatter_add(const Executor&, long long, const V*, const std::int64_t*, V*);
HSPARSE_INSTANTIATE(float)
HSPARSE_INSTANTIATE(double)
HSPARSE_INSTANTIATE(std::complex<float>)
HSPARSE_INSTANTIATE(std::complex<double>)
#undef HSPARSE_INSTANTIATE
template void gather(const Executor&, long long, const float*, const std::int64_t*, float*);
template void gather(const Executor&, long long, const double*, const std::int64_t*, double*);
template void gather(const Executor&, long long, const std::complex<float>*, const std::int64_t*, std::complex<float>*);
template void gather(const Executor&, long long, const std::complex<double>*, const std::int64_t*, std::complex<double>*);

}  // namespace hsparse::cuda
