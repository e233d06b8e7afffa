// CSR scalar SpMV. Decomposition: thread = one row (grid-stride for very
// tall matrices); warp = 32 consecutive rows; block = 256 rows.
#include "device_common.cuh"
#include "hsparse/backends/cuda/csr_spmv.hpp"

namespace hsparse::cuda {

namespace {

template <class D, class I>
__global__ void csr_scalar_kernel(I rows, const I* __restrict__ row_ptr, const I* __restrict__ col_idx,
                                  const D* __restrict__ values, const D* __restrict__ x, D alpha, D beta, bool read_y,
                                  D* __restrict__ y) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long r = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; r < rows; r += stride) {
    D sum(0);
    for (I k = row_ptr[r]; k < row_ptr[r + 1]; ++k) sum += values[k] * x[col_idx[k]];
    detail::write_output(y, r, alpha, sum, beta, read_y);
  }
}

}  // namespace

template <class V, class I>
void csr_spmv_scalar(const Executor& ex, V alpha, const DeviceCsr<V, I>& a, const V* x, V beta, V* y) {
  if (a.rows == 0) return;
  using D = detail::device_t<V>;
  constexpr int block = 256;
  csr_scalar_kernel<D, I><<<detail::grid_for(a.rows, block), block, 0, detail::stream_of(ex)>>>(
      a.rows, a.row_ptr.data(), a.col_idx.data(), detail::dev(a.values.data()), detail::dev(x), detail::dev_value(alpha),
      detail::dev_value(beta), beta != V(0), detail::dev(y));
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

#define HSPARSE_INSTANTIATE(V, I) \
  template void csr_spmv_scalar(const Executor&, V, const DeviceCsr<V, I>&, const V*, V, V*);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
