// Reguly and Giles' parametrised CSR SpMV (InPar 2012, Figure 3).
// Decomposition: a group of COOP threads (a power of two <= 32, inside one
// warp) owns a row and strides over it; a block of block_size threads holds
// block_size / COOP groups; each group handles `repeat` rows, the block
// repeat * block_size / COOP contiguous rows (eq. (5) gives the grid). Group
// sums are reduced with warp shuffles; lane 0 of the group writes y. The
// same kernel runs CSR16 (issue 18), its columns a row base plus 16-bit offsets.
#include <climits>
#include <cstdint>
#include <type_traits>
#include <algorithm>
#include <cmath>

#include "csr16_wide_rows.cuh"
#include "csr_columns.cuh"
#include "device_common.cuh"
#include "hsparse/backends/cuda/csr_spmv.hpp"
#include "hsparse/backends/cuda/format_spmv.hpp"

namespace hsparse::cuda {

namespace {

using detail::OffsetColumns;
using detail::StoredColumns;

// Entries per lane per step: a step issues all its value and column loads,
// then its x gathers, then adds its products in order (the same order as
// one entry a step, so the sums are unchanged). One entry a step left a
// lane one value and one column in flight, each gather waiting on its
// column: csr16-single's 6 bytes an entry then read at 59% of the H200's
// bandwidth on FEM bs = 3 and double CSR at 85% (the bytes in flight per
// SM fall short of the bandwidth-latency product).
// Measured (H200, same-call ABBA against one entry a step, L2 flushed,
// GFLOP/s; docs/results/2026-11-27-vector-dia-sell-kernels-h200/ab-csr-vector-4-a-step.csv):
// CSR stencil 509 -> 554, cage10 516 -> 543, FEM bs = 3 640 -> 632;
// csr16-single stencil 640 -> 820, cage10 642 -> 720, FEM bs = 3 865 -> 853.
// Eight entries a step for CSR16's columns lost 4-24% (csr16-single on
// FEM bs = 3 848 -> 817, on the stencil 815 -> 625; ab-csr16-vector-8-a-step.txt).
// What still binds csr16-single (Nsight Compute, FEM bs = 3): L1 and L2
// throughput at 79-80% from the x gathers (L2 hit rate 33%), the DRAM at 58%.
constexpr int kVectorEntriesPerStep = 4;

// DS: the stored values' device type (D, or single precision widened to D).
// Entries are counted in the unsigned type of I: k + a step stays below
// 2^32 for int32 (nnz < 2^31), where a signed int could overflow.
template <int COOP, class D, class DS, class I, class Columns>
__global__ void csr_vector_kernel(I rows, const I* __restrict__ row_ptr, Columns columns, const DS* __restrict__ values, const D* __restrict__ x,
                                  D alpha, D beta, bool read_y, D* __restrict__ y, int repeat) {
  using K = std::make_unsigned_t<I>;
  constexpr int U = kVectorEntriesPerStep;
  const int lane = threadIdx.x % COOP;
  const long long groups = blockDim.x / COOP;
  long long row = static_cast<long long>(blockIdx.x) * repeat * groups + threadIdx.x / COOP;
  for (int r = 0; r < repeat; ++r, row += groups) {
    D sum(0);
    if (row < rows) {
      const K end = static_cast<K>(row_ptr[row + 1]);
      const D* xr = x + columns.base(row);
      for (K k = static_cast<K>(row_ptr[row]) + lane; k < end; k += U * COOP) {
        DS v[U];
        I c[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
          const K e = k + static_cast<K>(u * COOP);
          v[u] = e < end ? values[e] : DS(0);
          c[u] = e < end ? static_cast<I>(columns.at(e)) : I(0);
        }
        D xv[U];
#pragma unroll
        for (int u = 0; u < U; ++u) xv[u] = k + static_cast<K>(u * COOP) < end ? xr[c[u]] : D(0);
#pragma unroll
        for (int u = 0; u < U; ++u) {
          if (k + static_cast<K>(u * COOP) < end) sum += D(v[u]) * xv[u];
        }
      }
    }
    // All lanes of the warp reach the shuffle (rows past the end add zeros).
    sum = detail::group_sum<COOP>(sum);
    if (lane == 0 && row < rows) detail::write_output(y, row, alpha, sum, beta, read_y);
  }
}

// The launch: checks p, eq. (5)'s grid, the coop switch.
template <class V, class S, class I, class Columns>
void run_vector(const Executor& ex, V alpha, I rows, const I* row_ptr, Columns columns, const S* values, const V* x, V beta, V* y, CsrVectorParams p) {
  const bool pow2 = p.coop >= 1 && p.coop <= 32 && (p.coop & (p.coop - 1)) == 0;
  if (!pow2 || p.repeat < 1 || p.block_size < 32 || p.block_size > 1024 || p.block_size % 32 != 0) {
    throw Error(ErrorCode::invalid_argument, "CSR vector: coop must be a power of two in [1, 32], repeat >= 1, block size a multiple of 32 in [32, 1024]");
  }
  if (rows == 0) return;
  // eq. (5): gridSize = 1 + (rows * coop - 1) / (repeat * blockSize)
  const long long grid = 1 + (static_cast<long long>(rows) * p.coop - 1) / (static_cast<long long>(p.repeat) * p.block_size);
  if (grid > INT_MAX) throw Error(ErrorCode::invalid_argument, "CSR vector: " + std::to_string(grid) + " blocks exceed the grid limit; raise repeat");
  using D = detail::device_t<V>;
  using DS = detail::device_t<S>;
  const auto g = static_cast<unsigned>(grid);
  const DS* v = detail::dev(values);
  const D* xd = detail::dev(x);
  D* yd = detail::dev(y);
  const D al = detail::dev_value(alpha), be = detail::dev_value(beta);
  const bool read_y = beta != V(0);
  const auto launch = [&](auto coop) {
    csr_vector_kernel<decltype(coop)::value, D, DS, I, Columns><<<g, p.block_size, 0, detail::stream_of(ex)>>>(rows, row_ptr, columns, v, xd, al, be, read_y, yd, p.repeat);
  };
  switch (p.coop) {
    case 1: launch(std::integral_constant<int, 1>{}); break;
    case 2: launch(std::integral_constant<int, 2>{}); break;
    case 4: launch(std::integral_constant<int, 4>{}); break;
    case 8: launch(std::integral_constant<int, 8>{}); break;
    case 16: launch(std::integral_constant<int, 16>{}); break;
    default: launch(std::integral_constant<int, 32>{}); break;
  }
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

template <class V, class I>
void csr_spmv_vector(const Executor& ex, V alpha, const DeviceCsr<V, I>& a, const V* x, V beta, V* y, CsrVectorParams p) {
  run_vector(ex, alpha, a.rows, a.row_ptr.data(), StoredColumns<I>{a.col_idx.data()}, a.values.data(), x, beta, y, p);
}

template <class V, class S, class I>
void csr16_spmv_vector(const Executor& ex, V alpha, const DeviceCsr16<S, I>& a, const V* x, V beta, V* y, CsrVectorParams narrow, CsrVectorParams wide,
                       void* workspace) {
  run_vector(ex, alpha, a.rows, a.row_ptr.data(), OffsetColumns<I>{a.base.data(), a.offset.data()}, a.values.data(), x, beta, y, narrow);
  if (!a.wide) return;
  V* sums = static_cast<V*>(workspace);
  run_vector(ex, alpha, a.wide->rows, a.wide->row_ptr.data(), StoredColumns<I>{a.wide->col_idx.data()}, a.wide->values.data(), x, V(0), sums, wide);
  detail::add_wide_rows(ex, a.wide_row_count(), a.wide_rows.data(), sums, y);
}

#define HSPARSE_INSTANTIATE(V, I)                                                                               \
  template void csr_spmv_vector(const Executor&, V, const DeviceCsr<V, I>&, const V*, V, V*, CsrVectorParams); \
  template void csr16_spmv_vector<V, V, I>(const Executor&, V, const DeviceCsr16<V, I>&, const V*, V, V*, CsrVectorParams, CsrVectorParams, void*);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE
#define HSPARSE_INSTANTIATE(V, S, I) \
  template void csr16_spmv_vector<V, S, I>(const Executor&, V, const DeviceCsr16<S, I>&, const V*, V, V*, CsrVectorParams, CsrVectorParams, void*);
HSPARSE_FOR_EACH_DOUBLE_SINGLE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
