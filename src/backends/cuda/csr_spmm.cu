// SpMM on the GPU (kernels/csr_spmm.hpp), per pass of up to 32 columns:
//  1. X's columns are packed row-major (x_r[c * KC + j] = X(c, j0 + j)), so
//     a nonzero's KC products read one contiguous run: with column-major X
//     a random matrix's gathers touched KC lines per nonzero and the pass's
//     X (KC x 24 MB at 3 M rows) thrashed the L2 (0.4x of KC SpMVs,
//     measured on the H200 at b7f3594);
//  2. short rows: COOP threads per row (the CSR vector kernel's
//     decomposition, its fixed rule's coop), each thread walking the row's
//     nonzeros with stride COOP and keeping KC sums in registers; the
//     group's sums are reduced with shuffles;
//  3. rows longer than kLongRow: a block of 256 threads per row (a warp per
//     row serialised power-law rows: 0.01x at b7f3594), warp shuffles then
//     warps in order through shared memory: deterministic, no atomics.
// A's entries are read once per pass.
#include <algorithm>

#include "device_common.cuh"
#include "hsparse/backends/cuda/csr_spmv.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/kernels/csr_spmm.hpp"

namespace hsparse::cuda {

namespace {

constexpr int kThreads = 256;
constexpr long long kLongRow = 4096;  // entries: from here a block per row

template <class D>
__global__ void pack_rows_kernel(long long cols, int kc, int KC, const D* __restrict__ x, long long ldx, D* __restrict__ xr) {
  for (long long e = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; e < cols * KC; e += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long c = e / KC;
    const int j = static_cast<int>(e % KC);
    xr[e] = j < kc ? x[c + j * ldx] : D(0);
  }
}

template <int KC, class D>
__device__ __forceinline__ void write_row(D* y, long long ldy, long long row, int kc, const D (&acc)[KC], D alpha, D beta) {
#pragma unroll
  for (int j = 0; j < KC; ++j) {
    if (j < kc) {
      D& out = y[row + j * ldy];
      out = beta == D(0) ? alpha * acc[j] : alpha * acc[j] + beta * out;
    }
  }
}

template <int KC, class D, class I>
__global__ void __launch_bounds__(kThreads) spmm_short_kernel(I rows, const I* __restrict__ row_ptr, const I* __restrict__ col_idx,
                                                              const D* __restrict__ values, int coop, int kc, const D* __restrict__ xr, D alpha,
                                                              D beta, D* __restrict__ y, long long ldy) {
  const int lane = threadIdx.x % coop;
  const long long groups = static_cast<long long>(gridDim.x) * (kThreads / coop);
  // All lanes of a warp stay in the loop while any of its rows is left (the shuffles need them).
  for (long long row = (blockIdx.x * static_cast<long long>(kThreads) + threadIdx.x) / coop; row - (threadIdx.x % 32) / coop < rows;
       row += groups) {
    D acc[KC];
#pragma unroll
    for (int j = 0; j < KC; ++j) acc[j] = D(0);
    bool mine = row < rows;
    if (mine) {
      const I begin = row_ptr[row], end = row_ptr[row + 1];
      mine = end - begin <= kLongRow;  // long rows are the long-row kernel's
      if (mine) {
        for (I p = begin + lane; p < end; p += coop) {
          const D v = values[p];
          const D* xc = xr + static_cast<long long>(col_idx[p]) * KC;
#pragma unroll
          for (int j = 0; j < KC; ++j) acc[j] += v * xc[j];
        }
      }
    }
#pragma unroll
    for (int j = 0; j < KC; ++j) acc[j] = detail::group_sum_n(acc[j], coop);
    if (lane == 0 && mine) write_row<KC>(y, ldy, row, kc, acc, alpha, beta);
  }
}

template <int KC, class D, class I>
__global__ void __launch_bounds__(kThreads) spmm_long_kernel(const long long* __restrict__ long_rows, const I* __restrict__ row_ptr,
                                                             const I* __restrict__ col_idx, const D* __restrict__ values, int kc,
                                                             const D* __restrict__ xr, D alpha, D beta, D* __restrict__ y, long long ldy) {
  __shared__ D warp_sums[kThreads / 32][KC];
  const long long row = long_rows[blockIdx.x];
  D acc[KC];
#pragma unroll
  for (int j = 0; j < KC; ++j) acc[j] = D(0);
  for (I p = row_ptr[row] + threadIdx.x; p < row_ptr[row + 1]; p += kThreads) {
    const D v = values[p];
    const D* xc = xr + static_cast<long long>(col_idx[p]) * KC;
#pragma unroll
    for (int j = 0; j < KC; ++j) acc[j] += v * xc[j];
  }
#pragma unroll
  for (int j = 0; j < KC; ++j) {
    const D s = detail::group_sum_n(acc[j], 32);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32][j] = s;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    D total[KC];
#pragma unroll
    for (int j = 0; j < KC; ++j) {
      total[j] = D(0);
      for (int w = 0; w < kThreads / 32; ++w) total[j] += warp_sums[w][j];  // warps in order
    }
    write_row<KC>(y, ldy, row, kc, total, alpha, beta);
  }
}

template <int KC, class D, class I>
void launch(const Executor& ex, unsigned grid, I rows, const I* rp, const I* ci, const D* values, int coop, int kc, const D* xr, D alpha, D beta, D* y,
            long long ldy, const long long* long_rows, long long long_count) {
  const auto s = detail::stream_of(ex);
  spmm_short_kernel<KC, D, I><<<grid, kThreads, 0, s>>>(rows, rp, ci, values, coop, kc, xr, alpha, beta, y, ldy);
  if (long_count > 0) {
    spmm_long_kernel<KC, D, I><<<static_cast<unsigned>(long_count), kThreads, 0, s>>>(long_rows, rp, ci, values, kc, xr, alpha, beta, y, ldy);
  }
}

}  // namespace

