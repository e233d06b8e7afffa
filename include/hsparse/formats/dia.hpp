#pragma once
/// @file
/// DIA: the matrix as a set of diagonals (Owens lecture, "DIA"). Diagonal d
/// has offset offsets[d] = column - row and is stored as a column of `rows`
/// values (cusp's layout), values[d * rows + r] holding A(r, r + offsets[d]);
/// slots outside the matrix, or not holding an entry, are 0.
#include <vector>

#include "hsparse/formats/csr.hpp"

namespace hsparse {

template <class V, class I>
/// A diagonal (DIA) matrix: every stored diagonal holds `rows` values,
/// zeros where the diagonal leaves the matrix or has no entry.
struct Dia {
  I rows = 0;  ///< rows of the matrix
  I cols = 0;  ///< columns of the matrix
  std::size_t nnz = 0;  ///< entries of the source matrix
  std::vector<I> offsets;  ///< ascending
  std::vector<V> values;   ///< offsets.size() * rows

  /// Bytes of the stored values and offsets.
  std::size_t bytes() const { return values.size() * sizeof(V) + offsets.size() * sizeof(I); }
  /// Stored values / nnz.
  double fill() const { return nnz ? static_cast<double>(values.size()) / static_cast<double>(nnz) : 1.0; }
  /// Error(invalid_matrix) naming the first inconsistency of the arrays.
  void validate() const;
};

/// Refuses (Error(invalid_argument), naming the diagonal count and the fill)
/// when the stored slots, diagonals * rows, exceed max_fill * nnz and 10^6
/// (cusp's rule: scattered matrices would explode; small ones are always allowed).
template <class V, class I>
Dia<V, I> dia_from_csr(const Csr<V, I>& a, double max_fill = 3.0);
/// The diagonals dia_from_csr stores (ascending offsets), with its refusal:
/// the one place both the host and the GPU conversion decide them.
template <class V, class I>
std::vector<I> dia_offsets(const Csr<V, I>& a, double max_fill = 3.0);
/// Slots holding exact zeros are dropped (DIA cannot tell padding from an
/// explicit zero), so the round trip is exact for matrices without explicit zeros.
template <class V, class I>
Csr<V, I> dia_to_csr(const Dia<V, I>& d);

}  // namespace hsparse
