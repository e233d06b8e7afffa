#pragma once
/// @file
/// Coordinate (COO) format: three parallel arrays (row, column, value), one
/// entry per stored nonzero. Entries may come in any order and may repeat
/// (the Matrix Market reader produces this form); duplicates are summed when
/// the matrix is converted to CSR or canonicalised.
#include <cstddef>
#include <vector>

#include "hsparse/core/types.hpp"

namespace hsparse {

template <class V, class I>
/// A coordinate (COO) matrix in host memory: one (row, column, value)
/// triple per entry, in any order unless is_canonical(); an aggregate the
/// caller may fill.
struct Coo {
  using value_type = V;  ///< V
  using index_type = I;  ///< I

  I rows = 0;  ///< number of rows
  I cols = 0;  ///< number of columns
  std::vector<I> row_idx;  ///< row of each entry
  std::vector<I> col_idx;  ///< column of each entry
  std::vector<V> values;  ///< value of each entry

  /// Number of stored entries.
  std::size_t nnz() const { return values.size(); }

  /// Throws Error(invalid_matrix) when array lengths differ or an index is out of range.
  void validate() const;

  /// True when entries are sorted by (row, column) without repeats.
  bool is_canonical() const;

  /// Sorts by (row, column) and sums duplicate entries (explicit zeros stay).
  void canonicalize();
};

}  // namespace hsparse
