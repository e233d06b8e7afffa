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
  static const bool sized = [shared] {  // past the default 48 KB of dynamic shared memory
    HSPARSE_CUDA_CHECK(cudaFuncSetAttribute(csr_panels_kernel<G, D, I>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(kPanelBytes)));
    return shared <= static_cast<std::size_t>(kPanelBytes);
  }();
  if (!sized || shared > static_cast<std::size_t>(kPanelBytes)) {
    throw Error(ErrorCode::invalid_argument, "CSR panels: a panel of " + std::to_string(shared) + " bytes passes the kernel's " +
                                                 std::to_string(kPanelBytes) + " of shared memory");
  }
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

#define HSPARSE_INSTANTIATE(V, I) \
  template void csr_spmv_panels(const Executor&, V, const DeviceCsrPanels<V, I>&, const V*, V, V*, void*);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
