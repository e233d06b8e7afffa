#pragma once
// CSR cut into tiles of rows x column panels, for the GPU's "panels" kernel
// (backends/cuda/csr_spmv.hpp): cache blocking of x (Nishtala, Vuduc,
// Demmel and Yelick, "When cache blocking of sparse matrix vector multiply
// works and why", AAECC 2007, section 2), built once on the host and
// backend-neutral, so its invariants are tested without a GPU.
//
// Why: on a matrix of few, long rows with random columns (short-wide) every
// product gathers one x value per entry from L2, a 32-byte sector for 8
// useful bytes; the H100's L2 throughput, not its memory, then bounds the
// CSR kernels and cuSPARSE alike (Nsight Compute: L2 96%, DRAM 40%,
// docs/results/2026-11-26-bcsr-bs3-kernels-h100). Cut into column panels of
// 64 KB of x, a tile's many entries gather from one panel, which the block
// keeps in shared memory, read from L2 once per tile.
//
// Layout: rows are cut into chunks of tile_rows; chunk c, panel p is tile
// c * panels + p. Its segments (one per row of the chunk: the row's entries
// in the panel, in column order) follow each other, tiles in order, so
// segment s = c * tile_rows * panels + p * rows_in_chunk(c) + (r - c *
// tile_rows) and its entries are [segment_ptr[s], segment_ptr[s + 1]).
// Columns are stored as 16-bit offsets from the panel's first column
// (panel_cols <= 65536).
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "hsparse/formats/csr.hpp"

