// Footprints and sizing rules of the formats (formats/footprint.hpp).
#include "hsparse/formats/footprint.hpp"

#include "hsparse/formats/csr16.hpp"

#include <omp.h>

#include <algorithm>
#include <functional>

#include "hsparse/core/types.hpp"
#include "hsparse/formats/row_statistics.hpp"

namespace hsparse {

namespace {
constexpr std::size_t kIndexBytes = 4;  // footprints assume int32 indices, as in the papers
}  // namespace

// Chunk occupancy beta of SELL-C-sigma: rows sorted by length (descending)
// within windows of sigma rows, then cut into chunks of C rows, each padded
// to its longest row (Kreutzer et al., section 3.4).
template <class V, class I>
SellOccupancy sell_occupancy(const Csr<V, I>& a, int chunk, std::int64_t sigma) {
  SellOccupancy s;
  s.chunk = chunk;
  s.sigma = sigma;
  const std::int64_t rows = a.rows;
  std::vector<std::int64_t> len(static_cast<std::size_t>(rows));
  for (std::int64_t r = 0; r < rows; ++r) len[r] = a.row_ptr[r + 1] - a.row_ptr[r];
  if (sigma > 1) {
    for (std::int64_t w = 0; w < rows; w += sigma) {
      std::sort(len.begin() + w, len.begin() + std::min(rows, w + sigma), std::greater<>());
    }
  }
  std::size_t stored = 0;
  std::int64_t chunks = 0;
  for (std::int64_t c = 0; c < rows; c += chunk, ++chunks) {
    const std::int64_t width = *std::max_element(len.begin() + c, len.begin() + std::min(rows, c + chunk));
    stored += static_cast<std::size_t>(width) * static_cast<std::size_t>(chunk);
  }
  s.stored = static_cast<std::int64_t>(stored);
  s.chunks = chunks;
  s.beta = stored > 0 ? static_cast<double>(a.nnz()) / static_cast<double>(stored) : 1.0;
  // values + column indices, chunk offsets and lengths, row permutation
  s.bytes = stored * (sizeof(V) + kIndexBytes) + static_cast<std::size_t>(2 * chunks + 1) * kIndexBytes +
            static_cast<std::size_t>(rows) * kIndexBytes;
  return s;
}

namespace {

// BCSR blocks of size b in the block rows [br_begin, br_end). The rows of
// a canonical CSR hold increasing columns, so the block columns of one
// block row are the merge of its b increasing lists: a new block wherever
// the merged sequence steps, O(b) a nonzero and no memory. (A marker per
// block column cost 8 bytes per column per thread, allocated and first
// touched at every call, and sorting each block row's columns O(n log n):
// format_footprint took 1.3 s on a 10^7-row circuit matrix on 2 cores,
// 0.5 s with the merge.) A row whose columns are not increasing (a
// hand-made Csr that skipped validate()) sends its block row to sorting,
// which is exact for any order.
template <class V, class I>
std::int64_t sorted_block_count(const Csr<V, I>& a, int b, std::int64_t br, std::vector<std::int64_t>& scratch) {
  scratch.clear();
  const std::int64_t r_end = std::min<std::int64_t>(a.rows, (br + 1) * b);
  for (std::int64_t r = br * b; r < r_end; ++r) {
    for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) scratch.push_back(static_cast<std::int64_t>(a.col_idx[k]) / b);
  }
  std::sort(scratch.begin(), scratch.end());
  return std::unique(scratch.begin(), scratch.end()) - scratch.begin();
}

template <class V, class I>
std::int64_t block_row_blocks(const Csr<V, I>& a, int b, std::int64_t br, std::vector<std::int64_t>& scratch) {
  constexpr int kMergeRows = 8;  // the block sizes the advisor weighs; larger ones sort
  if (b > kMergeRows) return sorted_block_count(a, b, br, scratch);
  const std::int64_t r_begin = br * b, r_end = std::min<std::int64_t>(a.rows, r_begin + b);
  std::int64_t pos[kMergeRows], end[kMergeRows];
  int lists = 0;
  for (std::int64_t r = r_begin; r < r_end; ++r) {
    if (a.row_ptr[r] == a.row_ptr[r + 1]) continue;
    pos[lists] = a.row_ptr[r];
    end[lists] = a.row_ptr[r + 1];
    ++lists;
  }
  std::int64_t blocks = 0, last = -1;
  for (;;) {
    int next = -1;
    std::int64_t column = 0;
    for (int i = 0; i < lists; ++i) {
      if (pos[i] == end[i]) continue;
      const std::int64_t c = a.col_idx[pos[i]];
      if (next < 0 || c < column) next = i, column = c;
    }
    if (next < 0) return blocks;
    const std::int64_t block = column / b;
    if (block != last) ++blocks, last = block;
    if (++pos[next] < end[next] && a.col_idx[pos[next]] <= column) return sorted_block_count(a, b, br, scratch);  // not increasing
  }
}

template <class V, class I>
std::int64_t blocks_in(const Csr<V, I>& a, int b, std::int64_t br_begin, std::int64_t br_end, std::vector<std::int64_t>& scratch) {
  std::int64_t blocks = 0;
  for (std::int64_t br = br_begin; br < br_end; ++br) blocks += block_row_blocks(a, b, br, scratch);
  return blocks;
}

// Whether a scratch array of `entries` per thread may be allocated for a
// pass over a's entries: only when it is no larger than the matrix itself
// (or 64 MiB). Otherwise the pass sorts what the entries give, O(nnz)
// memory: a 2 x 2^31 matrix of two entries asked 16 GiB per thread, inside
// a parallel region where bad_alloc ends the process (issue 62).
template <class V, class I>
bool scratch_fits(const Csr<V, I>& a, std::size_t entries, std::size_t entry_bytes, int threads) {
  const double bytes = static_cast<double>(entries) * static_cast<double>(entry_bytes) * threads;
  return bytes <= std::max(static_cast<double>(a.bytes()), 64.0 * 1024 * 1024);
}

}  // namespace

