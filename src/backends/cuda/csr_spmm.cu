// SpMM on the GPU (kernels/csr_spmm.hpp), per pass of up to 32 columns:
//  1. X's columns are packed row-major (spmm_common.cuh);
//  2. short rows: COOP threads per row (the CSR vector kernel's
//     decomposition, its fixed rule's coop), each thread walking the row's
//     nonzeros with stride COOP and keeping KC sums in registers; the
//     group's sums are reduced with shuffles. Where X's packed row is
//     at least four 16-byte pieces (double KC >= 8, float KC >= 16) and rows are
//     long (kTeamMinMeanRow), a team of lanes per nonzero reads it, a piece
//     each (spmm_short_team_kernel);
//  3. medium rows (more than 4x the mean length and 32 entries): a warp
//     per row. In the coop decomposition a warp waits for its longest row:
//     on power-law and circuit matrices SpMM of 8 columns ran at 0.5x of 8
//     SpMVs (H200);
//  4. rows longer than kLongRow: cut into segments of kLongRow entries, a
//     block of 256 threads each (warp shuffles, then warps in order through
//     shared memory), and the segments' sums added per row in segment
//     order: deterministic, no atomics. A block per whole row (before) left
//     one block walking a hub row alone: circuit n = 3e6 (8 rows of 3e5
//     entries) 1.27 ms at k = 8 against 0.98 ms for 8 SpMVs, power law 2e6
//     0.77 ms (H200). A warp per row serialised power-law rows: 0.01x.
// A's entries are read once per pass.
#include <algorithm>
#include <climits>
#include <string>
#include <type_traits>
#include <vector>

#include "hsparse/core/error.hpp"
#include "spmm_common.cuh"

namespace hsparse::cuda {

namespace {

using detail::add_packed_row;
using detail::write_row;
constexpr int kThreads = detail::kSpmmThreads;
constexpr long long kLongRow = 4096;  // entries: from here a block per row

template <int KC, class D, class I>
__global__ void __launch_bounds__(kThreads) spmm_short_kernel(I rows, const I* __restrict__ row_ptr, const I* __restrict__ col_idx,
                                                              const D* __restrict__ values, int coop, long long short_max, int kc,
                                                              const D* __restrict__ xr, D alpha, D beta, D* __restrict__ y, long long ldy) {
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
      mine = end - begin <= short_max;  // medium and long rows are the other kernels'
      if (mine) {
        for (I p = begin + lane; p < end; p += coop) {
          add_packed_row<KC>(acc, values[p], xr + static_cast<long long>(col_idx[p]) * KC);
        }
      }
    }
#pragma unroll
    for (int j = 0; j < KC; ++j) acc[j] = detail::group_sum_n(acc[j], coop);
    if (lane == 0 && mine) write_row<KC>(y, ldy, row, kc, acc, alpha, beta);
  }
}

// Short rows read by teams (spmm_common.cuh): P = KC / W lanes per nonzero,
// W = a 16-byte piece of X's packed row, `teams` teams per row walking its
// nonzeros with stride `teams`; the row's teams are summed with shuffles.
// Used from a mean row length of kTeamMinMeanRow entries (decided here only):
// measured at k = 8 (H200, csr, `hsparse spmm`, the
// thread-per-nonzero kernel above in brackets) it is faster on long rows,
// short-wide 2600 per row 0.250 ms (0.401), FEM bs = 3 81 per row 0.277
// (0.352), and slower on short ones, whose teams then idle: stencil 27 per
// row 0.482 (0.439), random 10 1.126 (0.983), power law 0.618 (0.512),
// circuit 0.644 (0.600). Lanes of a 32-byte sector, SELL's choice, were
// slower here on every matrix but the stencil (FEM 0.381 against 0.334,
// short-wide 0.261 / 0.250, power law 0.640 against the thread kernel's
// 0.510), and so was the thread kernel with the lanes' two-entry
// prefetch (stencil 0.544 against 0.434). Teams of two lanes (double k <=
// 4, float k <= 8) are not used: at k = 4 they were slower than the thread
// kernel, FEM 0.277 ms against 0.153 and short-wide 0.187 against 0.166
// (bench --dense), while four and more lanes
// gained at every k measured (FEM k = 16 / 32 0.502 / 0.776 against 1.074 /
// 2.199, short-wide 0.429 / 0.863 against 0.640 / 1.264).
constexpr double kTeamMinMeanRow = 64;
template <int KC, class D>
inline constexpr bool kTeamKernel = detail::kVectorLoads<D> && KC >= 4 * detail::kPieceValues<D>;