template <class I>
SpmmWorkspace spmm_workspace(std::span<const I> row_ptr) {
  std::vector<long long> rows;
  for (std::size_t i = 0; i + 1 < row_ptr.size(); ++i) {
    if (static_cast<long long>(row_ptr[i + 1] - row_ptr[i]) > kLongRow) rows.push_back(static_cast<long long>(i));
  }
  SpmmWorkspace r;
  r.count = static_cast<long long>(rows.size());
  if (!rows.empty()) r.rows = DeviceArray<long long>(rows);
  return r;
}

template <class V, class I>
void csr_spmm(const Executor& ex, V alpha, const DeviceCsr<V, I>& a, SpmmWorkspace& workspace, const ConstDenseView<V>& x, V beta,
              const DenseView<V>& y) {
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
  const int first_kc = static_cast<int>(std::min<long long>(kSpmmColumns, x.cols));
  const int first_KC = first_kc <= 1 ? 1 : first_kc <= 2 ? 2 : first_kc <= 4 ? 4 : first_kc <= 8 ? 8 : first_kc <= 16 ? 16 : 32;
  const std::size_t packed_bytes = static_cast<std::size_t>(std::max<long long>(1, a.cols)) * first_KC * sizeof(D);
  if (workspace.packed.size() < packed_bytes) workspace.packed = DeviceArray<unsigned char>(packed_bytes);  // cudaFree waits for earlier users
  D* const xr = reinterpret_cast<D*>(workspace.packed.data());
  const I* rp = a.row_ptr.data();
  const I* ci = a.col_idx.data();
  const D* v = detail::dev(a.values.data());
  for (long long j0 = 0; j0 < x.cols; j0 += kSpmmColumns) {
    const int kc = static_cast<int>(std::min<long long>(kSpmmColumns, x.cols - j0));
    const int KC = kc <= 1 ? 1 : kc <= 2 ? 2 : kc <= 4 ? 4 : kc <= 8 ? 8 : kc <= 16 ? 16 : 32;
    const auto pack_grid = static_cast<unsigned>(std::clamp<long long>((a.cols * KC + kThreads - 1) / kThreads, 1, 16LL * ex.multiprocessors()));
    pack_rows_kernel<D><<<pack_grid, kThreads, 0, detail::stream_of(ex)>>>(a.cols, kc, KC, detail::dev(x.data + j0 * x.ld), x.ld, xr);
    D* ys = detail::dev(y.data + j0 * y.ld);
    const long long* lr = workspace.rows.data();
    switch (KC) {
      case 1: launch<1>(ex, grid, a.rows, rp, ci, v, coop, kc, xr, al, be, ys, y.ld, lr, workspace.count); break;
      case 2: launch<2>(ex, grid, a.rows, rp, ci, v, coop, kc, xr, al, be, ys, y.ld, lr, workspace.count); break;
      case 4: launch<4>(ex, grid, a.rows, rp, ci, v, coop, kc, xr, al, be, ys, y.ld, lr, workspace.count); break;
      case 8: launch<8>(ex, grid, a.rows, rp, ci, v, coop, kc, xr, al, be, ys, y.ld, lr, workspace.count); break;
      case 16: launch<16>(ex, grid, a.rows, rp, ci, v, coop, kc, xr, al, be, ys, y.ld, lr, workspace.count); break;
      default: launch<32>(ex, grid, a.rows, rp, ci, v, coop, kc, xr, al, be, ys, y.ld, lr, workspace.count); break;
    }
  }
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

template SpmmWorkspace spmm_workspace(std::span<const std::int32_t>);
template SpmmWorkspace spmm_workspace(std::span<const std::int64_t>);

#define HSPARSE_INSTANTIATE(V, I) \
  template void csr_spmm(const Executor&, V, const DeviceCsr<V, I>&, SpmmWorkspace&, const ConstDenseView<V>&, V, const DenseView<V>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
