#pragma once
// GPU CSR SpMV kernels on device data, y = alpha*A*x + beta*y (beta == 0:
// y is not read). x and y are device pointers of cols and rows elements.
// Every kernel runs on the executor's stream and returns without waiting.
#include <cstdint>
#include <span>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/dense/dense_matrix.hpp"
#include "hsparse/kernels/csr_panels.hpp"
#include "hsparse/kernels/csr_slabs.hpp"

namespace hsparse::cuda {

// CSR scalar (Owens lecture; Bell and Garland): one thread per row.
template <class V, class I>
void csr_spmv_scalar(const Executor& ex, V alpha, const DeviceCsr<V, I>& a, const V* x, V beta, V* y);

// Reguly and Giles' parametrised CSR (Figure 3): `coop` threads (a power of
// two up to 32) share a row, a group handles `repeat` consecutive rows,
// `block_size` threads per block; the group's partial sums are reduced with
// warp shuffles (the paper's implicit warp synchronisation, made explicit).
struct CsrVectorParams {
  int coop = 1;
  int repeat = 1;
  int block_size = 128;
};
// The fixed rule of section 5.4 as the paper states it: block size 128;
// coop the smallest power of two above sqrt(mean row length), at most 32;
// repeat as large as keeps at least 1500 blocks. Constant time.
CsrVectorParams csr_vector_paper_rule(long long rows, long long nnz);
// The same rule scaled to the GPU at hand, hsparse's fixed rule. The
// paper's 1500 blocks were about 13 waves of resident blocks on its Fermi
// GPUs (14 SMs x 8 blocks); on an H200 (132 SMs x 16 blocks of 128
// threads) they are 0.7 of a wave, and the paper's repeat of 170 on a
// 4 M-row stencil left the GPU two-thirds idle (64% of the best,
// docs/results/2026-11-22-tuning-h200). So repeat keeps at least
// kFixedRuleWaves waves of resident blocks. Measured on the H200
// (exhaustive tables, same file): at block size 128 the fastest repeat
// gives 30-60 waves (stencil, coop 8: 88% of the best at 13 waves, 93% at
// 30-60; power-law, coop 16: 99% at 15-30; FEM bs=3: 95% at 14, 99.7% at
// ~35), so 32. Constant time: rows, nnz and the GPU's shape.
inline constexpr double kFixedRuleWaves = 32;
CsrVectorParams csr_vector_fixed_rule(long long rows, long long nnz, const GpuShape& gpu);
template <class V, class I>
void csr_spmv_vector(const Executor& ex, V alpha, const DeviceCsr<V, I>& a, const V* x, V beta, V* y, CsrVectorParams p);

// Merge-path CSR (Merrill and Garland): every thread consumes an equal share
// of the rows + nnz merge path, so long rows are split across threads and
// warps; the parts of split rows are combined by a second, segmented kernel
// (deterministic). Needs a workspace of csr_merge_workspace_bytes, filled
// once by csr_merge_prepare (the tiles' corners on the merge path, which
// depend on the row pointers alone) before any product.
std::size_t csr_merge_workspace_bytes(long long rows, long long nnz, std::size_t value_bytes);
/// Searches the merge-path corners of every tile into `workspace` (of
/// csr_merge_workspace_bytes); valid for every product on `a`'s row pointers.
template <class V, class I>
void csr_merge_prepare(const Executor& ex, const DeviceCsr<V, I>& a, void* workspace);
template <class V, class I>
void csr_spmv_merge(const Executor& ex, V alpha, const DeviceCsr<V, I>& a, const V* x, V beta, V* y, void* workspace);

// Long-row-safe CSR (CSR-Adaptive: Greathouse and Daga, SC'14, with the
// long-row splitting Reguly's section 6 asks for on dc1-like matrices).
// Rows are cut, once on the host, into work blocks for 256-thread CUDA
// blocks: runs of short rows with at most kAdaptiveBlockNnz entries in all,
// whose products are staged in shared memory by coalesced loads and reduced
// per row by as many threads as fit; a single row of any length, reduced
// by the whole block; and rows too long for one block, split into pieces
// whose partial sums a second kernel adds in a fixed order (deterministic,
// no atomics).
inline constexpr long long kAdaptiveBlockNnz = 2048;   // short-row budget per block (shared memory)
// Long rows: at most this many entries per block, a row's pieces of equal
// length (kernels/row_blocks.hpp). A piece is one block's strided loop: at
// 16384 entries, 32 dependent load-and-gather steps a lane, and the power
// law's few long rows ran last, alone; at 4096, 8. H200
// (docs/results/2026-11-27-csr-adaptive-long-rows-h200): 4096 within 1% of 2048 on the
// power law, and 3% ahead on
// short-wide, whose 2600-entry rows stay one block each (no second kernel).
inline constexpr long long kAdaptivePieceNnz = 4096;
struct CsrAdaptiveSchedule {
  // 4 per work block: row_begin, row_end (or -(piece slot + 1)), nnz_begin,
  // nnz_end; 64-bit always, and 32-bit as well for int32 indices (rows, nnz
  // and slots are then below 2^31). The plain kernels read a 32-bit block as
  // one 16-byte load and work in 32-bit arithmetic: H200, stencil3d n=155,
  // a replica of CSR16's block ran at 524.6 GFLOP/s with 4 long long numbers
  // a block (8 bytes spilled at 32 registers) and 582.7 with int ones
  // (docs/results/2026-11-27-csr-adaptive-int32-blocks-h200/timings.csv);
  // the evict-first kernel keeps the 64-bit ones (csr_spmv_adaptive.cu).
  DeviceArray<std::int32_t> blocks32;
  DeviceArray<std::int64_t> blocks64;
  template <class I>
  const I* blocks() const {
    static_assert(sizeof(I) == 4 || sizeof(I) == 8);
    if constexpr (sizeof(I) == 4) return reinterpret_cast<const I*>(blocks32.data());
    else return reinterpret_cast<const I*>(blocks64.data());
  }
  DeviceArray<long long> long_rows;  // 3 per split row: row, first slot, end slot
  long long block_count = 0, long_row_count = 0, slots = 0;
  // The short rows' column indices and values loaded evict-first
  // (ld.global.cs, LDG.E.EF as cuSPARSE's csrmv_v3 does): set where x's
  // lines are gathered again after the cache lost them (many columns far
  // from the diagonal: spmv_plan.cpp, gathers_far_columns), so the
  // streaming matrix does not push them out. H100, back to back: +7.6% on
  // powerlaw:min=2.5,rows=4e6 (227.5 -> 244.9 GFLOP/s), -1.7..-2.8% on the
  // stencil, FEM bs = 3 and bcsstk16 replicated, where x stays cached
  // anyway; circuit, random and short-wide unchanged
  // (docs/results/2026-11-26-advisor-model-evict-first-h100).
  bool evict_first = false;
  // Some run of short rows holds a row the kernel leaves to its second
  // phase, a warp per row (csr_spmv_adaptive.cu, kLongRowSteps): set from
  // the row lengths when the schedule is built. Without such a row the
  // kernel skips the phase's bookkeeping and its second barrier.
  bool long_rows_in_runs = false;
  std::size_t workspace_bytes(std::size_t value_bytes) const { return static_cast<std::size_t>(slots) * value_bytes + 16; }
};
template <class I>
CsrAdaptiveSchedule csr_adaptive_schedule(std::span<const I> row_ptr);
template <class V, class I>
void csr_spmv_adaptive(const Executor& ex, V alpha, const DeviceCsr<V, I>& a, const V* x, V beta, V* y,
                       const CsrAdaptiveSchedule& schedule, void* workspace);
// CSR adaptive's 256-thread blocks resident per multiprocessor on the
// current device (the CUDA occupancy calculator: registers and shared
// memory). Double and float with int32 indices were tuned at 8 (32
// registers; float with evict-first has 38, 6 blocks); a change that raised
// them to 48 registers left 5 and cost the short-row blocks a fifth of their
// speed on the H200's suite (docs/results/2026-11-27-csr-adaptive-long-rows-h200), so a
// GPU test holds them there, and build.csr_adaptive_registers checks ptxas's
// registers without a GPU.
template <class V, class I>
int csr_adaptive_blocks_per_sm(bool evict_first);

// CSR with x in column panels (kernels/csr_panels.hpp; cache blocking,
// Nishtala et al. 2007): a block per tile of rows x 64 KB of x, which it
// stages in shared memory while the tile's entries stream past; a group of `lanes` lanes per
// row segment; each row's partial sums per panel added in panel order by a
// second kernel (deterministic). For few, long rows with random columns
// (short-wide), where every other CSR kernel is bound by L2's throughput
// of x gathers. Needs a workspace of segments() values.
template <class V, class I>
struct DeviceCsrPanels {
  I rows = 0, cols = 0;
  long long panel_cols = 1, tile_rows = 1, panels = 0;
  int lanes = 32;  // per row segment: csr_panels_lanes
  DeviceArray<I> segment_ptr;
  DeviceArray<std::uint16_t> column;
  DeviceArray<V> values;
  long long tiles() const { return panels * ((static_cast<long long>(rows) + tile_rows - 1) / tile_rows); }
  long long segments() const { return static_cast<long long>(rows) * panels; }
  static DeviceCsrPanels upload(const CsrPanels<V, I>& a, int lanes) {
    return DeviceCsrPanels{a.rows, a.cols, a.panel_cols, a.tile_rows, a.panels, lanes, DeviceArray<I>(a.segment_ptr),
                           DeviceArray<std::uint16_t>(a.column), DeviceArray<V>(a.values)};
  }
};
// The panels built on the device from an uploaded CSR (the same layout as
// csr_panels on the host, which the GPU tests compare it with); refuses
// what csr_panels refuses.
template <class V, class I>
DeviceCsrPanels<V, I> csr_panels_from_device_csr(const Executor& ex, const DeviceCsr<V, I>& a, const PanelShape& shape);
// Lanes per row segment: about two entries per lane on the mean segment, 4 to 32.
int csr_panels_lanes(double entries_per_segment);
template <class V, class I>
void csr_spmv_panels(const Executor& ex, V alpha, const DeviceCsrPanels<V, I>& a, const V* x, V beta, V* y, void* workspace);

// CSR's column slabs on the device from an uploaded CSR and each slab's row
// pointers (csr_slab_row_ptrs): the same arrays as csr_slabs on the host,
// which the GPU tests compare them with. The slabs run CSR adaptive each.
template <class V, class I>
std::vector<DeviceCsr<V, I>> csr_slabs_from_device_csr(const Executor& ex, const DeviceCsr<V, I>& a, const std::vector<std::vector<I>>& slab_row_ptrs,
                                                       const SlabShape& shape);

// SpMM, Y = alpha A X + beta Y with X, Y device views of k columns
// (kernels/csr_spmm.hpp): X packed row-major per pass of 32 columns, rows
// binned by length: the CSR vector decomposition for short rows (coop
// threads per row, up to 32 column sums in registers), a warp per medium
// row (longer than 4x the mean and 32 entries), and long rows (more than
// 4096) cut into segments of 4096 entries, a block each, whose sums are
// then added per row in segment order; the bins and segments are computed
// once, on the host, by spmm_workspace.
// The plan keeps one SpmmWorkspace per matrix: the bins, and the buffer X
// is packed into, grown when a call needs more and otherwise reused (no
// allocation or synchronisation per product; one stream's products are
// ordered, so reuse is safe).
struct SpmmWorkspace {
  DeviceArray<long long> rows;           // long rows
  long long count = 0;
  DeviceArray<long long> segments;       // per segment of a long row: its first entry and its end (a block each)
  DeviceArray<long long> segment_first;  // count + 1 offsets: long row i's segments are [segment_first[i], segment_first[i + 1])
  long long segment_count = 0;
  DeviceArray<unsigned char> partials;   // the segments' column sums (segment_count x up to 32 values), grown like packed
  DeviceArray<long long> medium_rows;  // a warp each
  long long medium_count = 0;
  long long short_max = -1;            // entries: longer rows are in a list (-1: the matrix is not binned, e.g. SELL's)
  DeviceArray<unsigned char> packed;
};
template <class I>
SpmmWorkspace spmm_workspace(std::span<const I> row_ptr);
template <class V, class I>
void csr_spmm(const Executor& ex, V alpha, const DeviceCsr<V, I>& a, SpmmWorkspace& workspace, const ConstDenseView<V>& x, V beta,
              const DenseView<V>& y);

}  // namespace hsparse::cuda
