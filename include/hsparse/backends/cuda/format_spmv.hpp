#pragma once
// GPU SpMV kernels of the other formats, y = alpha*A*x + beta*y, on the
// executor's stream (see csr_spmv.hpp for the conventions).
#include <algorithm>
#include <span>

#include "hsparse/backends/cuda/csr_spmv.hpp"
#include "hsparse/backends/cuda/device_formats.hpp"

namespace hsparse::cuda {

// COO with segmented reduction (Owens lecture, "COO"): entries sorted by
// row, an equal share per thread; rows inside a share are written by it,
// the parts of rows split between threads are combined by a segmented
// second pass (deterministic, no atomics). Workspace: coo_workspace_bytes.
std::size_t coo_workspace_bytes(std::size_t nnz, std::size_t value_bytes);
template <class V, class I>
void coo_spmv_segmented(const Executor& ex, V alpha, const DeviceCoo<V, I>& a, const V* x, V beta, V* y, void* workspace);

// ELL: one thread per row walking its column of slots (coalesced). With
// rows_per_thread = 2, a thread takes two neighbouring rows and reads each
// slot pair with one vector load (8 or 16 bytes: the issue's "vectorized
// loads where the layout allows"; ELL's rows are padded to a multiple of
// 32, so pairs are aligned); other layouts fall back to one row per thread.
template <class V, class I>
void ell_spmv(const Executor& ex, V alpha, const DeviceEll<V, I>& a, const V* x, V beta, V* y, int rows_per_thread = 1);
// HYB: the ELL kernel, then the COO kernel adding the long rows' tails.
template <class V, class I>
void hyb_spmv(const Executor& ex, V alpha, const DeviceHyb<V, I>& a, const V* x, V beta, V* y, void* coo_workspace);
// CSR16 (formats/csr16.hpp): the CSR kernels with each column the row's
// base plus its 16-bit offset, then the compacted wide rows (DeviceCsr16's
// wide part) by the same kernel into the workspace's wide sums, added to
// their rows of y. S: the stored values' type, V (csr16) or single_t<V>
// (csr16-single), widened to V in the products.
//  - adaptive: CSR adaptive's row blocks (csr_spmv.hpp); the short-row
//    blocks stage values and offsets in shared memory and each row's
//    threads gather x from its base. One schedule per part; the workspace
//    holds the larger part's split-row partials, then the wide sums;
//  - vector: CSR vector's kernel (Reguly and Giles); `narrow` and `wide`
//    are the two launches' parameters (csr_vector_fixed_rule of each part);
//    its workspace is the wide sums.
struct Csr16AdaptiveSchedules {
  CsrAdaptiveSchedule narrow, wide;
  long long wide_rows = 0;  // DeviceCsr16::wide_row_count()
  std::size_t wide_sums_offset(std::size_t value_bytes) const {
    return (std::max(narrow.workspace_bytes(value_bytes), wide.workspace_bytes(value_bytes)) + 15) / 16 * 16;
  }
  std::size_t workspace_bytes(std::size_t value_bytes) const {
    return wide_sums_offset(value_bytes) + static_cast<std::size_t>(wide_rows) * value_bytes;
  }
};
inline std::size_t csr16_vector_workspace_bytes(long long wide_rows, std::size_t value_bytes) {
  return static_cast<std::size_t>(wide_rows) * value_bytes;
}
template <class V, class S, class I>
void csr16_spmv_adaptive(const Executor& ex, V alpha, const DeviceCsr16<S, I>& a, const V* x, V beta, V* y, const Csr16AdaptiveSchedules& schedules,
                         void* workspace);
template <class V, class S, class I>
void csr16_spmv_vector(const Executor& ex, V alpha, const DeviceCsr16<S, I>& a, const V* x, V beta, V* y, CsrVectorParams narrow, CsrVectorParams wide,
                       void* workspace);
// DIA: one thread per row, one coalesced load per diagonal.
template <class V, class I>
void dia_spmv(const Executor& ex, V alpha, const DeviceDia<V, I>& a, const V* x, V beta, V* y);

// DIA with x staged in shared memory ("staged"). The thread-per-row kernel
// reads x once per diagonal, from L2: on a 27-point stencil as many bytes
// of x through L2 as of values from DRAM, and L2 throughput, not DRAM, is
// what limited it (ncu, docs/results/2026-11-24-coo-kernel-limiters-h200). Offsets
// close to each other (a stencil's x-1, x, x+1) read the same stretch of
// x: a block of kDiaStagedRows rows loads one window of x per run of such
// diagonals into shared memory once (coalesced), then every diagonal of the
// run reads its x from there. Runs are grouped into phases whose windows
// fit the shared-memory budget; a block syncs twice per phase.
inline constexpr int kDiaStagedRows = 256;
struct DiaWindows {
  // Per diagonal: its x's position in the shared window of its phase for
  // the block's first row. Per run (3 values): x offset of the window's
  // first element relative to the block's first row (the run's first
  // offset), the window's start in shared memory, its length. Per phase
  // (4 values): first run, end run, first diagonal, end diagonal.
  DeviceArray<int> diagonal_position;
  DeviceArray<long long> runs;
  DeviceArray<int> phases;
  int phase_count = 0;
  int shared_elements = 0;  // the largest phase's windows
};
// The runs and phases of `offsets` (ascending, as Dia stores them) for
// values of value_bytes. Host work, once per plan.
template <class I>
DiaWindows dia_windows(std::span<const I> offsets, std::size_t value_bytes);
template <class V, class I>
void dia_spmv_staged(const Executor& ex, V alpha, const DeviceDia<V, I>& a, const DiaWindows& w, const V* x, V beta, V* y);

// SELL-C-sigma, thread per row (Kreutzer et al., GPU kernel): a warp per
// chunk when C = 32; each thread stops at its row's own length.
template <class V, class I>
void sell_spmv_thread_per_row(const Executor& ex, V alpha, const DeviceSell<V, I>& a, const V* x, V beta, V* y);
// SELL-C-sigma with T threads per row (Sliced ELLR-T; short-and-wide
// matrices): T in {2, 4, 8, 16, 32}, reduced with warp shuffles.
// kSellDefaultThreadsPerRow: T where the plan's parameter leaves it open.
inline constexpr int kSellDefaultThreadsPerRow = 4;
template <class V, class I>
void sell_spmv_threads_per_row(const Executor& ex, V alpha, const DeviceSell<V, I>& a, const V* x, V beta, V* y, int threads_per_row);

// BCSR (Eberhardt and Hoemmen): by-block (bs <= 5), by-column (bs in 1-6,
// 8, 16, 32; `lanes` 4, 8, 16 or 32 per block row), row-per-thread (any
// bs <= 32; x staged in shared memory).
enum class BcsrAlgorithm { by_block, by_column, row_per_thread };
template <class V, class I>
void bcsr_spmv(const Executor& ex, BcsrAlgorithm algorithm, V alpha, const DeviceBcsr<V, I>& a, const V* x, V beta, V* y,
               int lanes = 32);
// by-column's lanes per block row for a matrix of `blocks` blocks of size
// `block` in `block_rows` block rows: the fewest with at most 16 of the
// mean block row's values per lane (measured; bcsr_spmv.cu).
int bcsr_by_column_lanes(long long blocks, long long block_rows, int block);

// SpMM, Y = alpha A X + beta Y (kernels/block_format_spmm.hpp), in passes
// of up to 32 columns of X packed into the workspace's buffer (csr_spmv.hpp's
// SpmmWorkspace; its row bins are CSR's and unused here). SELL: a thread
// per row with KC sums; BCSR: b threads per block row, thread r owning row r.
template <class V, class I>
void sell_spmm(const Executor& ex, V alpha, const DeviceSell<V, I>& a, SpmmWorkspace& workspace, const ConstDenseView<V>& x, V beta,
               const DenseView<V>& y);
template <class V, class I>
void bcsr_spmm(const Executor& ex, V alpha, const DeviceBcsr<V, I>& a, SpmmWorkspace& workspace, const ConstDenseView<V>& x, V beta,
               const DenseView<V>& y);

}  // namespace hsparse::cuda
