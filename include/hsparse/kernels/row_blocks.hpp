#pragma once
// CSR-Adaptive's work decomposition (Greathouse and Daga, SC'14), computed
// once on the host for the GPU kernel (backends/cuda/csr_spmv.hpp) and
// backend-neutral, so its invariants are tested without a GPU.
//
// Rows are cut, in order, into work blocks of 4 numbers each:
//   row_begin, row_end, nnz_begin, nnz_end
//  - a run of rows with at most block_nnz entries in all and at most
//    max_rows rows (CSR-stream; row_end > row_begin + 1 or a single short row);
//  - one row longer than block_nnz but at most piece_nnz (row_end = row_begin + 1);
//  - a piece of a longer row, cut into ceil(length / piece_nnz) pieces of
//    equal length (within one entry): row_end = -(slot + 1), the piece's partial sum
//    goes to that slot; long_rows lists (row, first slot, end slot) per split row.
// The nnz ranges of the blocks tile [0, nnz) in order.
#include <cstdint>
#include <span>
#include <vector>

#include "hsparse/core/host_device.hpp"

namespace hsparse {

struct RowBlocks {
  std::vector<long long> blocks;     // 4 per work block
  std::vector<long long> long_rows;  // 3 per split row
  long long slots = 0;               // partial sums of split rows
};

template <class I>
RowBlocks adaptive_row_blocks(std::span<const I> row_ptr, long long block_nnz, long long piece_nnz, long long max_rows);

// The kernel's short-row path (backends/cuda/csr_spmv_adaptive.cu): a run of
// `rows` rows gets `width` lanes per row, as many as fit in the block's
// `threads` (width * rows <= threads, a power of two <= 32).
HSPARSE_HOST_DEVICE constexpr int adaptive_run_width(long long rows, int threads) {
  int width = 32;
  while (width > 1 && width * rows > threads) width /= 2;
  return width;
}

// A row of `length` entries in a run of `width` lanes per row is left to the
// kernel's second phase, a warp per row, when it passes `long_row_steps`
// entries per lane (with 32 lanes it already has a warp).
HSPARSE_HOST_DEVICE constexpr bool adaptive_second_phase_row(long long length, int width, int long_row_steps) {
  return width < 32 && length > static_cast<long long>(long_row_steps) * width;
}

// Whether some run of `b` holds a row for the second phase: where none does,
// the kernel skips the phase's bookkeeping and second barrier.
template <class I>
bool runs_hold_second_phase_rows(const RowBlocks& b, std::span<const I> row_ptr, int threads, int long_row_steps);

}  // namespace hsparse
