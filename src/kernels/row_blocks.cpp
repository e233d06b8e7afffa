#include "hsparse/kernels/row_blocks.hpp"

#include <algorithm>

#include "hsparse/core/error.hpp"

namespace hsparse {

template <class I>
RowBlocks adaptive_row_blocks(std::span<const I> row_ptr, long long block_nnz, long long piece_nnz, long long max_rows) {
  if (block_nnz < 1 || piece_nnz < block_nnz || max_rows < 1) {
    throw Error(ErrorCode::invalid_argument, "adaptive row blocks: need block_nnz >= 1, piece_nnz >= block_nnz, max_rows >= 1");
  }
  RowBlocks out;
  const long long rows = row_ptr.empty() ? 0 : static_cast<long long>(row_ptr.size()) - 1;
  auto at = [&](long long r) { return static_cast<long long>(row_ptr[static_cast<std::size_t>(r)]); };
  auto block = [&](long long a, long long b, long long c, long long d) {
    out.blocks.push_back(a);
    out.blocks.push_back(b);
    out.blocks.push_back(c);
    out.blocks.push_back(d);
  };
  // About one block per block_nnz entries or max_rows rows: reserve once.
  out.blocks.reserve(static_cast<std::size_t>(4 * (rows / max_rows + (rows > 0 ? at(rows) : 0) / block_nnz + 16)));
  for (long long r = 0; r < rows;) {
    const long long len = at(r + 1) - at(r);
    if (len > block_nnz) {
      const long long pieces = (len + piece_nnz - 1) / piece_nnz;
      if (pieces == 1) {
        block(r, r + 1, at(r), at(r + 1));
      } else {
        out.long_rows.push_back(r);
        out.long_rows.push_back(out.slots);
        out.long_rows.push_back(out.slots + pieces);
        // Pieces of equal length (the first len % pieces take one entry
        // more), not piece_nnz and a short rest: a row's blocks finish together.
        const long long base = len / pieces, extra = len % pieces;
        const auto start = [&](long long p) { return at(r) + p * base + std::min(p, extra); };
        for (long long p = 0; p < pieces; ++p) block(r, -(out.slots + p + 1), start(p), start(p + 1));
        out.slots += pieces;
      }
      ++r;
      continue;
    }
    long long end = r + 1;  // row r fits: len <= the budget
    const long long limit = std::min(rows, r + max_rows), budget = at(r) + block_nnz;
    while (end < limit && at(end + 1) <= budget) ++end;
    block(r, end, at(r), at(end));
    r = end;
  }
  return out;
}

template <class I>
bool runs_hold_second_phase_rows(const RowBlocks& b, std::span<const I> row_ptr, int threads, int long_row_steps) {
  // Parallel over the work blocks: where no run holds such a row (every
  // regular matrix) every row is read, and this is part of the GPU plan's
  // setup (7 ms serial for 7.6 M rows on the 2-core build VM).
  const auto count = static_cast<long long>(b.blocks.size() / 4);
  bool found = false;
#pragma omp parallel for schedule(static) reduction(|| : found)
  for (long long i = 0; i < count; ++i) {
    const long long row_begin = b.blocks[static_cast<std::size_t>(4 * i)], row_end = b.blocks[static_cast<std::size_t>(4 * i + 1)];
    if (found || row_end < 0 || row_end - row_begin < 2) continue;  // one row or a piece: a whole block each
    const int width = adaptive_run_width(row_end - row_begin, threads);
    for (long long r = row_begin; r < row_end && !found; ++r) {
      const auto length = static_cast<long long>(row_ptr[static_cast<std::size_t>(r) + 1] - row_ptr[static_cast<std::size_t>(r)]);
      found = adaptive_second_phase_row(length, width, long_row_steps);
    }
  }
  return found;
}

template RowBlocks adaptive_row_blocks(std::span<const std::int32_t>, long long, long long, long long);
template RowBlocks adaptive_row_blocks(std::span<const std::int64_t>, long long, long long, long long);
template bool runs_hold_second_phase_rows(const RowBlocks&, std::span<const std::int32_t>, int, int);
template bool runs_hold_second_phase_rows(const RowBlocks&, std::span<const std::int64_t>, int, int);

}  // namespace hsparse
