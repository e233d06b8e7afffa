#pragma once
// What the GPU SpMM kernels share (csr_spmm.cu, block_format_spmm.cu): X
// packed row-major per pass of up to kSpmmColumns columns, so that one
// nonzero's products read one contiguous run of KC values (with
// column-major X a random matrix's gathers touched KC lines per nonzero:
// 0.4x of KC SpMVs, measured on the H200 at b7f3594), the register column
// count KC a pass is compiled for, and the output write.
#include <algorithm>
#include <type_traits>

#include "device_common.cuh"
#include "hsparse/backends/cuda/csr_spmv.hpp"
#include "hsparse/kernels/csr_spmm.hpp"

namespace hsparse::cuda::detail {

inline constexpr int kSpmmThreads = 256;

// The compiled column counts: kc columns run in the smallest KC >= kc.
inline int spmm_register_columns(long long kc) { return kc <= 1 ? 1 : kc <= 2 ? 2 : kc <= 4 ? 4 : kc <= 8 ? 8 : kc <= 16 ? 16 : 32; }

// f(std::integral_constant<int, KC>{}) for the KC of kc columns.
template <class F>
void with_register_columns(long long kc, F&& f) {
  switch (spmm_register_columns(kc)) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    case 8: f(std::integral_constant<int, 8>{}); break;
    case 16: f(std::integral_constant<int, 16>{}); break;
    default: f(std::integral_constant<int, 32>{}); break;
  }
}

// xr[c * KC + j] = X(c, j) for c < rows and j < kc; 0 for the padding
// (j >= kc, and rows up to padded_rows: BCSR's last block column).
template <class D>
__global__ void pack_rows_kernel(long long rows, long long padded_rows, int kc, int KC, const D* __restrict__ x, long long ldx, D* __restrict__ xr) {
  for (long long e = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; e < padded_rows * KC; e += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long c = e / KC;
    const int j = static_cast<int>(e % KC);
    xr[e] = j < kc && c < rows ? x[c + j * ldx] : D(0);
  }
}

// Packs columns [j0, j0 + kc) of x into the workspace's buffer (grown when
// needed; cudaFree waits for the buffer's earlier users) and returns it.
template <class D>
const D* pack_pass(const Executor& ex, SpmmWorkspace& workspace, const D* x, long long ldx, long long rows, long long padded_rows, int kc) {
  const int KC = spmm_register_columns(kc);
  const std::size_t bytes = static_cast<std::size_t>(std::max<long long>(1, padded_rows)) * KC * sizeof(D);
  if (workspace.packed.size() < bytes) workspace.packed = DeviceArray<unsigned char>(bytes);
  D* xr = reinterpret_cast<D*>(workspace.packed.data());
  const auto grid = static_cast<unsigned>(std::clamp<long long>((padded_rows * KC + kSpmmThreads - 1) / kSpmmThreads, 1, 16LL * ex.multiprocessors()));
  pack_rows_kernel<D><<<grid, kSpmmThreads, 0, stream_of(ex)>>>(rows, padded_rows, kc, KC, x, ldx, xr);
  return xr;
}

// The passes of an SpMM: for each group of up to kSpmmColumns columns, X's
// columns packed (rows up to padded_rows, zero past x.rows), then
// launch(KC_t, xr, kc, ys) with KC_t the compiled column count
// (std::integral_constant) and ys Y's first column of the pass.
template <class V, class F>
void for_each_spmm_pass(const Executor& ex, SpmmWorkspace& workspace, const ConstDenseView<V>& x, const DenseView<V>& y, long long padded_rows,
                        F&& launch) {
  for (long long j0 = 0; j0 < x.cols; j0 += kSpmmColumns) {
    const int kc = static_cast<int>(std::min<long long>(kSpmmColumns, x.cols - j0));
    const auto* xr = pack_pass(ex, workspace, dev(x.data + j0 * x.ld), x.ld, x.rows, padded_rows, kc);
    auto* ys = dev(y.data + j0 * y.ld);
    with_register_columns(kc, [&](auto KC_t) { launch(KC_t, xr, kc, ys); });
  }
}

// acc[j] += v * X(c, j) for the KC packed columns of row c (xc = xr + c KC),
// read in 16-byte loads where KC allows (xr is cudaMalloc-aligned and a row
// is KC values, so xc is 16-byte aligned for double KC >= 2, float KC >= 4):
// a nonzero's KC values are then KC / 2 (double) requests instead of KC.
template <int KC, class D>
__device__ __forceinline__ void add_packed_row(D (&acc)[KC], D v, const D* __restrict__ xc) {
  if constexpr (std::is_same_v<D, double> && KC % 2 == 0) {
    const auto* x2 = reinterpret_cast<const double2*>(xc);
#pragma unroll
    for (int j = 0; j < KC / 2; ++j) {
      const double2 t = __ldg(x2 + j);
      acc[2 * j] += v * t.x;
      acc[2 * j + 1] += v * t.y;
    }
  } else if constexpr (std::is_same_v<D, float> && KC % 4 == 0) {
    const auto* x4 = reinterpret_cast<const float4*>(xc);
#pragma unroll
    for (int j = 0; j < KC / 4; ++j) {
      const float4 t = __ldg(x4 + j);
      acc[4 * j] += v * t.x;
      acc[4 * j + 1] += v * t.y;
      acc[4 * j + 2] += v * t.z;
      acc[4 * j + 3] += v * t.w;
    }
  } else {
#pragma unroll
    for (int j = 0; j < KC; ++j) acc[j] += v * xc[j];
  }
}

// Y(row, j) = alpha acc[j] + beta Y(row, j) for j < kc; beta == 0: Y is not read.
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

}  // namespace hsparse::cuda::detail
