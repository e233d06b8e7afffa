#pragma once
/// @file
/// HYB: an ELL part holding the first `width` entries of every row, plus a
/// COO part (sorted by row) for the entries beyond (Bell and Garland; Owens
/// lecture, "HYB"). The default width comes from the row-length histogram
/// by cusp's rule (hyb_ell_width in formats/footprint.hpp).
#include <optional>

#include "hsparse/formats/coo.hpp"
#include "hsparse/formats/ell.hpp"

namespace hsparse {

template <class V, class I>
/// HYB (Bell and Garland): an ELL part of a fixed width and the overflow
/// of the longer rows in COO.
struct Hyb {
  Ell<V, I> ell;  ///< the first `width` entries of every row
  Coo<V, I> coo;  ///< canonical (sorted by row, then column)
  /// Rows of the matrix.
  I rows() const { return ell.rows; }
  /// Columns of the matrix.
  I cols() const { return ell.cols; }
  /// Entries in both parts.
  std::size_t nnz() const { return ell.nnz + coo.nnz(); }
  /// Bytes of both parts.
  std::size_t bytes() const { return ell.bytes() + coo.nnz() * (sizeof(V) + 2 * sizeof(I)); }
};

/// width: the ELL width; unset = cusp's histogram rule.
template <class V, class I>
Hyb<V, I> hyb_from_csr(const Csr<V, I>& a, std::optional<I> width = std::nullopt, I row_alignment = 1);
template <class V, class I>
/// Back to CSR (exact).
Csr<V, I> hyb_to_csr(const Hyb<V, I>& h);
namespace detail {
/// The ELL width hyb_from_csr uses: `width` if set (checked), else cusp's rule.
template <class V, class I>
I hyb_width(const Csr<V, I>& a, std::optional<I> width);
}  // namespace detail

}  // namespace hsparse
