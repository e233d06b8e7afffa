#pragma once
// Building a CSR matrix from a per-row entry enumerator: count pass, prefix
// sum, fill pass, both passes parallel over rows. Every format's conversion
// back to CSR that enumerates a row's stored entries (ELL, SELL-C-sigma, DIA,
// BCSR) uses it.
#include <cstddef>

#include "hsparse/formats/csr.hpp"

namespace hsparse::detail {

// each_entry(r, fn) calls fn(column, value) for row r's entries in increasing column order.
template <class V, class I, class EachEntry>
Csr<V, I> csr_from_rows(I rows, I cols, EachEntry each_entry) {
  Csr<V, I> a;
  a.rows = rows;
  a.cols = cols;
  a.row_ptr.assign(static_cast<std::size_t>(rows) + 1, 0);
#pragma omp parallel for schedule(static)
  for (I r = 0; r < rows; ++r) {
    I n = 0;
    each_entry(r, [&](I, V) { ++n; });
    a.row_ptr[r + 1] = n;
  }
  for (I r = 0; r < rows; ++r) a.row_ptr[r + 1] += a.row_ptr[r];
  a.col_idx.resize(static_cast<std::size_t>(a.row_ptr[rows]));
  a.values.resize(a.col_idx.size());
#pragma omp parallel for schedule(static)
  for (I r = 0; r < rows; ++r) {
    I out = a.row_ptr[r];
    each_entry(r, [&](I c, V v) {
      a.col_idx[out] = c;
      a.values[out] = v;
      ++out;
    });
  }
  return a;
}

}  // namespace hsparse::detail
