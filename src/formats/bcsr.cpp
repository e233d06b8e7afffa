#include "hsparse/formats/bcsr.hpp"
#include "traits_models.hpp"

#include <algorithm>
#include <string>

#include "csr_from_rows.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/formats/padding.hpp"

namespace hsparse {

template <class V, class I>
void Bcsr<V, I>::validate() const {
  if (block < 1 || block > 32) throw Error(ErrorCode::invalid_matrix, "BCSR: block size outside [1, 32]");
  if (row_ptr.size() != static_cast<std::size_t>(block_rows) + 1 || static_cast<std::size_t>(row_ptr.back()) != col_idx.size() ||
      values.size() != col_idx.size() * block_stride || block_stride < static_cast<std::size_t>(block) * block) {
    throw Error(ErrorCode::invalid_matrix, "BCSR: inconsistent sizes");
  }
  for (I br = 0; br < block_rows; ++br) {
    for (I k = row_ptr[br]; k < row_ptr[br + 1]; ++k) {
      if (col_idx[k] < 0 || col_idx[k] >= block_cols || (k > row_ptr[br] && col_idx[k] <= col_idx[k - 1])) {
        throw Error(ErrorCode::invalid_matrix, "BCSR: block row " + std::to_string(br) + " has bad block column indices");
      }
    }
  }
}

namespace {

// The entries of block row br, in row order: fn(row, k).
template <class V, class I, class F>
void for_each_block_row_entry(const Csr<V, I>& a, int block, I br, F&& fn) {
  const I r_end = std::min<I>(a.rows, (br + 1) * block);
  for (I r = br * block; r < r_end; ++r) {
    for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) fn(r, k);
  }
}

}  // namespace

template <class V, class I>
Bcsr<V, I> bcsr_pattern(const Csr<V, I>& a, int block, bool align_blocks_64, double max_fill) {
  if (block < 1 || block > 32) throw Error(ErrorCode::invalid_argument, "BCSR: block size must be in [1, 32], got " + std::to_string(block));
  Bcsr<V, I> b;
  b.rows = a.rows;
  b.cols = a.cols;
  b.block = block;
  b.nnz = a.nnz();
  b.block_rows = static_cast<I>((static_cast<std::int64_t>(a.rows) + block - 1) / block);
  b.block_cols = static_cast<I>((static_cast<std::int64_t>(a.cols) + block - 1) / block);
  const std::size_t bb = static_cast<std::size_t>(block) * block;
  // The padded/aligned variant starts every block on a 64-byte boundary.
  b.block_stride = align_blocks_64 ? (bb * sizeof(V) + 63) / 64 * 64 / sizeof(V) : bb;
  b.row_ptr.assign(static_cast<std::size_t>(b.block_rows) + 1, 0);

  // Pass 1: count the distinct block columns of each block row (a per-thread
  // "last seen in block row" marker; no allocation per block row).
  std::vector<I> distinct(static_cast<std::size_t>(b.block_rows), 0);
#pragma omp parallel
  {
    std::vector<I> seen(static_cast<std::size_t>(b.block_cols), -1);
#pragma omp for schedule(dynamic, 64)
    for (I br = 0; br < b.block_rows; ++br) {
      I n = 0;
      for_each_block_row_entry(a, block, br, [&](I, I k) {
        auto& s = seen[static_cast<std::size_t>(a.col_idx[k] / block)];
        if (s != br) { s = br; ++n; }
      });
      distinct[static_cast<std::size_t>(br)] = n;
    }
  }
  for (I br = 0; br < b.block_rows; ++br) b.row_ptr[br + 1] = b.row_ptr[br] + distinct[static_cast<std::size_t>(br)];
  const double slots = static_cast<double>(b.row_ptr[b.block_rows]) * static_cast<double>(bb);
  const double fill = slots / static_cast<double>(std::max<std::size_t>(a.nnz(), 1));
  if (fill > max_fill && slots > 1e6) {
    throw Error(ErrorCode::invalid_argument,
                "BCSR refused: " + std::to_string(b.row_ptr[b.block_rows]) + " blocks of " + std::to_string(block) + "x" +
                    std::to_string(block) + " store " + std::to_string(static_cast<long long>(slots)) + " entries for " +
                    std::to_string(a.nnz()) + " nonzeros (fill " + std::to_string(fill) + " > limit " + std::to_string(max_fill) + ")");
  }
  b.col_idx.resize(static_cast<std::size_t>(b.row_ptr[b.block_rows]));

  // Pass 2, per block row: its sorted block columns.
#pragma omp parallel
  {
    std::vector<I> slot_of(static_cast<std::size_t>(b.block_cols), -1);
#pragma omp for schedule(dynamic, 64)
    for (I br = 0; br < b.block_rows; ++br) {
      const I first = b.row_ptr[br];
      I n = first;
      for_each_block_row_entry(a, block, br, [&](I, I k) {
        const I bc = a.col_idx[k] / block;
        auto& slot = slot_of[static_cast<std::size_t>(bc)];
        if (slot < first || slot >= n || b.col_idx[slot] != bc) {
          slot = n;
          b.col_idx[n++] = bc;
        }
      });
      std::sort(b.col_idx.begin() + first, b.col_idx.begin() + b.row_ptr[br + 1]);
    }
  }
  return b;
}

