// ELL, HYB and DIA on the GPU. Decomposition: thread = one row; a warp's
// 32 rows read 32 consecutive slots of each ELL column / DIA diagonal
// (coalesced, the reason these layouts are column-major; DIA's in tiles of
// 32 rows, so that the warp's diagonals are one region: formats/dia_tiles.hpp).
// DIA with x staged in shared memory: dia_spmv_staged.cu.
#include <type_traits>

#include "device_common.cuh"
#include "hsparse/backends/cuda/format_spmv.hpp"
#include "hsparse/formats/dia_tiles.hpp"
#include "hsparse/formats/padding.hpp"

namespace hsparse::cuda {

namespace {

// A row's sum without its padded slots, for a row whose sum is not finite:
// padding (value 0) may have met NaN or infinity in x (formats/padding.hpp).
// The kernels' fast loops multiply every slot: a test per row, where a
// select per slot cost up to a third of the DIA and BCSR kernels' speed.
template <class D, class I>
__device__ __noinline__ D ell_row_without_padding(long long r, I padded_rows, I width, const I* __restrict__ col_idx, const D* __restrict__ values,
                                     const D* __restrict__ x) {
  D sum(0);
  for (I k = 0; k < width; ++k) {
    const long long slot = static_cast<long long>(k) * padded_rows + r;
    sum += entry_product(values[slot], x[col_idx[slot]]);
  }
  return sum;
}

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
  if (!is_finite_value(sum)) sum = ell_row_without_padding(r, padded_rows, width, col_idx, values, x);
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
  if (!is_finite_value(sum0)) sum0 = ell_row_without_padding(r, padded_rows, width, col_idx, values, x);
  if (!is_finite_value(sum1)) sum1 = ell_row_without_padding(r + 1, padded_rows, width, col_idx, values, x);
  detail::write_output(y, r, alpha, sum0, beta, read_y);
  if (r + 1 < rows) detail::write_output(y, r + 1, alpha, sum1, beta, read_y);
}

// Decomposition: thread = one row; its diagonals are taken kDiaBatch at a
// time, every value and x load of a batch issued before the first product.
// An H200 (4.5 TB/s) needs more bytes in flight than a load or two per
// thread: the plain loop, its loads under the "inside the matrix" branch,
// ran at 76% of the read bandwidth on the stencil. Measured, GFLOP/s
// (docs/results/2026-11-27-dia-loads-ahead-h200-h100):
//   H200 stencil 790 -> 887, banded 736 -> 855; H100 stencil 615 -> 642,
//   banded 590 -> 620.
// Launch bounds of six 256-thread blocks per SM (40 registers): at eight
// (32 registers) the H200 stencil ran 1-3% faster but the H100 stencil 4%
// and banded 4% slower; the unbatched loop allowed 52 registers (four
// blocks) fell to 676 on the H200's banded.
// Complex types take four blocks and a smaller batch (complex<float> 4,
// complex<double> 2): with more they spilled.
template <class D>
constexpr int kDiaBatch = std::is_floating_point_v<D> ? 8 : (sizeof(D) <= 8 ? 4 : 2);
template <class D>
constexpr int kDiaMinBlocks = std::is_floating_point_v<D> ? 6 : 4;

// A diagonal's column for a row, r + offset, in the unsigned type of I: a
// column left of the matrix wraps past every column (cols < 2^31 for
// int32), so one unsigned comparison with cols tests "inside the matrix",
// where the 64-bit signed column took two comparisons, two selects and
// 64-bit adds per slot. Measured (H200, same-call ABBA, L2 flushed,
// GFLOP/s): stencil 894 -> 909, banded 862 -> 879
// (docs/results/2026-11-27-vector-dia-sell-kernels-h200/ab-dia-unsigned.csv).
template <class I>
using DiaColumn = std::make_unsigned_t<I>;

// DIA's row without padding (formats/dia_tiles.hpp), kept out of line: the
// rare path stays out of the kernel's registers and code.
template <class D, class I>
__device__ __noinline__ D dia_row_without_padding(long long r, I cols, int diagonals, const I* __restrict__ offsets, const D* __restrict__ values,
                                                  const D* __restrict__ x) {
  return dia_tiled_row_without_padding(r, cols, diagonals, offsets, values, x);
}

template <class D, class I>
__global__ void __launch_bounds__(256, kDiaMinBlocks<D>)
    dia_kernel(I rows, I cols, int diagonals, const I* __restrict__ offsets, const D* __restrict__ values, const D* __restrict__ x,
               D alpha, D beta, bool read_y, D* __restrict__ y) {
  using K = DiaColumn<I>;
  const long long r = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (r >= rows) return;
  // A slot outside the matrix holds 0; its x is read at column 0 (a valid
  // address, so the load need not wait for the test) and the select drops
  // the product (x may hold inf: 0 * inf would be NaN). A padded slot
  // inside the matrix is multiplied; a row whose sum is then not finite is
  // summed again without it (formats/padding.hpp).
  const K row = static_cast<K>(r), width = static_cast<K>(cols);
  const D* slot = values + dia_tiled_slot(r, 0, diagonals);  // this row's slot of diagonal d: slot[d * kDiaTileRows] (DeviceDia's tiles)
  constexpr int stride = kDiaTileRows;
  D sum(0);
  int d = 0;
  constexpr int batch = kDiaBatch<D>;
  for (; d + batch <= diagonals; d += batch) {
    // The batch's offsets first, then its value and x loads, then the
    // products. Written as one product per diagonal, the same loop kept
    // each x load behind its own offset load in the code ptxas received and
    // ran at 545 GFLOP/s on the H100's stencil, against 642 in this order.
    K c[batch];
#pragma unroll
    for (int k = 0; k < batch; ++k) c[k] = row + static_cast<K>(offsets[d + k]);
    D v[batch], xc[batch];
#pragma unroll
    for (int k = 0; k < batch; ++k) {
      v[k] = *slot;
      slot += stride;
      xc[k] = x[c[k] < width ? c[k] : K(0)];
    }
#pragma unroll
    for (int k = 0; k < batch; ++k) sum += c[k] < width ? v[k] * xc[k] : D(0);  // diagonal order, as the reference sums
  }
  for (; d < diagonals; ++d, slot += stride) {
    const K c = row + static_cast<K>(offsets[d]);
    const D v = *slot;
    const D xc = x[c < width ? c : K(0)];
    sum += c < width ? v * xc : D(0);
  }
  if (!is_finite_value(sum)) sum = dia_row_without_padding(r, cols, diagonals, offsets, values, x);
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
      a.rows, a.cols, a.cols == 0 ? 0 : static_cast<int>(a.offsets.size()),  // no columns: no x to clamp into, y = beta y
      a.offsets.data(), detail::dev(a.values.data()), detail::dev(x),
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
