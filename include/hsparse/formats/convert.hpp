#pragma once
/// @file
/// Conversions between the containers. Every conversion returns a validated,
/// canonical result; sizes that do not fit the target index type throw
/// Error(overflow).
#include "hsparse/formats/coo.hpp"
#include "hsparse/formats/csr.hpp"

namespace hsparse {

/// Duplicate (row, column) entries are summed; explicit zeros are kept.
template <class V, class I> Csr<V, I> coo_to_csr(const Coo<V, I>& coo);
/// The COO form of a CSR matrix, canonical (sorted by row, then column).
template <class V, class I> Coo<V, I> csr_to_coo(const Csr<V, I>& csr);

/// Transpose (conjugate == true gives the conjugate transpose A^H).
template <class V, class I> Csr<V, I> transpose(const Csr<V, I>& a, bool conjugate = false);

/// Change of value and/or index type (checked for index overflow).
template <class VOut, class IOut, class VIn, class IIn>
Csr<VOut, IOut> convert_types(const Csr<VIn, IIn>& in);

}  // namespace hsparse

#include "hsparse/core/error.hpp"

namespace hsparse {

template <class VOut, class IOut, class VIn, class IIn>
Csr<VOut, IOut> convert_types(const Csr<VIn, IIn>& in) {
  if (!fits_index<IOut>(static_cast<std::uint64_t>(in.rows)) ||
      !fits_index<IOut>(static_cast<std::uint64_t>(in.cols)) || !fits_index<IOut>(in.nnz())) {
    throw Error(ErrorCode::overflow, "matrix " + std::to_string(in.rows) + "x" +
                                         std::to_string(in.cols) + " with " +
                                         std::to_string(in.nnz()) + " nonzeros overflows " +
                                         type_name<IOut>() + " indices");
  }
  static_assert(is_complex_v<VOut> || !is_complex_v<VIn>,
                "a complex matrix cannot be converted to a real value type");
  Csr<VOut, IOut> out;
  out.rows = static_cast<IOut>(in.rows);
  out.cols = static_cast<IOut>(in.cols);
  out.row_ptr.assign(in.row_ptr.begin(), in.row_ptr.end());
  out.col_idx.assign(in.col_idx.begin(), in.col_idx.end());
  out.values.resize(in.values.size());
  for (std::size_t k = 0; k < in.values.size(); ++k) {
    if constexpr (is_complex_v<VIn>) {
      out.values[k] = VOut(static_cast<real_type_t<VOut>>(in.values[k].real()),
                           static_cast<real_type_t<VOut>>(in.values[k].imag()));
    } else {
      out.values[k] = static_cast<VOut>(static_cast<real_type_t<VOut>>(in.values[k]));
    }
  }
  return out;
}

}  // namespace hsparse