template <int KC, class D, class I>
__global__ void __launch_bounds__(kThreads) spmm_short_team_kernel(I rows, const I* __restrict__ row_ptr, const I* __restrict__ col_idx,
                                                                   const D* __restrict__ values, int teams, long long short_max, int kc,
                                                                   const D* __restrict__ xr, D alpha, D beta, D* __restrict__ y, long long ldy) {
  constexpr int W = detail::kPieceValues<D>, P = KC / W;
  const int group = teams * P;  // lanes per row: a power of two <= 32
  const int lane = threadIdx.x % group, team = lane / P, piece = lane % P;
  const long long groups = static_cast<long long>(gridDim.x) * (kThreads / group);
  // All lanes of a warp stay in the loop while any of its rows is left (the shuffles need them).
  for (long long row = (blockIdx.x * static_cast<long long>(kThreads) + threadIdx.x) / group; row - (threadIdx.x % 32) / group < rows;
       row += groups) {
    D acc[W];
#pragma unroll
    for (int j = 0; j < W; ++j) acc[j] = D(0);
    bool mine = row < rows;
    if (mine) {
      const I begin = row_ptr[row], end = row_ptr[row + 1];
      mine = end - begin <= short_max;  // medium and long rows are the other kernels'
      if (mine && team < end - begin) {
        const long long first = static_cast<long long>(begin) + team;
        detail::add_lane_entries<KC, W>(acc, (end - first + teams - 1) / teams, [&](long long k) { return first + k * teams; }, col_idx, values, xr,
                                        piece);
      }
    }
#pragma unroll
    for (int j = 0; j < W; ++j) {
      for (int offset = group / 2; offset >= P; offset /= 2) acc[j] += detail::shuffle_down(acc[j], offset, group);  // lane `piece` gets the row's sum
    }
    if (team == 0 && mine) detail::write_piece<W>(y, ldy, row, kc, piece, acc, alpha, beta);
  }
}

template <int KC, class D, class I>
__global__ void __launch_bounds__(kThreads) spmm_warp_kernel(const long long* __restrict__ medium_rows, long long count, const I* __restrict__ row_ptr,
                                                             const I* __restrict__ col_idx, const D* __restrict__ values, int kc,
                                                             const D* __restrict__ xr, D alpha, D beta, D* __restrict__ y, long long ldy) {
  const long long idx = (blockIdx.x * static_cast<long long>(kThreads) + threadIdx.x) / 32;
  if (idx >= count) return;  // the whole warp
  const long long row = medium_rows[idx];
  D acc[KC];
#pragma unroll
  for (int j = 0; j < KC; ++j) acc[j] = D(0);
  for (I p = row_ptr[row] + threadIdx.x % 32; p < row_ptr[row + 1]; p += 32) add_packed_row<KC>(acc, values[p], xr + static_cast<long long>(col_idx[p]) * KC);
#pragma unroll
  for (int j = 0; j < KC; ++j) acc[j] = detail::group_sum_n(acc[j], 32);
  if (threadIdx.x % 32 == 0) write_row<KC>(y, ldy, row, kc, acc, alpha, beta);
}

