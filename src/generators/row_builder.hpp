#pragma once
// Builds a CSR matrix from a function that emits one row's entries.
// The function is called twice per row (count, then fill), in parallel, so it
// must be a pure function of the row: all generators are, via hash_uniform.
// Entries may come unsorted and repeated: they are sorted and summed here.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "hsparse/core/error.hpp"
#include "hsparse/core/host_system.hpp"
#include "hsparse/formats/csr.hpp"
#include "hsparse/generators/hash.hpp"

namespace hsparse::generators {

using RowEntries = std::vector<std::pair<std::int64_t, double>>;

template <class V, class I, class RowFn>
Csr<V, I> build_rows(std::int64_t rows, std::int64_t cols, RowFn&& row_fn) {
  if (rows < 0 || cols < 0) throw Error(ErrorCode::invalid_argument, "generator: negative size");
  if (!fits_index<I>(static_cast<std::uint64_t>(rows)) || !fits_index<I>(static_cast<std::uint64_t>(cols))) {
    throw Error(ErrorCode::overflow, "generator: " + std::to_string(rows) + "x" + std::to_string(cols) +
                                         " overflows " + type_name<I>() + " indices");
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
  // Both allocations are checked against the host's memory budget first:
  // the row counts now, the matrix once the counting pass knows its size.
  require_host_memory((static_cast<std::size_t>(rows) + 1) * sizeof(std::int64_t), "counting the entries of " + std::to_string(rows) + " rows");
  std::vector<std::int64_t> length(static_cast<std::size_t>(rows) + 1, 0);
#pragma omp parallel
  {
    RowEntries e;
#pragma omp for schedule(dynamic, 256)
    for (std::int64_t r = 0; r < rows; ++r) {
      canonical_row(r, e);
      length[r + 1] = static_cast<std::int64_t>(e.size());
    }
  }
  for (std::int64_t r = 0; r < rows; ++r) length[r + 1] += length[r];
  const auto nnz = static_cast<std::uint64_t>(length[rows]);
  if (!fits_index<I>(nnz)) {
    throw Error(ErrorCode::overflow, "generator: " + std::to_string(nnz) + " nonzeros overflow " + type_name<I>() + " row offsets");
  }
  require_host_memory(static_cast<std::size_t>(nnz) * (sizeof(V) + sizeof(I)) + (static_cast<std::size_t>(rows) + 1) * sizeof(I),
                      "a " + std::to_string(rows) + " x " + std::to_string(cols) + " matrix with " + std::to_string(nnz) + " nonzeros");
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
      canonical_row(r, e);
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