template <class V, class I>
BcsrFill bcsr_fill(const Csr<V, I>& a, int b) {
  BcsrFill f;
  f.block = b;
  const std::int64_t block_rows = (static_cast<std::int64_t>(a.rows) + b - 1) / b;
  std::int64_t blocks = 0;
#pragma omp parallel reduction(+ : blocks)
  {
    // Used only for a block row whose columns are not increasing (its
    // entries' block columns, a short array): the merge allocates nothing.
    std::vector<std::int64_t> scratch;
#pragma omp for schedule(dynamic, 256)
    for (std::int64_t br = 0; br < block_rows; ++br) blocks += block_row_blocks(a, b, br, scratch);
  }
  f.blocks = blocks;
  f.fill_ratio = a.nnz() > 0 ? static_cast<double>(f.blocks) * b * b / static_cast<double>(a.nnz()) : 1.0;
  f.bytes = static_cast<std::size_t>(f.blocks) * (static_cast<std::size_t>(b) * b * sizeof(V) + kIndexBytes) +
            static_cast<std::size_t>(block_rows + 1) * kIndexBytes;
  return f;
}

// Exact below 2^22 nonzeros or 32 windows; above, from a sixteenth of the
// rows in evenly spread windows of 840 rows (a multiple of every block size
// up to 8, so each window holds whole block rows of each): bcsr_fill for each
// of the 8 block sizes was a full pass over the entries, 0.2 s on 29 M
// nonzeros on 2 cores, more than BCSR's conversion itself (0.16 s), and the
// plan paid it before every BCSR conversion of the bench (issue 37).
template <class V, class I>
int best_bcsr_block(const Csr<V, I>& a, int max_block) {
  constexpr std::int64_t kWindowRows = 840;
  const std::int64_t windows = static_cast<std::int64_t>(a.rows) / kWindowRows / 16;
  const bool sampled = a.nnz() >= (std::size_t{1} << 22) && windows >= 32;
  int best = 1;
  double best_bytes = -1;
  for (int b = 1; b <= max_block; ++b) {
    double bytes = 0;
    if (!sampled) {
      bytes = static_cast<double>(bcsr_fill(a, b).bytes);
    } else {
      std::int64_t blocks = 0;
#pragma omp parallel reduction(+ : blocks)
      {
        std::vector<std::int64_t> scratch;
#pragma omp for schedule(dynamic, 4)
        for (std::int64_t w = 0; w < windows; ++w) {
          const std::int64_t first_row = (a.rows / kWindowRows) * w / windows * kWindowRows;
          blocks += blocks_in(a, b, first_row / b, (first_row + kWindowRows) / b, scratch);
        }
      }
      // Per sampled row, scaled to all rows; the block row offsets as bcsr_fill counts them.
      const double rows_sampled = static_cast<double>(windows * kWindowRows);
      bytes = static_cast<double>(blocks) * static_cast<double>(a.rows) / rows_sampled * (static_cast<double>(b) * b * sizeof(V) + kIndexBytes) +
              static_cast<double>(a.rows / b + 1) * kIndexBytes;
    }
    // A sampled estimate takes a larger block only for a clear gain: banded
    // (bandwidth 6) stores exactly as many bytes at b = 2 as at 3, and the
    // sample's rounding must not flip the exact count's choice of 2.
    if (best_bytes < 0 || bytes < best_bytes * (sampled ? 0.999 : 1.0)) { best = b; best_bytes = bytes; }
  }
  return best;
}

