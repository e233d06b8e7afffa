#pragma once
// Builds a CSR matrix from a function that emits one row's entries.
// The function is called twice per row (count, then fill), in parallel, so it
// must be a pure function of the row: all generators are, via hash_uniform.
// Entries may come unsorted and repeated: they are sorted and summed here.
//
// Every generator passes an upper bound of its nonzeros, computed from its
// parameters, and the bound is checked against the index type and the host's
// memory before any pass over the rows: the counting pass alone is O(nnz),
// and dense:rows=1e6 once spent minutes in it before being refused.
#include <algorithm>
#include <functional>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "hsparse/core/error.hpp"
#include "hsparse/core/host_system.hpp"
#include "hsparse/formats/csr.hpp"
#include "hsparse/generators/hash.hpp"

namespace hsparse::generators {

using RowEntries = std::vector<std::pair<std::int64_t, double>>;

// The product of non-negative factors, or Error(overflow) naming `what`
// (e.g. "stencil3d: nx * ny * nz"): a size computed from user input must
// never wrap around (2^22 cubed once wrapped to a 0 x 0 matrix).
inline std::int64_t checked_product(std::initializer_list<std::int64_t> factors, const std::string& what) {
  std::int64_t product = 1;
  bool overflow = false;
  std::string written;
  for (const std::int64_t f : factors) {
    overflow = __builtin_mul_overflow(product, f, &product) || overflow;
    written += (written.empty() ? "" : " * ") + std::to_string(f);
  }
  if (overflow) throw Error(ErrorCode::overflow, what + " = " + written + " does not fit a 64-bit integer");
  return product;
}

// a + b of non-negative sizes, or Error(overflow) naming `what`.
inline std::int64_t checked_sum(std::int64_t a, std::int64_t b, const std::string& what) {
  std::int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) {
    throw Error(ErrorCode::overflow, what + " = " + std::to_string(a) + " + " + std::to_string(b) + " does not fit a 64-bit integer");
  }
  return sum;
}

// count * each bytes, saturating (the sum of such figures too): only compared with a budget.
inline std::uint64_t saturating_bytes(std::uint64_t count, std::uint64_t each) {
  std::uint64_t bytes = 0;
  return __builtin_mul_overflow(count, each, &bytes) ? std::numeric_limits<std::uint64_t>::max() : bytes;
}
inline std::uint64_t saturating_sum(std::uint64_t a, std::uint64_t b) {
  std::uint64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? std::numeric_limits<std::uint64_t>::max() : sum;
}

// Refuses a rows x cols matrix of up to max_nnz nonzeros before anything is
// generated: Error(overflow) when a size or the bound does not fit I,
// Error(out_of_memory) when the bound's CSR arrays (plus build_rows' 64-bit
// row counts) exceed the host budget. generate() adds the spec to both.
// With a lower bound (at_least) the same check refuses what cannot fit
// before an upper bound is known (powerlaw's).
template <class V, class I>
void require_generator_size(std::int64_t rows, std::int64_t cols, std::int64_t max_nnz, bool at_least = false) {
  if (rows < 0 || cols < 0 || max_nnz < 0) throw Error(ErrorCode::invalid_argument, "generator: negative size");
  if (!fits_index<I>(static_cast<std::uint64_t>(rows)) || !fits_index<I>(static_cast<std::uint64_t>(cols))) {
    throw Error(ErrorCode::overflow, "generator: " + std::to_string(rows) + "x" + std::to_string(cols) +
                                         " overflows " + type_name<I>() + " indices");
  }
  const std::string matrix = "a " + std::to_string(rows) + " x " + std::to_string(cols) + " matrix with " +
                             (at_least ? "at least " : "up to ") + std::to_string(max_nnz) + " nonzeros (the generator's bound)";
  if (!fits_index<I>(static_cast<std::uint64_t>(max_nnz))) {
    throw Error(ErrorCode::overflow, matrix + " overflows " + type_name<I>() + " row offsets");
  }
  const std::uint64_t row_arrays = saturating_bytes(static_cast<std::uint64_t>(rows) + 1, sizeof(I) + sizeof(std::int64_t));
  const std::uint64_t bytes = saturating_sum(saturating_bytes(static_cast<std::uint64_t>(max_nnz), sizeof(V) + sizeof(I)), row_arrays);
  require_host_memory(static_cast<std::size_t>(std::min<std::uint64_t>(bytes, std::numeric_limits<std::size_t>::max())), matrix);
}

