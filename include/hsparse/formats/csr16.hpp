#pragma once
/// @file
/// CSR16: CSR with 16-bit column offsets (issue 18, "below the byte floor":
/// lossless index compression). Each row keeps a 32-bit base, its smallest
/// column, and every entry the 16-bit offset column - base: 8 + 2 bytes per
/// double nonzero instead of 8 + 4, plus 4 bytes of base per row. A row whose
/// columns span 2^16 or more (base + 65535 cannot reach its last column) is
/// the escape: it goes whole to a plain CSR part (`wide`, same rows and
/// columns, empty rows elsewhere), which the product adds on top. Stencils,
/// banded and FEM matrices of a few million rows have no wide rows; scattered
/// ones (random, power law) are mostly wide, and the byte model
/// (formats/format.cpp) then shows CSR16 costing more than CSR, so the advisor
/// does not pick it there.
#include <cstdint>
#include <vector>

#include "hsparse/core/aligned_vector.hpp"
#include "hsparse/formats/csr.hpp"

namespace hsparse {

inline constexpr std::int64_t kCsr16Span = 1 << 16;  ///< a row is narrow when last column - first column < this

template <class V, class I>
/// CSR with 16-bit column offsets from a per-row base (lossless index
/// compression); rows spanning 2^16 columns or more are kept whole in a
/// plain CSR part, `wide`.
struct Csr16 {
  I rows = 0;  ///< rows of the matrix
  I cols = 0;  ///< columns of the matrix
  std::vector<I> row_ptr{0};           ///< rows + 1: the narrow rows' entries (wide rows are empty here)
  std::vector<I> base;                 ///< rows: the narrow row's first column (0 for empty and wide rows)
  std::vector<std::uint16_t> offset;   ///< column - base of the row
  std::vector<V> values;  ///< the narrow rows' values
  Csr<V, I> wide;                      ///< the wide rows, all columns (rows x cols); 0 x 0 when there are none

  /// Entries, narrow and wide.
  std::size_t nnz() const { return values.size() + wide.nnz(); }
  /// Whether any row is in the wide part.
  bool has_wide() const { return wide.nnz() > 0; }
  /// Bytes of every stored array, the wide part included.
  std::size_t bytes() const {
    return row_ptr.size() * sizeof(I) + base.size() * sizeof(I) + offset.size() * sizeof(std::uint16_t) + values.size() * sizeof(V) +
           (has_wide() ? wide.bytes() : 0);
  }
  /// Error(invalid_matrix) naming the first violated rule: array lengths,
  /// monotone row_ptr, offsets strictly increasing within a row, columns in
  /// range, a wide part of the same shape with no row both narrow and wide.
  void validate() const;
};

template <class V, class I>
/// The CSR16 form of a (exact).
Csr16<V, I> csr16_from_csr(const Csr<V, I>& a);
template <class V, class I>
/// Rows of a spanning kCsr16Span columns or more (CSR16's wide part); O(rows).
std::int64_t csr16_wide_row_count(const Csr<V, I>& a);
template <class V, class I>
/// Back to CSR (exact).
Csr<V, I> csr16_to_csr(const Csr16<V, I>& a);

/// CSR16 with the values rounded to single precision (formats/format.hpp's
/// csr16-single; lossy, opt-in). Error(overflow) naming the first entry whose
/// magnitude exceeds single precision's range (it would become infinite).
template <class V, class I>
Csr16<single_t<V>, I> csr16_single_from_csr(const Csr<V, I>& a);

}  // namespace hsparse