namespace hsparse {

template <class V, class I>
struct CsrPanels {
  I rows = 0, cols = 0;
  long long panel_cols = 1, tile_rows = 1, panels = 0;  // panels = ceil(cols / panel_cols)
  std::vector<I> segment_ptr;           // rows * panels + 1
  std::vector<std::uint16_t> column;    // per entry: its column - panel * panel_cols
  std::vector<V> values;
  long long tiles() const { return panels * ((static_cast<long long>(rows) + tile_rows - 1) / tile_rows); }
  long long segments() const { return static_cast<long long>(rows) * panels; }
  // Segment of row r in panel p.
  long long segment(long long r, long long p) const {
    const long long c = r / tile_rows, first = c * tile_rows;
    const long long in_chunk = std::min<long long>(tile_rows, static_cast<long long>(rows) - first);
    return first * panels + p * in_chunk + (r - first);
  }
};

// Column panels of panel_cols columns covering cols columns: ceil(cols / panel_cols).
inline long long panel_count(long long cols, long long panel_cols) { return cols > 0 ? (cols + panel_cols - 1) / panel_cols : 0; }

// The tile shape for a matrix: panels of panel_bytes of x, and rows per
// tile such that a tile holds about kPanelReuse entries per 32-byte sector
// of its panel (a multiple of 32 rows, at most the matrix's rows).
inline constexpr long long kPanelBytes = 64 * 1024;
inline constexpr double kPanelReuse = 8;
struct PanelShape {
  long long panel_cols = 1, tile_rows = 1, panels = 0;
  double entries_per_segment = 0;  // mean entries of a row in a panel
};
PanelShape csr_panel_shape(long long rows, long long cols, long long nnz, std::size_t value_bytes);

// Whether the advisor takes the panels for CSR on the GPU: x spans two
// panels or more (a smaller x stays in L1 anyway) and a row has at least
// kPanelAutoEntries entries per panel on average. There the segment
// pointers and partial sums (4 + 16 bytes per segment) cost at most 2.5
// bytes per entry against the 2 the 16-bit columns save, and the gathers
// leave L2. Measured on short-wide matrices only (19.4 per segment, H100:
// 1.41x cuSPARSE's CSR, docs/results/2026-11-26-bcsr-lanes-csr-panels-h100).
inline constexpr double kPanelAutoEntries = 8;
inline bool csr_panels_suit(const PanelShape& s) { return s.panels >= 2 && s.entries_per_segment >= kPanelAutoEntries; }

// The panels' setup beyond CSR's own (the advisor's conversion cost), per
// byte of the layout (csr_panels_bytes), from hsparse bench's setups on
// short-wide (25969074 entries, 286 MB of panels; on the CPU 5809357, 59 MB),
// panels minus the least setup of a CSR kernel:
//  - GPU, built on the device from the uploaded CSR: H200 13.0-13.6 ms
//    against 9.1, H100 22.2 against 8.6
//    (docs/results/2026-11-27-spmv-suite-h100): 0.016-0.047 ns per byte;
//  - CPU, built from the CSR by the host's cores: 2-core build VM 17.6-42.3
//    ms against 5.7-22.9 over three runs: 0.19-0.33 ns per byte.
// Charged nothing (CSR's zero), the panels were taken at N = 10 products on
// the H100 at 15.5 ms (1.9 ms of products and 13.6 of setup) over CSR
// adaptive's 2.5.
inline constexpr double kPanelBuildSecondsPerByteGpu = 0.05e-9;
inline constexpr double kPanelBuildSecondsPerByteCpu = 0.3e-9;
// The panels' speed over every other exact kernel where they suit
// (csr_panels_suit), which the advisor's byte model cannot see (advisor.cpp):
// on short-wide, the fastest other one took 1.25x the panels' time on the
// H200 (CSR adaptive) and 1.32x on the H100 (BCSR; cuSPARSE's CSR 1.20x and
// 1.29x); on the 2-core build VM 1.38x (BCSR and CSR merge). The least of
// each backend.
//
// Only where the rows' gathers scatter: more than kPanelScatteredAlpha x
// values of traffic per entry from a near cache of kPanelNearCacheBytes
// (tuning/advisor.hpp's rhs_reuse_alpha; short-wide's random columns about
// 8, a line per entry). A FEM matrix with x just past one panel (block 6,
// n = 12, 83 KB) gathers from a few lines per block row, and BCSR stays
// ahead of the panels there.
inline constexpr double kPanelNearCacheBytes = 4.0 * kPanelBytes;
inline constexpr double kPanelScatteredAlpha = 1.0;
inline constexpr double kPanelSpeedupGpu = 1.25;
inline constexpr double kPanelSpeedupCpu = 1.35;
// The GPU's panels are bound by their multiprocessors, not the memory: on
// short-wide at 1589 GB/s of their minimum traffic on the H100 (52% of its
// read bandwidth) and 1722 on the H200 (38%), 6.1 and 6.6
// bytes per cycle of 132 SMs at 1.98 GHz. The advisor bounds their
// efficiency by the lower (the byte model alone predicted 712 GFLOP/s on the
// H200, measured 303).
inline constexpr double kPanelSmBytesPerCycle = 6.1;

// Bytes of the layout: each entry's value and 16-bit column, and a pointer
// of index_bytes per row and panel (the advisor's byte model).
inline double csr_panels_bytes(const PanelShape& s, long long rows, long long nnz, std::size_t value_bytes, std::size_t index_bytes) {
  return static_cast<double>(nnz) * static_cast<double>(value_bytes + sizeof(std::uint16_t)) +
         (static_cast<double>(rows) * static_cast<double>(s.panels) + 1) * static_cast<double>(index_bytes);
}

// Throws Error(invalid_argument) when the matrix has fewer than
// kMinPanelSegmentEntries entries per segment on average (the segment
// pointers and partial sums would outweigh what the panels save: the
// layout suits few, long rows) and Error(overflow) when a count passes I.
inline constexpr double kMinPanelSegmentEntries = 2;
template <class V, class I>
CsrPanels<V, I> csr_panels(const Csr<V, I>& a, const PanelShape& shape);
// The same refusals without the matrix (the GPU's conversion checks them
// before uploading anything); index_max: the largest value of the index type.
void check_csr_panels(long long rows, long long cols, long long nnz, const PanelShape& shape, long long index_max);

// y = alpha A x + beta y from the panels, serially, each row's panels in
// order: a check of the layout (the tests compare it with CSR's reference).
template <class V, class I>
void csr_panels_spmv_reference(V alpha, const CsrPanels<V, I>& a, const V* x, V beta, V* y);

// The CPU's shape: the GPU's panels (64 KB of x, within a core's L2), with
// tiles of at most a quarter of the rows per thread, so that `threads`
// threads share the tiles evenly (a multiple of 32 rows, at least 32).
PanelShape csr_panel_shape_for_threads(long long rows, long long cols, long long nnz, std::size_t value_bytes, int threads);

namespace openmp {
// The panels on the CPU (backends/openmp/csr_panels_spmv.cpp): OpenMP
// threads take tiles of rows; a thread walks its tile's panels in order,
// adding each row's segment into a local sum per row, so a panel of x
// stays in the core's cache while the tile's entries in it stream past.
// Measured on the 2-core build VM (AMD EPYC, short-wide of
// 2237 rows x 2600 per row): 3.0-3.2 GFLOP/s against CSR's OpenMP kernel's
// 2.3-2.5, at any panel width from 8192 to 65536 columns.
template <class V, class I>
void csr_panels_spmv(V alpha, const CsrPanels<V, I>& a, std::span<const V> x, V beta, std::span<V> y);
}  // namespace openmp

}  // namespace hsparse
