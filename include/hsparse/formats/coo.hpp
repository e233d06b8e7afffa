#pragma once
// Coordinate (COO) format: three parallel arrays (row, column, value), one
// entry per stored nonzero. Entries may come in any order and may repeat
// (the Matrix Market reader produces this form); duplicates are summed when
// the matrix is converted to CSR or canonicalised.
#include <cstddef>
#include <vector>

#include "hsparse/core/types.hpp"

namespace hsparse {

template <class V, class I>
struct Coo {
  using value_type = V;
  using index_type = I;

  I rows = 0;
  I cols = 0;
  std::vector<I> row_idx;
  std::vector<I> col_idx;
  std::vector<V> values;

  std::size_t nnz() const { return values.size(); }

  // Throws Error(invalid_matrix) when array lengths differ or an index is out of range.
  void validate() const;

  // True when entries are sorted by (row, column) without repeats.
  bool is_canonical() const;

  // Sorts by (row, column) and sums duplicate entries (explicit zeros stay).
  void canonicalize();
};

}  // namespace hsparse