// generate_rows' block of the matrix (generators.hpp): while one is set on
// this thread, build_rows builds rank `rank`'s contiguous block of rows only
// (global columns) and records the whole matrix's row count and the block's
// first row. Thread-local, so that concurrent generations do not see it.
struct RowWindow {
  std::function<std::pair<std::int64_t, std::int64_t>(std::int64_t)> block;  // global rows -> [first, end)
  std::int64_t global_rows = -1, first_row = 0;  // set by build_rows (-1: it was not used)
};
inline RowWindow*& active_row_window() {
  thread_local RowWindow* window = nullptr;
  return window;
}

// max_nnz: an upper bound of the stored entries (after merging), from the
// generator's parameters; refused up front by require_generator_size (in a
// row window, the block's exact count is checked after counting instead).
template <class V, class I, class RowFn>
Csr<V, I> build_rows(std::int64_t global_rows, std::int64_t cols, std::int64_t max_nnz, RowFn&& row_fn) {
  RowWindow* window = active_row_window();
  std::int64_t first = 0, rows = global_rows;
  if (window) {
    const auto [b, e] = window->block(global_rows);
    first = b;
    rows = e - b;
    window->global_rows = global_rows;
    window->first_row = first;
    require_generator_size<V, I>(rows, cols, 0);  // the indices; memory below, on the exact count
  } else {
    require_generator_size<V, I>(rows, cols, max_nnz);
  }
  auto canonical_row = [&](std::int64_t r, RowEntries& e) {
    e.clear();
    row_fn(r, e);
    std::sort(e.begin(), e.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::size_t out = 0;
    for (std::size_t k = 0; k < e.size(); ++k) {
      if (out > 0 && e[out - 1].first == e[k].first) e[out - 1].second += e[k].second;
      else e[out++] = e[k];
    }
    e.resize(out);
  };
  std::vector<std::int64_t> length(static_cast<std::size_t>(rows) + 1, 0);
#pragma omp parallel
  {
    RowEntries e;
#pragma omp for schedule(dynamic, 256)
    for (std::int64_t r = 0; r < rows; ++r) {
      canonical_row(first + r, e);
      length[r + 1] = static_cast<std::int64_t>(e.size());
    }
  }
  for (std::int64_t r = 0; r < rows; ++r) length[r + 1] += length[r];
  const auto nnz = static_cast<std::uint64_t>(length[rows]);
  // The bound was checked, not the count: a count past it is a wrong bound.
  if (nnz > static_cast<std::uint64_t>(max_nnz)) {
    throw Error(ErrorCode::internal, "generator: " + std::to_string(nnz) + " nonzeros exceed the generator's bound " + std::to_string(max_nnz));
  }
  if (window) require_generator_size<V, I>(rows, cols, static_cast<std::int64_t>(nnz));
  Csr<V, I> a;
  a.rows = static_cast<I>(rows);
  a.cols = static_cast<I>(cols);
  a.row_ptr.assign(length.begin(), length.end());
  a.col_idx.resize(nnz);
  a.values.resize(nnz);
#pragma omp parallel
  {
    RowEntries e;
#pragma omp for schedule(dynamic, 256)
    for (std::int64_t r = 0; r < rows; ++r) {
      canonical_row(first + r, e);
      std::size_t k = static_cast<std::size_t>(length[r]);
      for (const auto& [c, v] : e) {
        a.col_idx[k] = static_cast<I>(c);
        a.values[k] = static_cast<V>(static_cast<real_type_t<V>>(v));
        ++k;
      }
    }
  }
  return a;
}

}  // namespace hsparse::generators
