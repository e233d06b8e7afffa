// CSR scalar SpMV: thread t of the grid owns row t (grid-stride for very
// tall matrices). Loads of x go through the read-only path (__ldg).
// Decomposition: thread = one row; warp = 32 consecutive rows; block = 256 rows.
#include <cuda/std/complex>

#include "check.cuh"
#include "hsparse/backends/cuda/csr_spmv.hpp"

namespace hsparse::cuda {

namespace {

// std::complex and cuda::std::complex share their layout; kernels use the latter.
template <class V> struct device_type { using type = V; };
template <class R> struct device_type<std::complex<R>> { using type = ::cuda::std::complex<R>; };
template <class V> using device_t = typename device_type<V>::type;

template <class V, class I>
__global__ void csr_spmv_scalar_kernel(I rows, const I* __restrict__ row_ptr, const I* __restrict__ col_idx,
                                       const V* __restrict__ values, const V* __restrict__ x, V alpha, V beta,
                                       bool read_y, V* __restrict__ y) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long r = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; r < rows; r += stride) {
    V sum(0);
    for (I k = row_ptr[r]; k < row_ptr[r + 1]; ++k) sum += values[k] * x[col_idx[k]];
    y[r] = read_y ? alpha * sum + beta * y[r] : alpha * sum;
  }
}

}  // namespace

template <class V, class I>
void csr_spmv_scalar(V alpha, const DeviceCsr<V, I>& a, const V* x, V beta, V* y) {
  using D = device_t<V>;
  if (a.rows == 0) return;
  constexpr int block = 256;
  const long long blocks = std::min<long long>((static_cast<long long>(a.rows) + block - 1) / block, 1LL << 20);
  csr_spmv_scalar_kernel<D, I><<<static_cast<unsigned>(blocks), block>>>(
      a.rows, a.row_ptr.data(), a.col_idx.data(), reinterpret_cast<const D*>(a.values.data()),
      reinterpret_cast<const D*>(x), *reinterpret_cast<const D*>(&alpha), *reinterpret_cast<const D*>(&beta),
      beta != V(0), reinterpret_cast<D*>(y));
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

#define HSPARSE_INSTANTIATE(V, I) \
  template void csr_spmv_scalar(V, const DeviceCsr<V, I>&, const V*, V, V*);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
