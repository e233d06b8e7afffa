// CSR with x in column panels (kernels/csr_panels.hpp: cache blocking of x,
// Nishtala et al. 2007, section 2). A block of kPanelThreads threads owns a
// tile (a chunk of rows x one panel of 64 KB of x); a group of G lanes owns a
// row's segment in the panel, strides over it, and reduces its sum with
// shuffles into the row's partial sum for that panel. A second kernel adds
// each row's partial sums in panel order (deterministic, no atomics).
// The block stages its panel of x in shared memory (64 KB; two blocks per
// SM) and the entries stream past evict-first.
#include <climits>
#include <cstdint>
#include <limits>
#include <vector>

#include "device_common.cuh"
#include "hsparse/backends/cuda/csr_spmv.hpp"

namespace hsparse::cuda {

namespace {

constexpr int kPanelThreads = 1024;

template <int G, class D, class I>
__global__ void __launch_bounds__(kPanelThreads, 2)
    csr_panels_kernel(long long rows, long long cols, long long tile_rows, long long panels, long long panel_cols, const I* __restrict__ segment_ptr,
                      const std::uint16_t* __restrict__ column, const D* __restrict__ values, const D* __restrict__ x, D* __restrict__ partial) {
  const long long tile = blockIdx.x;
  const long long chunk = tile / panels, panel = tile % panels;
  const long long first = chunk * tile_rows, in_chunk = rows - first < tile_rows ? rows - first : tile_rows;
  const long long segment0 = first * panels + panel * in_chunk;
  // The tile's panel of x into shared memory: a warp's gathers from it cost
  // a few bank wavefronts, where from L1 each of its 32 lines costs one
  // (Nsight Compute on short-wide with the panel left to L1: L1 hit rate 69%
  // but L1 throughput 70%, DRAM 43%).
  extern __shared__ __align__(16) unsigned char panel_bytes[];
  D* xp = reinterpret_cast<D*>(panel_bytes);
  const long long panel_first = panel * panel_cols, width = cols - panel_first < panel_cols ? cols - panel_first : panel_cols;
  for (long long j = threadIdx.x; j < width; j += kPanelThreads) xp[j] = x[panel_first + j];
  __syncthreads();
  const int lane = static_cast<int>(threadIdx.x) % G;
  constexpr int kGroups = kPanelThreads / G;
  // Warp-uniform trips: every lane reaches the shuffles (rows past the chunk add zeros).
  for (long long base = 0; base < in_chunk; base += kGroups) {
    const long long i = base + static_cast<long long>(threadIdx.x) / G;
    D sum(0);
    if (i < in_chunk) {
      const long long end = segment_ptr[segment0 + i + 1];
      long long k = static_cast<long long>(segment_ptr[segment0 + i]) + lane;
      // Two entries per lane per step, their loads issued together.
      for (; k + G < end; k += 2 * G) {
        const std::uint16_t c0 = detail::stream_load(column + k), c1 = detail::stream_load(column + k + G);
        const D v0 = detail::stream_load(values + k), v1 = detail::stream_load(values + k + G);
        sum += v0 * xp[c0];
        sum += v1 * xp[c1];
      }
      if (k < end) sum += detail::stream_load(values + k) * xp[detail::stream_load(column + k)];
    }
    sum = detail::group_sum<G>(sum);
    if (lane == 0 && i < in_chunk) partial[panel * rows + first + i] = sum;
  }
}

// Segment of row r in panel q (CsrPanels::segment).
__device__ __forceinline__ long long panel_segment(long long r, long long q, long long rows, long long tile_rows, long long panels) {
  const long long first = r / tile_rows * tile_rows, in_chunk = rows - first < tile_rows ? rows - first : tile_rows;
  return first * panels + q * in_chunk + (r - first);
}

// Conversion, step 1, a warp per row: where each of the row's segments
// starts and ends in the CSR arrays (columns increase in a row, so a
// segment is a run of the row). Segments with no entries keep 0 and 0.
template <class I>
__global__ void panel_bounds_kernel(long long rows, long long tile_rows, long long panels, long long panel_cols, const I* __restrict__ row_ptr,
                                    const I* __restrict__ col_idx, I* __restrict__ begin, I* __restrict__ end) {
  const long long r = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (r >= rows) return;
  const long long first = row_ptr[r], last = row_ptr[r + 1];
  for (long long k = first + threadIdx.x % 32; k < last; k += 32) {
    const long long q = col_idx[k] / panel_cols;
    const long long s = panel_segment(r, q, rows, tile_rows, panels);
    if (k == first || col_idx[k - 1] / panel_cols != q) begin[s] = static_cast<I>(k);
    if (k + 1 == last || col_idx[k + 1] / panel_cols != q) end[s] = static_cast<I>(k + 1);
  }
}

template <class I>
__global__ void panel_counts_kernel(long long segments, const I* __restrict__ begin, I* __restrict__ end) {
  const long long s = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (s < segments) end[s] -= begin[s];
}

// Step 3, a warp per row: each entry to its segment, its column as an offset in the panel.
template <class D, class I>
__global__ void panel_scatter_kernel(long long rows, long long tile_rows, long long panels, long long panel_cols, const I* __restrict__ row_ptr,
                                     const I* __restrict__ col_idx, const D* __restrict__ values, const I* __restrict__ begin,
                                     const I* __restrict__ segment_ptr, std::uint16_t* __restrict__ column, D* __restrict__ out) {
  const long long r = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (r >= rows) return;
  for (long long k = row_ptr[r] + threadIdx.x % 32; k < row_ptr[r + 1]; k += 32) {
    const long long q = col_idx[k] / panel_cols;
    const long long s = panel_segment(r, q, rows, tile_rows, panels);
    const long long dest = static_cast<long long>(segment_ptr[s]) + (k - begin[s]);
    column[dest] = static_cast<std::uint16_t>(col_idx[k] - q * panel_cols);
    out[dest] = values[k];
  }
}

template <class D>
__global__ void csr_panels_sum_kernel(long long rows, long long panels, const D* __restrict__ partial, D alpha, D beta, bool read_y,
                                      D* __restrict__ y) {
  const long long r = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  D sum(0);
  for (long long p = 0; p < panels; ++p) sum += partial[p * rows + r];
  detail::write_output(y, r, alpha, sum, beta, read_y);
}

template <int G, class V, class I>
void launch_panels(const Executor& ex, const DeviceCsrPanels<V, I>& a, const V* x, void* partial) {
  using D = detail::device_t<V>;
  const std::size_t shared = static_cast<std::size_t>(a.panel_cols) * sizeof(D);
  if (shared > static_cast<std::size_t>(kPanelBytes)) {
    throw Error(ErrorCode::invalid_argument, "CSR panels: a panel of " + std::to_string(shared) + " bytes passes the kernel's " +
                                                 std::to_string(kPanelBytes) + " of shared memory");
  }
  static const bool sized = [] {  // once per kernel: past the default 48 KB of dynamic shared memory
    HSPARSE_CUDA_CHECK(cudaFuncSetAttribute(csr_panels_kernel<G, D, I>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(kPanelBytes)));
    return true;
  }();
  (void)sized;
  csr_panels_kernel<G, D, I><<<static_cast<unsigned>(a.tiles()), kPanelThreads, shared, detail::stream_of(ex)>>>(
      a.rows, a.cols, a.tile_rows, a.panels, a.panel_cols, a.segment_ptr.data(), a.column.data(), detail::dev(a.values.data()), detail::dev(x),
      static_cast<D*>(partial));
}

}  // namespace

int csr_panels_lanes(double entries_per_segment) {
  int lanes = 4;
  while (lanes < 32 && 2 * lanes < entries_per_segment) lanes *= 2;
  return lanes;
}

template <class V, class I>
DeviceCsrPanels<V, I> csr_panels_from_device_csr(const Executor& ex, const DeviceCsr<V, I>& a, const PanelShape& shape) {
  check_csr_panels(a.rows, a.cols, static_cast<long long>(a.nnz()), shape, static_cast<long long>(std::numeric_limits<I>::max()));
  DeviceCsrPanels<V, I> p;
  p.rows = a.rows;
  p.cols = a.cols;
  p.panel_cols = shape.panel_cols;
  p.tile_rows = shape.tile_rows;
  p.panels = panel_count(a.cols, shape.panel_cols);
  p.lanes = csr_panels_lanes(shape.entries_per_segment);
  const long long segments = p.segments();
  p.column = DeviceArray<std::uint16_t>(a.nnz());
  p.values = DeviceArray<V>(a.nnz());
  std::vector<I> segment_ptr(static_cast<std::size_t>(segments) + 1, I(0));
  if (segments > 0 && a.nnz() > 0) {
    const auto stream = detail::stream_of(ex);
    DeviceArray<I> begin(static_cast<std::size_t>(segments)), end(static_cast<std::size_t>(segments));
    HSPARSE_CUDA_CHECK(cudaMemsetAsync(begin.data(), 0, begin.size() * sizeof(I), stream));
    HSPARSE_CUDA_CHECK(cudaMemsetAsync(end.data(), 0, end.size() * sizeof(I), stream));
    const unsigned row_grid = detail::grid_for(32LL * a.rows, 256);
    panel_bounds_kernel<I><<<row_grid, 256, 0, stream>>>(a.rows, p.tile_rows, p.panels, p.panel_cols, a.row_ptr.data(), a.col_idx.data(),
                                                         begin.data(), end.data());
    panel_counts_kernel<I><<<detail::grid_for(segments, 256), 256, 0, stream>>>(segments, begin.data(), end.data());
    HSPARSE_CUDA_CHECK(cudaGetLastError());
    ex.synchronize();
    // Step 2 on the host: the counts' prefix sums (segments <= nnz / 2).
    const std::vector<I> counts = end.download();
    for (long long s = 0; s < segments; ++s) segment_ptr[s + 1] = segment_ptr[s] + counts[s];
    p.segment_ptr = DeviceArray<I>(segment_ptr);
    panel_scatter_kernel<detail::device_t<V>, I><<<row_grid, 256, 0, stream>>>(
        a.rows, p.tile_rows, p.panels, p.panel_cols, a.row_ptr.data(), a.col_idx.data(), detail::dev(a.values.data()), begin.data(),
        p.segment_ptr.data(), p.column.data(), detail::dev(p.values.data()));
    HSPARSE_CUDA_CHECK(cudaGetLastError());
    ex.synchronize();  // begin and end are freed on return
  } else {
    p.segment_ptr = DeviceArray<I>(segment_ptr);
  }
  return p;
}

template <class V, class I>
void csr_spmv_panels(const Executor& ex, V alpha, const DeviceCsrPanels<V, I>& a, const V* x, V beta, V* y, void* workspace) {
  if (a.rows == 0) return;
  using D = detail::device_t<V>;
  const bool read_y = beta != V(0);
  if (a.panels > 0) {
    if (a.tiles() > INT_MAX) throw Error(ErrorCode::invalid_argument, "CSR panels: " + std::to_string(a.tiles()) + " tiles exceed one grid");
    switch (a.lanes) {
      case 4: launch_panels<4>(ex, a, x, workspace); break;
      case 8: launch_panels<8>(ex, a, x, workspace); break;
      case 16: launch_panels<16>(ex, a, x, workspace); break;
      case 32: launch_panels<32>(ex, a, x, workspace); break;
      default: throw Error(ErrorCode::invalid_argument, "CSR panels: lanes per row must be 4, 8, 16 or 32, not " + std::to_string(a.lanes));
    }
    HSPARSE_CUDA_CHECK(cudaGetLastError());
  }
  csr_panels_sum_kernel<D><<<detail::grid_for(a.rows, 256), 256, 0, detail::stream_of(ex)>>>(
      a.rows, a.panels, static_cast<const D*>(workspace), detail::dev_value(alpha), detail::dev_value(beta), read_y, detail::dev(y));
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

#define HSPARSE_INSTANTIATE(V, I)                                                                          \
  template void csr_spmv_panels(const Executor&, V, const DeviceCsrPanels<V, I>&, const V*, V, V*, void*); \
  template DeviceCsrPanels<V, I> csr_panels_from_device_csr(const Executor&, const DeviceCsr<V, I>&, const PanelShape&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