std::int64_t hyb_ell_width(const std::vector<std::int64_t>& histogram, std::int64_t rows) {
  // cusp's compute_optimal_entries_per_row (relative speed 3, breakeven 4096):
  // the first width i at which fewer than rows/3 rows, or fewer than 4096
  // rows, would still have entries beyond column i.
  constexpr double kRelativeSpeed = 3.0;
  constexpr std::int64_t kBreakevenRows = 4096;
  std::int64_t longer_than_i = rows;
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(histogram.size()); ++i) {
    longer_than_i -= histogram[static_cast<std::size_t>(i)];
    if (kRelativeSpeed * static_cast<double>(longer_than_i) < static_cast<double>(rows) || longer_than_i < kBreakevenRows) {
      return i;
    }
  }
  return static_cast<std::int64_t>(histogram.size()) - 1;
}

template <class V, class I>
std::vector<std::int64_t> row_length_histogram(const Csr<V, I>& a) {
  std::vector<std::int64_t> histogram;
  for (I r = 0; r < a.rows; ++r) {
    const auto len = static_cast<std::size_t>(a.row_ptr[r + 1] - a.row_ptr[r]);
    if (len >= histogram.size()) histogram.resize(len + 1, 0);
    ++histogram[len];
  }
  if (histogram.empty()) histogram.push_back(0);
  return histogram;
}

template <class V, class I>
FormatFootprint format_footprint(const Csr<V, I>& a, int sell_chunk, std::int64_t sell_sigma) {
  FormatFootprint f;
  f.rows = a.rows;
  f.cols = a.cols;
  f.nnz = static_cast<std::int64_t>(a.nnz());
  f.complex_values = is_complex_v<V>;
  const std::vector<std::int64_t> histogram = row_length_histogram(a);
  f.max_row_length = static_cast<std::int64_t>(histogram.size()) - 1;
  // DIA's diagonals: a marker per possible diagonal (rows + cols of them)
  // where that is no larger than the matrix, else the entries' offsets sorted.
  const std::size_t possible = static_cast<std::size_t>(a.rows) + static_cast<std::size_t>(a.cols);
  const bool marker = scratch_fits(a, possible, 1, 1);
  std::vector<char> has_diagonal(marker ? possible : 0, 0);
  std::vector<std::int64_t> offsets;
  if (!marker) offsets.reserve(a.nnz());
  for (I r = 0; r < a.rows; ++r) {
    for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const std::int64_t offset = static_cast<std::int64_t>(a.col_idx[k]) - r;
      if (marker) {
        has_diagonal[static_cast<std::size_t>(offset + a.rows)] = 1;
      } else {
        offsets.push_back(offset);
      }
    }
    if (a.row_ptr[r + 1] > a.row_ptr[r] && static_cast<std::int64_t>(a.col_idx[a.row_ptr[r + 1] - 1]) - a.col_idx[a.row_ptr[r]] >= kCsr16Span) {
      ++f.csr16_wide_rows;
      f.csr16_wide_entries += a.row_ptr[r + 1] - a.row_ptr[r];
    }
  }
  if (marker) {
    f.diagonals = std::count(has_diagonal.begin(), has_diagonal.end(), 1);
  } else {
    std::sort(offsets.begin(), offsets.end());
    f.diagonals = std::unique(offsets.begin(), offsets.end()) - offsets.begin();
  }
  f.hyb_ell_width = hyb_ell_width(histogram, a.rows);
  std::int64_t in_ell = 0;
  for (std::size_t len = 0; len < histogram.size(); ++len) {
    in_ell += histogram[len] * std::min<std::int64_t>(static_cast<std::int64_t>(len), f.hyb_ell_width);
  }
  f.hyb_coo_entries = f.nnz - in_ell;
  f.bcsr = bcsr_fill(a, best_bcsr_block(a));
  f.sell = sell_occupancy(a, sell_chunk, std::max<std::int64_t>(1, std::min<std::int64_t>(a.rows, sell_sigma)));
  return f;
}

#define HSPARSE_INSTANTIATE(V, I)                                                   \
  template FormatFootprint format_footprint(const Csr<V, I>&, int, std::int64_t); \
  template BcsrFill bcsr_fill(const Csr<V, I>&, int);                               \
  template int best_bcsr_block(const Csr<V, I>&, int);                              \
  template SellOccupancy sell_occupancy(const Csr<V, I>&, int, std::int64_t);      \
  template std::vector<std::int64_t> row_length_histogram(const Csr<V, I>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
