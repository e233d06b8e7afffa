#pragma once
/// @file
/// Compressed sparse row (CSR): row_ptr[r]..row_ptr[r+1] delimits row r's
/// entries in col_idx/values. hsparse's canonical CSR has strictly increasing
/// column indices inside each row (no duplicates); explicit zeros are kept.
/// row_ptr holds offsets up to nnz, so nnz itself must fit the index type.
#include <cstddef>
#include <vector>

#include "hsparse/core/types.hpp"

namespace hsparse {

template <class V, class I>
/// A CSR matrix in host memory: the input of every plan, handle, conversion
/// and solver.
///
/// A plain aggregate: the caller fills the three vectors (or a reader or
/// generator does) and may call validate(); functions taking a Csr validate
/// what they rely on and throw Error(invalid_matrix) otherwise. V: float,
/// double, complex<float>, complex<double>; I: int32_t or int64_t (nnz must
/// fit I).
struct Csr {
  using value_type = V;  ///< V
  using index_type = I;  ///< I

  I rows = 0;  ///< number of rows
  I cols = 0;  ///< number of columns
  std::vector<I> row_ptr{0};  ///< rows + 1 entries
  std::vector<I> col_idx;  ///< column of each entry, increasing within a row
  std::vector<V> values;  ///< value of each entry

  /// Number of stored entries (explicit zeros included).
  std::size_t nnz() const { return values.size(); }
  /// Entries in row r (0 <= r < rows, unchecked).
  I row_length(I r) const { return row_ptr[r + 1] - row_ptr[r]; }

  /// Throws Error(invalid_matrix) naming the first violated rule: array
  /// lengths, row_ptr[0] == 0, monotone row_ptr, row_ptr[rows] == nnz,
  /// column indices in range and strictly increasing within each row.
  void validate() const;

  /// Bytes of the three arrays (the matrix data an SpMV must stream).
  std::size_t bytes() const {
    return row_ptr.size() * sizeof(I) + col_idx.size() * sizeof(I) + values.size() * sizeof(V);
  }
};

}  // namespace hsparse
