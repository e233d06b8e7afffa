// SELL-C-sigma on the GPU (Kreutzer et al. 2014, section 3 and 5).
// Thread per row: thread i owns sorted row i and stops at the row's own
// length (no padding loads); with C = 32 a warp owns one chunk and its
// loads of each chunk column are one coalesced 32-element access.
// T threads per row (Sliced ELLR-T): T lanes share a row, lane t taking the
// row's entries t, t+T, ...; the T partial sums are reduced by shuffles.
#include <type_traits>

#include "device_common.cuh"
#include "hsparse/backends/cuda/format_spmv.hpp"

namespace hsparse::cuda {

namespace {

template <class I>
__device__ __forceinline__ long long output_row(long long i, bool in_sorted_order, const I* __restrict__ perm) {
  return in_sorted_order ? i : static_cast<long long>(perm[i]);
}

// Entries per thread per step in the thread-per-row kernel: a step issues
// its values and columns, then its x gathers, then adds its products in row
// order (the sums are those of one entry a step). Its index arithmetic is in
// the unsigned type of I: with int32 every slot is below 2^31 (chunk_ptr is
// I), where the 64-bit division of the row by C cost tens of instructions
// per row of 5-25 entries. Measured (H200, same-call ABBA against one entry
// a step with 64-bit indices, L2 flushed, GFLOP/s): replicated cage10
// 429 -> 587 at sigma 1 (cuSPARSE's SELL 506), stencil 602 -> 653
// (docs/results/2026-11-27-vector-dia-sell-kernels-h200/ab-sell-4-a-step.csv).
constexpr int kSellEntriesPerStep = 4;

template <class D, class I>
__global__ void sell_thread_kernel(I rows, int C, const I* __restrict__ chunk_ptr, const I* __restrict__ row_len,
                                   const I* __restrict__ perm, bool in_sorted_order, const I* __restrict__ col_idx,
                                   const D* __restrict__ values, const D* __restrict__ x, D alpha, D beta, bool read_y,
                                   D* __restrict__ y) {
  using K = std::make_unsigned_t<I>;
  constexpr int U = kSellEntriesPerStep;
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= rows) return;
  const K row = static_cast<K>(i), chunk = static_cast<K>(C);
  const K base = static_cast<K>(chunk_ptr[row / chunk]) + row % chunk;
  const K len = static_cast<K>(row_len[row]);
  const D* row_values = values + base;
  const I* row_columns = col_idx + base;
  D sum(0);
  for (K k = 0; k < len; k += U) {
    D v[U];
    I c[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const bool in_row = k + u < len;
      v[u] = in_row ? row_values[(k + u) * chunk] : D(0);
      c[u] = in_row ? row_columns[(k + u) * chunk] : I(0);
    }
    D xv[U];
#pragma unroll
    for (int u = 0; u < U; ++u) xv[u] = k + u < len ? x[c[u]] : D(0);
#pragma unroll
    for (int u = 0; u < U; ++u) {
      if (k + u < len) sum += v[u] * xv[u];
    }
  }
  detail::write_output(y, output_row(i, in_sorted_order, perm), alpha, sum, beta, read_y);
}

template <int T, class D, class I>
__global__ void sell_threads_kernel(I rows, int C, const I* __restrict__ chunk_ptr, const I* __restrict__ row_len,
                                    const I* __restrict__ perm, bool in_sorted_order, const I* __restrict__ col_idx,
                                    const D* __restrict__ values, const D* __restrict__ x, D alpha, D beta, bool read_y,
                                    D* __restrict__ y) {
  const long long gid = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long i = gid / T;
  const int lane = static_cast<int>(gid % T);
  D sum(0);
  if (i < rows) {
    const long long base = static_cast<long long>(chunk_ptr[i / C]) + i % C;
    const I len = row_len[i];
    for (I k = lane; k < len; k += T) sum += values[base + static_cast<long long>(k) * C] * x[col_idx[base + static_cast<long long>(k) * C]];
  }
  sum = detail::group_sum<T>(sum);  // every lane of the warp reaches the shuffle
  if (lane == 0 && i < rows) detail::write_output(y, output_row(i, in_sorted_order, perm), alpha, sum, beta, read_y);
}

}  // namespace

template <class V, class I>
void sell_spmv_thread_per_row(const Executor& ex, V alpha, const DeviceSell<V, I>& a, const V* x, V beta, V* y) {
  if (a.rows == 0) return;
  using D = detail::device_t<V>;
  sell_thread_kernel<D, I><<<detail::grid_for(a.rows, 128), 128, 0, detail::stream_of(ex)>>>(
      a.rows, a.chunk, a.chunk_ptr.data(), a.row_len.data(), a.perm.data(), a.permuted_columns || a.identity_order,
      a.col_idx.data(), detail::dev(a.values.data()), detail::dev(x), detail::dev_value(alpha), detail::dev_value(beta),
      beta != V(0), detail::dev(y));
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

template <class V, class I>
void sell_spmv_threads_per_row(const Executor& ex, V alpha, const DeviceSell<V, I>& a, const V* x, V beta, V* y, int threads_per_row) {
  const int T = threads_per_row;
  if (T < 2 || T > 32 || (T & (T - 1)) != 0) {
    throw Error(ErrorCode::invalid_argument, "SELL-C-sigma: threads per row must be 2, 4, 8, 16 or 32");
  }
  if (a.rows == 0) return;
  using D = detail::device_t<V>;
  const unsigned grid = detail::grid_for(static_cast<long long>(a.rows) * T, 128);
  auto launch = [&](auto kernel) {
    kernel<<<grid, 128, 0, detail::stream_of(ex)>>>(a.rows, a.chunk, a.chunk_ptr.data(), a.row_len.data(), a.perm.data(),
                                                    a.permuted_columns || a.identity_order, a.col_idx.data(),
                                                    detail::dev(a.values.data()), detail::dev(x), detail::dev_value(alpha),
                                                    detail::dev_value(beta), beta != V(0), detail::dev(y));
  };
  switch (T) {
    case 2: launch(sell_threads_kernel<2, D, I>); break;
    case 4: launch(sell_threads_kernel<4, D, I>); break;
    case 8: launch(sell_threads_kernel<8, D, I>); break;
    case 16: launch(sell_threads_kernel<16, D, I>); break;
    default: launch(sell_threads_kernel<32, D, I>); break;
  }
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

#define HSPARSE_INSTANTIATE(V, I)                                                                              \
  template void sell_spmv_thread_per_row(const Executor&, V, const DeviceSell<V, I>&, const V*, V, V*);        \
  template void sell_spmv_threads_per_row(const Executor&, V, const DeviceSell<V, I>&, const V*, V, V*, int);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