// Block per segment [first, end) of a long row's entries: the segment's column sums into partials[segment * KC + j].
template <int KC, class D, class I>
__global__ void __launch_bounds__(kThreads) spmm_segment_kernel(const long long* __restrict__ segments, const I* __restrict__ col_idx,
                                                                const D* __restrict__ values, const D* __restrict__ xr, D* __restrict__ partials) {
  __shared__ D warp_sums[kThreads / 32][KC];
  const long long first = segments[2 * blockIdx.x], end = segments[2 * blockIdx.x + 1];
  D acc[KC];
#pragma unroll
  for (int j = 0; j < KC; ++j) acc[j] = D(0);
  for (long long p = first + threadIdx.x; p < end; p += kThreads) add_packed_row<KC>(acc, values[p], xr + static_cast<long long>(col_idx[p]) * KC);
#pragma unroll
  for (int j = 0; j < KC; ++j) {
    const D s = detail::group_sum_n(acc[j], 32);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32][j] = s;
  }
  __syncthreads();
  if (threadIdx.x < KC) {
    D total = D(0);
    for (int w = 0; w < kThreads / 32; ++w) total += warp_sums[w][threadIdx.x];  // warps in order
    partials[static_cast<long long>(blockIdx.x) * KC + threadIdx.x] = total;
  }
}

// Thread per long row: its segments' sums in segment order, then Y's row.
template <int KC, class D>
__global__ void __launch_bounds__(kThreads) spmm_segment_sum_kernel(const long long* __restrict__ long_rows, long long count,
                                                                    const long long* __restrict__ segment_first, const D* __restrict__ partials, int kc,
                                                                    D alpha, D beta, D* __restrict__ y, long long ldy) {
  const long long i = blockIdx.x * static_cast<long long>(kThreads) + threadIdx.x;
  if (i >= count) return;
  D total[KC];
#pragma unroll
  for (int j = 0; j < KC; ++j) total[j] = D(0);
  for (long long seg = segment_first[i]; seg < segment_first[i + 1]; ++seg) {
#pragma unroll
    for (int j = 0; j < KC; ++j) total[j] += partials[seg * KC + j];
  }
  write_row<KC>(y, ldy, long_rows[i], kc, total, alpha, beta);
}

}  // namespace

template <class I>
SpmmWorkspace spmm_workspace(std::span<const I> row_ptr) {
  SpmmWorkspace r;
  const long long n = row_ptr.empty() ? 0 : static_cast<long long>(row_ptr.size()) - 1;
  const double mean = n > 0 ? static_cast<double>(row_ptr.back() - row_ptr.front()) / static_cast<double>(n) : 0.0;
  r.short_max = std::min<long long>(kLongRow, std::max<long long>(32, static_cast<long long>(4 * mean)));
  std::vector<long long> medium, long_rows;
  for (long long i = 0; i < n; ++i) {
    const auto len = static_cast<long long>(row_ptr[static_cast<std::size_t>(i) + 1] - row_ptr[static_cast<std::size_t>(i)]);
    if (len > kLongRow) long_rows.push_back(i);
    else if (len > r.short_max) medium.push_back(i);
  }
  r.count = static_cast<long long>(long_rows.size());
  if (!long_rows.empty()) {
    std::vector<long long> segments, first{0};
    for (long long i : long_rows) {
      const auto begin = static_cast<long long>(row_ptr[static_cast<std::size_t>(i)]), end = static_cast<long long>(row_ptr[static_cast<std::size_t>(i) + 1]);
      for (long long p = begin; p < end; p += kLongRow) segments.insert(segments.end(), {p, std::min(end, p + kLongRow)});
      first.push_back(static_cast<long long>(segments.size() / 2));
    }
    r.rows = DeviceArray<long long>(long_rows);
    r.segments = DeviceArray<long long>(segments);
    r.segment_first = DeviceArray<long long>(first);
    r.segment_count = first.back();
  }
  r.medium_count = static_cast<long long>(medium.size());
  if (!medium.empty()) r.medium_rows = DeviceArray<long long>(medium);
  return r;
}

