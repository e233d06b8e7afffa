// ELL, HYB and DIA on the GPU. Decomposition: thread = one row; a warp's
// 32 rows read 32 consecutive slots of each ELL column / DIA diagonal
// (coalesced, the reason these layouts are column-major). DIA with x staged
// in shared memory: dia_spmv_staged.cu.
#include "device_common.cuh"
#include "hsparse/backends/cuda/format_spmv.hpp"

namespace hsparse::cuda {

namespace {

template <class D, class I>
__global__ void ell_kernel(I rows, I padded_rows, I width, const I* __restrict__ col_idx, const D* __restrict__ values,
                           const D* __restrict__ x, D alpha, D beta, bool read_y, D* __restrict__ y) {
  const long long r = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (r >= rows) return;
  D sum(0);
#pragma unroll 4
  for (I k = 0; k < width; ++k) {
    const long long slot = static_cast<long long>(k) * padded_rows + r;
    sum += detail::stream_load(values + slot) * x[detail::stream_load(col_idx + slot)];  // padding: value 0 at the row's own last column
  }
  detail::write_output(y, r, alpha, sum, beta, read_y);
}

// Two values loaded as one (aligned to their combined size).
template <class T>
struct alignas(2 * sizeof(T)) Pair {
  T first, second;
};

template <class D, class I>
__global__ void ell_pair_kernel(I rows, I padded_rows, I width, const I* __restrict__ col_idx, const D* __restrict__ values,
                                const D* __restrict__ x, D alpha, D beta, bool read_y, D* __restrict__ y) {
  const long long r = 2 * (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x);
  if (r >= rows) return;
  D sum0(0), sum1(0);
  for (I k = 0; k < width; ++k) {
    const long long slot = static_cast<long long>(k) * padded_rows + r;  // even: the pair is aligned
    const Pair<D> v = *reinterpret_cast<const Pair<D>*>(values + slot);
    const Pair<I> c = *reinterpret_cast<const Pair<I>*>(col_idx + slot);
    sum0 += v.first * x[c.first];  // row r + 1 may be padding (< padded_rows): value 0, a valid column
    sum1 += v.second * x[c.second];
  }
  detail::write_output(y, r, alpha, sum0, beta, read_y);
  if (r + 1 < rows) detail::write_output(y, r + 1, alpha, sum1, beta, read_y);
}

template <class D, class I>
__global__ void dia_kernel(I rows, I cols, int diagonals, const I* __restrict__ offsets, const D* __restrict__ values,
                           const D* __restrict__ x, D alpha, D beta, bool read_y, D* __restrict__ y) {
  const long long r = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (r >= rows) return;
  D sum(0);
#pragma unroll 8
  for (int d = 0; d < diagonals; ++d) {
    const long long c = r + offsets[d];
    if (c >= 0 && c < cols) sum += values[static_cast<long long>(d) * rows + r] * x[c];
  }
  detail::write_output(y, r, alpha, sum, beta, read_y);
}

}  // namespace

template <class V, class I>
void ell_spmv(const Executor& ex, V alpha, const DeviceEll<V, I>& a, const V* x, V beta, V* y, int rows_per_thread) {
  if (a.rows == 0) return;
  using D = detail::device_t<V>;
  if (rows_per_thread == 2 && a.padded_rows % 2 == 0) {
    ell_pair_kernel<D, I><<<detail::grid_for((a.rows + 1) / 2, 256), 256, 0, detail::stream_of(ex)>>>(
        a.rows, a.padded_rows, a.width, a.col_idx.data(), detail::dev(a.values.data()), detail::dev(x), detail::dev_value(alpha),
        detail::dev_value(beta), beta != V(0), detail::dev(y));
    HSPARSE_CUDA_CHECK(cudaGetLastError());
    return;
  }
  ell_kernel<D, I><<<detail::grid_for(a.rows, 256), 256, 0, detail::stream_of(ex)>>>(
      a.rows, a.padded_rows, a.width, a.col_idx.data(), detail::dev(a.values.data()), detail::dev(x), detail::dev_value(alpha),
      detail::dev_value(beta), beta != V(0), detail::dev(y));
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

template <class V, class I>
void hyb_spmv(const Executor& ex, V alpha, const DeviceHyb<V, I>& a, const V* x, V beta, V* y, void* coo_workspace) {
  ell_spmv(ex, alpha, a.ell, x, beta, y);
  if (a.coo.nnz() > 0) coo_spmv_segmented(ex, alpha, a.coo, x, V(1), y, coo_workspace);
}

template <class V, class I>
void dia_spmv(const Executor& ex, V alpha, const DeviceDia<V, I>& a, const V* x, V beta, V* y) {
  if (a.rows == 0) return;
  using D = detail::device_t<V>;
  dia_kernel<D, I><<<detail::grid_for(a.rows, 256), 256, 0, detail::stream_of(ex)>>>(
      a.rows, a.cols, static_cast<int>(a.offsets.size()), a.offsets.data(), detail::dev(a.values.data()), detail::dev(x),
      detail::dev_value(alpha), detail::dev_value(beta), beta != V(0), detail::dev(y));
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

#define HSPARSE_INSTANTIATE(V, I)                                                                  \
  template void ell_spmv(const Executor&, V, const DeviceEll<V, I>&, const V*, V, V*, int);             \
  template void hyb_spmv(const Executor&, V, const DeviceHyb<V, I>&, const V*, V, V*, void*);      \
  template void dia_spmv(const Executor&, V, const DeviceDia<V, I>&, const V*, V, V*);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