template <class V, class I>
Bcsr<V, I> bcsr_from_csr(const Csr<V, I>& a, int block, bool align_blocks_64, double max_fill) {
  Bcsr<V, I> b = bcsr_pattern(a, block, align_blocks_64, max_fill);
  b.values.resize(b.col_idx.size() * b.block_stride);  // not zeroed here: each block row zeroes its own
  // Per block row: zeroed blocks, then every entry scattered into its block
  // (column-major inside a block).
#pragma omp parallel
  {
    std::vector<I> slot_of(static_cast<std::size_t>(b.block_cols), -1);
#pragma omp for schedule(dynamic, 64)
    for (I br = 0; br < b.block_rows; ++br) {
      const I first = b.row_ptr[br], last = b.row_ptr[br + 1];
      for (I j = first; j < last; ++j) slot_of[static_cast<std::size_t>(b.col_idx[j])] = j;
      std::fill(b.values.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(first) * b.block_stride),
                b.values.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(last) * b.block_stride), V(0));
      for_each_block_row_entry(a, block, br, [&](I r, I k) {
        const I c = a.col_idx[k];
        const auto blk = static_cast<std::size_t>(slot_of[static_cast<std::size_t>(c / block)]);
        b.values[blk * b.block_stride + static_cast<std::size_t>(c % block) * block + static_cast<std::size_t>(r - br * block)] = stored_entry(a.values[k]);
      });
    }
  }
  return b;
}

template <class V, class I>
Csr<V, I> bcsr_to_csr(const Bcsr<V, I>& b) {
  const int bs = b.block;
  auto each_entry = [&](I r, auto&& fn) {
    const I br = r / bs, i = r % bs;
    for (I k = b.row_ptr[br]; k < b.row_ptr[br + 1]; ++k) {
      for (int j = 0; j < bs; ++j) {
        const std::int64_t c = static_cast<std::int64_t>(b.col_idx[k]) * bs + j;
        if (c >= b.cols) break;
        const V v = b.values[static_cast<std::size_t>(k) * b.block_stride + static_cast<std::size_t>(j) * bs + static_cast<std::size_t>(i)];
        if (!is_padding(v)) fn(static_cast<I>(c), v);  // an explicit zero is an entry (formats/padding.hpp)
      }
    }
  };
  return detail::csr_from_rows<V, I>(b.rows, b.cols, each_entry);
}

#define HSPARSE_INSTANTIATE(V, I)                                       \
  template struct Bcsr<V, I>;                                           \
  template Bcsr<V, I> bcsr_from_csr(const Csr<V, I>&, int, bool, double);       \
  template Bcsr<V, I> bcsr_pattern(const Csr<V, I>&, int, bool, double);        \
  template Csr<V, I> bcsr_to_csr(const Bcsr<V, I>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse

namespace hsparse::detail {

// Its row of the format registry (formats/format.hpp): the byte model counts what the conversion above stores.
FormatTraits format_traits_bcsr() {
  return {Format::bcsr, "bcsr", "BCSR", "dense b x b blocks in CSR order, column-major blocks (Eberhardt and Hoemmen)", 16.0,
          "stored block entries",
          {{"--block-size", "block size b (default: the fewest bytes in 1..8)"}, {"--align-blocks", "64-byte aligned blocks (CPU)"},
           {"--max-fill", "refuse beyond this many stored entries per nonzero"}},
          true,
          [](const FormatFootprint& f, std::size_t vb, std::size_t ib) {
            const std::size_t b = count(f.bcsr.block), block_rows = (count(f.rows) + b - 1) / std::max<std::size_t>(b, 1);
            return count(f.bcsr.blocks) * (b * b * vb + ib) + (block_rows + 1) * ib;
          },
          [](const FormatFootprint& f) { return f.bcsr.fill_ratio; },
          [](const FormatFootprint& f) { return "block " + std::to_string(f.bcsr.block); }};
}

}  // namespace hsparse::detail
