// DIA with x staged in shared memory (format_spmv.hpp, "staged").
// Decomposition: a block owns kDiaStagedRows consecutive rows, a thread one
// row, as in the thread-per-row DIA kernel (ell_dia_spmv.cu). Per phase the
// block first loads one window of x per run of nearby diagonals into shared
// memory (coalesced, zeros outside x), syncs, then each thread adds the
// phase's diagonals reading x from the windows instead of L2. The windows
// and phases are planned once on the host (dia_windows).
#include <algorithm>
#include <vector>

#include "device_common.cuh"
#include "hsparse/backends/cuda/format_spmv.hpp"
#include "hsparse/formats/dia_tiles.hpp"

namespace hsparse::cuda {

namespace {

// Thread t of block b: row r0 + t, r0 = b * kDiaStagedRows. A run's window
// holds x[r0 + its first offset + i]; diagonal d's x for the thread is at
// diagonal_position[d] + t. Products are summed in diagonal order, as the
// thread-per-row kernel sums them.
// DIA's row without padding (formats/dia_tiles.hpp), kept out of line: the
// rare path stays out of the kernel's registers and code.
template <class D, class I>
__device__ __noinline__ D staged_row_without_padding(long long r, I cols, int diagonals, const I* __restrict__ offsets, const D* __restrict__ values,
                                                     const D* __restrict__ x) {
  return dia_tiled_row_without_padding(r, cols, diagonals, offsets, values, x);
}

template <class D, class I>
__global__ void __launch_bounds__(kDiaStagedRows)
    dia_staged_kernel(I rows, I cols, int diagonals, int phase_count, const int* __restrict__ phases, const long long* __restrict__ runs,
                      const int* __restrict__ diagonal_position, const I* __restrict__ offsets, const D* __restrict__ values,
                      const D* __restrict__ x, D alpha, D beta, bool read_y, D* __restrict__ y) {
  extern __shared__ __align__(16) unsigned char window_bytes[];
  D* window = reinterpret_cast<D*>(window_bytes);
  const long long r0 = static_cast<long long>(blockIdx.x) * kDiaStagedRows;
  const int t = threadIdx.x;
  const long long r = r0 + t;
  D sum(0);
  for (int p = 0; p < phase_count; ++p) {
    const int run_end = phases[4 * p + 1], d_begin = phases[4 * p + 2], d_end = phases[4 * p + 3];
    for (int q = phases[4 * p]; q < run_end; ++q) {
      const long long base = r0 + runs[3 * q];
      D* to = window + runs[3 * q + 1];
      const int length = static_cast<int>(runs[3 * q + 2]);
      for (int i = t; i < length; i += kDiaStagedRows) {
        const long long c = base + i;
        to[i] = c >= 0 && c < cols ? x[c] : D(0);
      }
    }
    __syncthreads();
    if (r < rows) {
      // No branch: a slot outside the matrix holds 0 and its window element
      // is 0, so the product is 0, and the unrolled loop issues its value
      // loads ahead of the products. With the loads under an "inside the
      // matrix" branch (GFLOP/s, docs/results/2026-11-27-dia-loads-ahead-h200-h100): H200
      // stencil 748 -> 873, banded 761 -> 856; H100 banded 598 -> 617.
      const D* row_values = values + dia_tiled_slot(r, 0, diagonals);  // DeviceDia's tiles: diagonal d at row_values[d * kDiaTileRows]
#pragma unroll 8
      for (int d = d_begin; d < d_end; ++d) sum += row_values[d * kDiaTileRows] * window[diagonal_position[d] + t];
    }
    if (p + 1 < phase_count) __syncthreads();  // the next phase overwrites the windows
  }
  if (r >= rows) return;
  // A padded slot inside the matrix may have met NaN or infinity in x: such
  // a row is summed again without its padded slots (formats/padding.hpp).
  if (!is_finite_value(sum)) sum = staged_row_without_padding(r, cols, diagonals, offsets, values, x);
  detail::write_output(y, r, alpha, sum, beta, read_y);
}

}  // namespace

template <class I>
DiaWindows dia_windows(std::span<const I> offsets, std::size_t value_bytes) {
  // A run: consecutive diagonals whose offsets span at most kMaxSpan (its
  // window: kDiaStagedRows + span elements). A phase: consecutive runs whose
  // windows fit kPhaseBytes of shared memory (under the 48 KiB a block gets
  // without opting in, with room for two blocks of 8 warps per SM's share).
  constexpr long long kMaxSpan = 256, kPhaseBytes = 32 << 10;
  const long long phase_elements = std::max<long long>(kDiaStagedRows + kMaxSpan, kPhaseBytes / static_cast<long long>(value_bytes));
  std::vector<int> position(offsets.size());
  std::vector<long long> runs;
  std::vector<int> phases;
  long long used = 0;  // elements of the current phase's windows
  int largest = 0;
  std::size_t d = 0;
  while (d < offsets.size()) {
    std::size_t end = d + 1;
    while (end < offsets.size() && static_cast<long long>(offsets[end]) - static_cast<long long>(offsets[d]) <= kMaxSpan) ++end;
    const long long length = kDiaStagedRows + static_cast<long long>(offsets[end - 1]) - static_cast<long long>(offsets[d]);
    if (phases.empty() || used + length > phase_elements) {  // a new phase
      if (!phases.empty()) {
        phases[phases.size() - 3] = static_cast<int>(runs.size() / 3);
        phases.back() = static_cast<int>(d);
      }
      phases.insert(phases.end(), {static_cast<int>(runs.size() / 3), 0, static_cast<int>(d), 0});
      used = 0;
    }
    for (std::size_t k = d; k < end; ++k) position[k] = static_cast<int>(used + static_cast<long long>(offsets[k]) - static_cast<long long>(offsets[d]));
    runs.insert(runs.end(), {static_cast<long long>(offsets[d]), used, length});
    used += length;
    largest = std::max(largest, static_cast<int>(used));
    d = end;
  }
  if (!phases.empty()) {
    phases[phases.size() - 3] = static_cast<int>(runs.size() / 3);
    phases.back() = static_cast<int>(offsets.size());
  }
  DiaWindows w;
  w.diagonal_position = DeviceArray<int>(position);
  w.runs = DeviceArray<long long>(runs);
  w.phases = DeviceArray<int>(phases);
  w.phase_count = static_cast<int>(phases.size() / 4);
  w.shared_elements = largest;
  return w;
}

template <class V, class I>
void dia_spmv_staged(const Executor& ex, V alpha, const DeviceDia<V, I>& a, const DiaWindows& w, const V* x, V beta, V* y) {
  if (a.rows == 0) return;
  using D = detail::device_t<V>;
  if (w.phase_count == 0) {  // no diagonals: y = beta y
    dia_spmv(ex, alpha, a, x, beta, y);
    return;
  }
  const std::size_t shared = static_cast<std::size_t>(w.shared_elements) * sizeof(D);
  dia_staged_kernel<D, I><<<detail::grid_for(a.rows, kDiaStagedRows), kDiaStagedRows, shared, detail::stream_of(ex)>>>(
      a.rows, a.cols, static_cast<int>(a.offsets.size()), w.phase_count, w.phases.data(), w.runs.data(), w.diagonal_position.data(),
      a.offsets.data(), detail::dev(a.values.data()), detail::dev(x), detail::dev_value(alpha), detail::dev_value(beta), beta != V(0), detail::dev(y));
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

template DiaWindows dia_windows(std::span<const std::int32_t>, std::size_t);
template DiaWindows dia_windows(std::span<const std::int64_t>, std::size_t);
#define HSPARSE_INSTANTIATE(V, I) \
  template void dia_spmv_staged(const Executor&, V, const DeviceDia<V, I>&, const DiaWindows&, const V*, V, V*);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