template <class V, class I>
void csr_spmm(const Executor& ex, V alpha, const DeviceCsr<V, I>& a, SpmmWorkspace& workspace, const ConstDenseView<V>& x, V beta,
              const DenseView<V>& y) {
  check_spmm_shapes<V>(a.rows, a.cols, x, y);
  if (workspace.short_max < 0) throw Error(ErrorCode::invalid_argument, "csr_spmm: the workspace was not made by spmm_workspace for this matrix");
  if (a.rows == 0 || x.cols == 0) return;
  using D = detail::device_t<V>;
  const int coop = csr_vector_fixed_rule(a.rows, static_cast<long long>(a.nnz()), ex.shape()).coop;
  const long long needed = (static_cast<long long>(a.rows) * coop + kThreads - 1) / kThreads;
  const auto grid = static_cast<unsigned>(std::clamp<long long>(needed, 1, 32LL * ex.multiprocessors()));
  const D al = detail::dev_value(alpha), be = detail::dev_value(beta);
  const auto s = detail::stream_of(ex);
  detail::for_each_spmm_pass(ex, workspace, x, y, a.cols, [&](auto KC_t, const D* xr, int kc, D* ys) {
    constexpr int KC = decltype(KC_t)::value;
    bool short_rows_done = false;
    if constexpr (kTeamKernel<KC, D>) {
      if (static_cast<double>(a.nnz()) >= kTeamMinMeanRow * static_cast<double>(a.rows)) {
        constexpr int P = KC / detail::kPieceValues<D>;
        const int teams = std::min(coop, 32 / P), group = teams * P;
        const auto team_grid = static_cast<unsigned>(std::clamp<long long>((static_cast<long long>(a.rows) * group + kThreads - 1) / kThreads, 1,
                                                                           32LL * ex.multiprocessors()));
        spmm_short_team_kernel<KC, D, I><<<team_grid, kThreads, 0, s>>>(a.rows, a.row_ptr.data(), a.col_idx.data(), detail::dev(a.values.data()),
                                                                        teams, workspace.short_max, kc, xr, al, be, ys, y.ld);
        short_rows_done = true;
      }
    }
    if (!short_rows_done) {
      spmm_short_kernel<KC, D, I><<<grid, kThreads, 0, s>>>(a.rows, a.row_ptr.data(), a.col_idx.data(), detail::dev(a.values.data()), coop,
                                                            workspace.short_max, kc, xr, al, be, ys, y.ld);
    }
    if (workspace.medium_count > 0) {
      spmm_warp_kernel<KC, D, I><<<detail::grid_for(workspace.medium_count * 32, kThreads), kThreads, 0, s>>>(
          workspace.medium_rows.data(), workspace.medium_count, a.row_ptr.data(), a.col_idx.data(), detail::dev(a.values.data()), kc, xr, al, be, ys,
          y.ld);
    }
    if (workspace.count > 0) {
      const std::size_t bytes = static_cast<std::size_t>(workspace.segment_count) * KC * sizeof(D);
      if (workspace.partials.size() < bytes) workspace.partials = DeviceArray<unsigned char>(bytes);  // cudaFree waits for earlier users
      D* partials = reinterpret_cast<D*>(workspace.partials.data());
      if (workspace.segment_count > INT_MAX) throw Error(ErrorCode::overflow, "csr_spmm: " + std::to_string(workspace.segment_count) + " long-row segments exceed the grid");
      spmm_segment_kernel<KC, D, I><<<static_cast<unsigned>(workspace.segment_count), kThreads, 0, s>>>(workspace.segments.data(), a.col_idx.data(),
                                                                                                       detail::dev(a.values.data()), xr, partials);
      spmm_segment_sum_kernel<KC, D><<<detail::grid_for(workspace.count, kThreads), kThreads, 0, s>>>(
          workspace.rows.data(), workspace.count, workspace.segment_first.data(), partials, kc, al, be, ys, y.ld);
    }
  });
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

template SpmmWorkspace spmm_workspace(std::span<const std::int32_t>);
template SpmmWorkspace spmm_workspace(std::span<const std::int64_t>);

#define HSPARSE_INSTANTIATE(V, I) \
  template void csr_spmm(const Executor&, V, const DeviceCsr<V, I>&, SpmmWorkspace&, const ConstDenseView<V>&, V, const DenseView<V>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
