#pragma once
// What a matrix would cost in each storage format, from cheap statistics
// of its CSR form: the inputs of every format's byte model
// (FormatTraits::bytes in formats/format.hpp) and the rules that size a
// format (HYB's ELL width, the fewest-bytes BCSR block, SELL occupancy).
// The plans, the analysis (`hsparse info`) and the advisor all read these,
// so a format's size is computed in one place.
#include <cstdint>
#include <vector>

#include "hsparse/formats/csr.hpp"

namespace hsparse {

struct BcsrFill {
  int block = 1;
  std::int64_t blocks = 0;
  double fill_ratio = 1;  // stored block entries / nonzeros (>= 1)
  std::size_t bytes = 0;  // int32 indices
};

struct SellOccupancy {
  int chunk = 32;            // C
  std::int64_t sigma = 1;    // sorting scope (1: no sorting)
  double beta = 1;           // nnz / stored entries, eq. (3) of the SELL-C-sigma paper
  std::int64_t stored = 0;   // stored entries, padding included
  std::int64_t chunks = 0;
  std::size_t bytes = 0;     // int32 indices
};

// The statistics every format's byte model reads. Sizes are counts, not
// bytes: FormatTraits::bytes turns them into bytes for a value and index width.
struct FormatFootprint {
  std::int64_t rows = 0, cols = 0, nnz = 0;
  std::int64_t max_row_length = 0;
  std::int64_t diagonals = 0;        // distinct j - i offsets holding entries
  std::int64_t hyb_ell_width = 0;    // cusp's rule
  std::int64_t hyb_coo_entries = 0;  // entries beyond that width
  BcsrFill bcsr;                     // at the fewest-bytes block size in 1..8
  SellOccupancy sell;                // at the chunk and sigma asked for
  std::int64_t csr16_wide_rows = 0;     // rows whose columns span 2^16 or more (CSR16's plain-CSR part)
  std::int64_t csr16_wide_entries = 0;  // their entries
  bool complex_values = false;          // the single-precision formats store complex<float> (8 bytes) or float (4)
};

// One pass over the rows plus the BCSR and SELL counts. sell_chunk and
// sell_sigma choose the SELL variant measured (sigma clamped to the rows).
template <class V, class I>
FormatFootprint format_footprint(const Csr<V, I>& a, int sell_chunk = 32, std::int64_t sell_sigma = 4096);

// Blocks, fill and bytes of BCSR with block size b (double-counting none).
template <class V, class I>
BcsrFill bcsr_fill(const Csr<V, I>& a, int block);
// The block size in [1, max_block] whose BCSR takes the fewest bytes.
template <class V, class I>
int best_bcsr_block(const Csr<V, I>& a, int max_block = 8);

// Chunk occupancy of SELL-C-sigma (Kreutzer et al., section 3.4).
template <class V, class I>
SellOccupancy sell_occupancy(const Csr<V, I>& a, int chunk, std::int64_t sigma);

// HYB split (Bell and Garland, as implemented in cusp): the ELL width is the
// smallest K at which fewer than max(4096, rows / 3) rows have more than K
// entries; entries beyond column K go to COO. Matrices under 4096 rows get K = 0.
std::int64_t hyb_ell_width(const std::vector<std::int64_t>& row_length_histogram, std::int64_t rows);
// Row-length histogram: entry k counts the rows with k entries.
template <class V, class I>
std::vector<std::int64_t> row_length_histogram(const Csr<V, I>& a);

}  // namespace hsparse
