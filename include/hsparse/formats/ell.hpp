#pragma once
/// @file
/// ELLPACK (ELL): every row padded to the longest row's length `width` and
/// stored column-major, so that consecutive rows are consecutive in memory
/// (Owens lecture, "ELL"; Bell and Garland). Rows are padded to a multiple of
/// `row_alignment` (the chunk: 32 for a GPU warp, the SIMD width on CPUs).
///
///   entry k of row r:  values[k * padded_rows + r], col_idx[k * padded_rows + r]
///
/// Padding entries hold value 0 and repeat the row's last real column (column 0
/// for an empty row), so they read an x entry already in cache and cost no
/// extra x traffic (SELL-C-sigma paper, section 4).
#include <cstddef>
#include <vector>

#include "hsparse/formats/csr.hpp"

namespace hsparse {

template <class V, class I>
/// An ELLPACK matrix: `width` slots per row, column-major (slot k of every
/// row, then slot k + 1), padded with column 0 and value 0.
struct Ell {
  I rows = 0;  ///< rows of the matrix
  I cols = 0;  ///< columns of the matrix
  I padded_rows = 0;   ///< rows rounded up to a multiple of row_alignment
  I width = 0;         ///< entries stored per row
  I row_alignment = 1;  ///< padded_rows is a multiple of this
  std::size_t nnz = 0; ///< real entries (explicit zeros included), excluding padding
  std::vector<I> col_idx;  ///< padded_rows * width columns, column-major
  std::vector<V> values;  ///< padded_rows * width values, column-major
  /// True length of each row: padding cannot be told from an explicit zero in
  /// column 0 otherwise. Conversions (and ELLR-T style kernels) read it; the
  /// plain ELL kernel does not, so bytes() leaves it out.
  std::vector<I> row_len;

  /// Stored slots, padding included.
  std::size_t stored() const { return values.size(); }
  /// Bytes of the slots' values and columns.
  std::size_t bytes() const { return values.size() * (sizeof(V) + sizeof(I)); }
  /// Error(invalid_matrix) naming the first inconsistency of the arrays.
  void validate() const;
};

/// Throws Error(invalid_argument) when padded storage would exceed
/// max_fill * nnz entries (one long row makes ELL explode; use HYB or SELL).
template <class V, class I>
Ell<V, I> ell_from_csr(const Csr<V, I>& a, I row_alignment = 1, double max_fill = 20.0);
template <class V, class I>
/// Back to CSR (exact: row_len tells padding from explicit zeros).
Csr<V, I> ell_to_csr(const Ell<V, I>& e);

namespace detail {
/// The first min(length, width) entries of every row (HYB's ELL part).
template <class V, class I>
Ell<V, I> ell_first_entries(const Csr<V, I>& a, I width, I row_alignment);
/// ELL's width (the longest row), or the error ell_from_csr throws past max_fill.
template <class V, class I>
I ell_width_within_fill(const Csr<V, I>& a, I row_alignment, double max_fill);
}  // namespace detail

}  // namespace hsparse
