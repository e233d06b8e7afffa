#pragma once
// What the GPU SpMM kernels share (csr_spmm.cu, block_format_spmm.cu): X
// packed row-major per pass of up to kSpmmColumns columns, so that one
// nonzero's products read one contiguous run of KC values (with
// column-major X a random matrix's gathers touched KC lines per nonzero:
// 0.4x of KC SpMVs, measured on the H200), the register column
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
// (j >= kc, and rows up to padded_rows: BCSR's last block column). KC is a
// compile-time power of two: the element's row and column are a shift and
// a mask (a runtime 64-bit division per element made this kernel 10-20% of
// an SpMM call at k = 8, ncu on the H200).
template <int KC, class D>
__global__ void pack_rows_kernel(long long rows, long long padded_rows, int kc, const D* __restrict__ x, long long ldx, D* __restrict__ xr) {
  static_assert(KC > 0 && (KC & (KC - 1)) == 0, "pack_rows_kernel: KC is a power of two");
  for (long long e = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; e < padded_rows * KC; e += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long c = e / KC;
    const int j = static_cast<int>(e % KC);
    xr[e] = j < kc && c < rows ? x[c + j * ldx] : D(0);
  }
}

// Packs columns [j0, j0 + kc) of x into the workspace's buffer (grown when
// needed; cudaFree waits for the buffer's earlier users) and returns it.
template <int KC, class D>
const D* pack_pass(const Executor& ex, SpmmWorkspace& workspace, const D* x, long long ldx, long long rows, long long padded_rows, int kc) {
  const std::size_t bytes = static_cast<std::size_t>(std::max<long long>(1, padded_rows)) * KC * sizeof(D);
  if (workspace.packed.size() < bytes) workspace.packed = DeviceArray<unsigned char>(bytes);
  D* xr = reinterpret_cast<D*>(workspace.packed.data());
  const auto grid = static_cast<unsigned>(std::clamp<long long>((padded_rows * KC + kSpmmThreads - 1) / kSpmmThreads, 1, 16LL * ex.multiprocessors()));
  pack_rows_kernel<KC, D><<<grid, kSpmmThreads, 0, stream_of(ex)>>>(rows, padded_rows, kc, x, ldx, xr);
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
    auto* ys = dev(y.data + j0 * y.ld);
    with_register_columns(kc, [&](auto KC_t) {
      const auto* xr = pack_pass<decltype(KC_t)::value>(ex, workspace, dev(x.data + j0 * x.ld), x.ld, x.rows, padded_rows, kc);
      launch(KC_t, xr, kc, ys);
    });
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

// Lanes per nonzero, for real values (sell_spmm_lanes_kernel and
// csr_spmm's team kernel): a lane applies a nonzero to W of X's KC packed
// columns in 16-byte loads, P = KC / W lanes sharing it. Why: ncu (H200,
// k = 8, SELL on the 27-point stencil) found the thread per
// row with all KC columns bound by the L1 path (94% busy, long-scoreboard
// stalls): its 16-byte loads of a 64-byte packed row each fetched a whole
// 32-byte sector (L1 moved 2x the bytes used) and a warp's load touched 32
// rows. With a sector per lane (kSectorColumns, two 16-byte loads) L1
// dropped to 51% busy and the kernel became latency-bound instead, which
// the two-entry groups and prefetch of add_lane_entries address.
template <class D>
inline constexpr bool kVectorLoads = std::is_same_v<D, double> || std::is_same_v<D, float>;
template <class D>
inline constexpr int kPieceValues = 16 / static_cast<int>(sizeof(D));  // values per 16-byte load
template <int KC, class D>
inline constexpr int kSectorColumns = std::min(KC, 32 / static_cast<int>(sizeof(D)));
template <class D>
using VectorPiece = std::conditional_t<std::is_same_v<D, double>, double2, float4>;

// acc[j] += values[e] X(col_idx[e], piece W + j), j < W, for the n entries
// e = entry(0), ..., entry(n - 1) of a lane, two at a time: their X loads
// issued together, the next two's indices and values loaded meanwhile
// (measured, SELL k = 8, H200, ms for the 27-point stencil / FEM bs = 3 /
// random: one at a time 0.254 / 0.229 / 0.869, two with the prefetch
// 0.229 / 0.168 / 0.852; four and eight no better, their registers halving
// the occupancy).
template <int KC, int W, class D, class I, class Entry>
__device__ __forceinline__ void add_lane_entries(D (&acc)[W], long long n, Entry entry, const I* __restrict__ col_idx, const D* __restrict__ values,
                                                 const D* __restrict__ xr, int piece) {
  static_assert(kVectorLoads<D> && W % kPieceValues<D> == 0 && KC % W == 0, "add_lane_entries: real values, whole 16-byte pieces dividing KC");
  constexpr int U = 2;
  const auto load_entries = [&](long long k, D (&v)[U], I (&c)[U]) {
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const long long e = entry(k + u);
      v[u] = values[e];
      c[u] = col_idx[e];
    }
  };
  const auto gather_add = [&](int count, const D (&v)[U], const I (&c)[U]) {
    D t[U][W];  // p is 16-byte aligned: xr is cudaMalloc-aligned, rows are KC values and a lane's W a multiple of 16 bytes
#pragma unroll
    for (int u = 0; u < U; ++u) {
      if (u < count) {
        const auto* p = reinterpret_cast<const VectorPiece<D>*>(xr + static_cast<long long>(c[u]) * KC + piece * W);
#pragma unroll
        for (int q = 0; q < W / kPieceValues<D>; ++q) {
          const VectorPiece<D> piece_values = __ldg(p + q);
          __builtin_memcpy(&t[u][q * kPieceValues<D>], &piece_values, 16);
        }
      }
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      if (u < count) {
#pragma unroll
        for (int j = 0; j < W; ++j) acc[j] += v[u] * t[u][j];
      }
    }
  };
  if (n < U) {
    if (n > 0) {  // n == 1
      D v[U];
      I c[U];
      v[0] = values[entry(0)];
      c[0] = col_idx[entry(0)];
      gather_add(1, v, c);
    }
    return;
  }
  D v[U];
  I c[U];
  load_entries(0, v, c);
  long long k = 0;
#pragma unroll 1
  for (; k + U <= n; k += U) {
    D vn[U];
    I cn[U];
    const bool full = k + 2 * U <= n;
    if (full) load_entries(k + U, vn, cn);
    else if (k + U < n) {  // the last, partial group: one entry
      vn[0] = values[entry(k + U)];
      cn[0] = col_idx[entry(k + U)];
    }
    gather_add(U, v, c);
#pragma unroll
    for (int u = 0; u < U; ++u) {
      v[u] = vn[u];
      c[u] = cn[u];
    }
  }
  if (k < n) gather_add(static_cast<int>(n - k), v, c);
}

// Y(row, piece W + j) = alpha acc[j] + beta Y(row, piece W + j) for the columns below kc; beta == 0: Y is not read.
template <int W, class D>
__device__ __forceinline__ void write_piece(D* y, long long ldy, long long row, int kc, int piece, const D (&acc)[W], D alpha, D beta) {
#pragma unroll
  for (int j = 0; j < W; ++j) {
    const int col = piece * W + j;
    if (col < kc) {
      D& out = y[row + col * ldy];
      out = beta == D(0) ? alpha * acc[j] : alpha * acc[j] + beta * out;
    }
  }
}

// Y(row, j) = alpha acc[j] + beta Y(row, j) for j < kc; beta == 0: Y is not read.
template <int KC, class D>
__device__ __forceinline__ void write_row(D* y, long long ldy, long long row, int kc, const D (&acc)[KC], D alpha, D beta) {
  write_piece<KC>(y, ldy, row, kc, 0, acc, alpha, beta);
}

}  // namespace hsparse::cuda::detail
