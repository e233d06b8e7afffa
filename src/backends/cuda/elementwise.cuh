#pragma once
// The solvers' elementwise kernels, for every value type the device code
// has (float, double, cuda::std::complex): shared by the real vector
// kernels (vector_ops.cu) and the complex ones (complex_vector_ops.cu).
namespace hsparse::cuda::detail {

// y = alpha x + beta y (read_y false: y not read).
template <class V>
__global__ void axpby_kernel(long long n, V alpha, const V* __restrict__ x, V beta, V* __restrict__ y, bool read_y) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    y[i] = read_y ? alpha * x[i] + beta * y[i] : alpha * x[i];
  }
}

// z = d .* r.
template <class V>
__global__ void scale_by_kernel(long long n, const V* __restrict__ d, const V* __restrict__ r, V* __restrict__ z) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    z[i] = d[i] * r[i];
  }
}

// Elementwise kernels: enough blocks of 256 to fill the GPU, grid-stride beyond.
inline unsigned elementwise_blocks(long long n) {
  const long long b = (n + 255) / 256;
  return static_cast<unsigned>(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

}  // namespace hsparse::cuda::detail
