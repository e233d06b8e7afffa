// SpMM on the GPU (kernels/csr_spmm.hpp): COOP threads share a row (the
// CSR vector kernel's decomposition, Reguly's coop, by its fixed rule),
// each thread walks the row's nonzeros with stride COOP and keeps KC column
// sums in registers, so every nonzero (value and index) is read once for
// KC columns of X; the group's sums are reduced with shuffles and lane j
// of the group writes column j. KC is the next power of two above the
// columns left (<= 32): one pass over A for up to 32 columns.
#include <algorithm>

#include "device_common.cuh"
#include "hsparse/backends/cuda/csr_spmv.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/kernels/csr_spmm.hpp"

namespace hsparse::cuda {

namespace {

constexpr int kThreads = 256;

template <int KC, class D, class I>
__global__ void __launch_bounds__(kThreads) csr_spmm_kernel(I rows, const I* __restrict__ row_ptr, const I* __restrict__ col_idx,
                                                            const D* __restrict__ values, int coop, int kc, const D* __restrict__ x, long long ldx,
                                                            D alpha, D beta, D* __restrict__ y, long long ldy) {
  const int lane = threadIdx.x % coop;
  const long long groups = static_cast<long long>(gridDim.x) * (kThreads / coop);
  for (long long row = (blockIdx.x * static_cast<long long>(kThreads) + threadIdx.x) / coop; row - (threadIdx.x % 32) / coop < rows;
       row += groups) {
    D acc[KC];
#pragma unroll
    for (int j = 0; j < KC; ++j) acc[j] = D(0);
    if (row < rows) {
      const I end = row_ptr[row + 1];
      for (I p = row_ptr[row] + lane; p < end; p += coop) {
        const D v = values[p];
        const D* xc = x + static_cast<long long>(col_idx[p]);
#pragma unroll
        for (int j = 0; j < KC; ++j) {
          if (j < kc) acc[j] += v * xc[j * ldx];
        }
      }
    }
    // Every lane of the warp shuffles (rows past the end hold zeros); the
    // group's lane 0 then has the sums.
#pragma unroll
    for (int j = 0; j < KC; ++j) acc[j] = detail::group_sum_n(acc[j], coop);
    if (lane == 0 && row < rows) {
#pragma unroll
      for (int j = 0; j < KC; ++j) {
        if (j < kc) {
          D& out = y[row + j * ldy];
          out = beta == D(0) ? alpha * acc[j] : alpha * acc[j] + beta * out;
        }
      }
    }
  }
}

template <int KC, class D, class I>
void launch(const Executor& ex, unsigned grid, I rows, const I* rp, const I* ci, const D* values, int coop, int kc, const D* x, long long ldx, D alpha,
            D beta, D* y, long long ldy) {
  csr_spmm_kernel<KC, D, I><<<grid, kThreads, 0, detail::stream_of(ex)>>>(rows, rp, ci, values, coop, kc, x, ldx, alpha, beta, y, ldy);
}

}  // namespace

template <class V, class I>
void csr_spmm(const Executor& ex, V alpha, const DeviceCsr<V, I>& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y) {
  if (x.rows != a.cols || y.rows != a.rows || x.cols != y.cols) {
    throw Error(ErrorCode::invalid_argument, "SpMM shapes do not match: A " + std::to_string(a.rows) + " x " + std::to_string(a.cols) + ", X " +
                                                 std::to_string(x.rows) + " x " + std::to_string(x.cols) + ", Y " + std::to_string(y.rows) + " x " +
                                                 std::to_string(y.cols));
  }
  if (a.rows == 0 || x.cols == 0) return;
  using D = detail::device_t<V>;
  const int coop = csr_vector_fixed_rule(a.rows, static_cast<long long>(a.nnz()), ex.shape()).coop;
  const long long needed = (static_cast<long long>(a.rows) * coop + kThreads - 1) / kThreads;
  const auto grid = static_cast<unsigned>(std::clamp<long long>(needed, 1, 32LL * ex.multiprocessors()));
  const D al = detail::dev_value(alpha), be = detail::dev_value(beta);
  for (long long j0 = 0; j0 < x.cols; j0 += kSpmmColumns) {
    const int kc = static_cast<int>(std::min<long long>(kSpmmColumns, x.cols - j0));
    const D* xs = detail::dev(x.data + j0 * x.ld);
    D* ys = detail::dev(y.data + j0 * y.ld);
    const I* rp = a.row_ptr.data();
    const I* ci = a.col_idx.data();
    const D* v = detail::dev(a.values.data());
    if (kc <= 1) launch<1>(ex, grid, a.rows, rp, ci, v, coop, kc, xs, x.ld, al, be, ys, y.ld);
    else if (kc <= 2) launch<2>(ex, grid, a.rows, rp, ci, v, coop, kc, xs, x.ld, al, be, ys, y.ld);
    else if (kc <= 4) launch<4>(ex, grid, a.rows, rp, ci, v, coop, kc, xs, x.ld, al, be, ys, y.ld);
    else if (kc <= 8) launch<8>(ex, grid, a.rows, rp, ci, v, coop, kc, xs, x.ld, al, be, ys, y.ld);
    else if (kc <= 16) launch<16>(ex, grid, a.rows, rp, ci, v, coop, kc, xs, x.ld, al, be, ys, y.ld);
    else launch<32>(ex, grid, a.rows, rp, ci, v, coop, kc, xs, x.ld, al, be, ys, y.ld);
  }
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

#define HSPARSE_INSTANTIATE(V, I) \
  template void csr_spmm(const Executor&, V, const DeviceCsr<V, I>&, const ConstDenseView<V>&, V, const DenseView<V>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
