#include "hsparse/formats/dia.hpp"

#include <string>

#include "csr_from_rows.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse {

template <class V, class I>
void Dia<V, I>::validate() const {
  if (values.size() != offsets.size() * static_cast<std::size_t>(rows)) throw Error(ErrorCode::invalid_matrix, "DIA: values size");
  for (std::size_t d = 1; d < offsets.size(); ++d) {
    if (offsets[d] <= offsets[d - 1]) throw Error(ErrorCode::invalid_matrix, "DIA: offsets not strictly ascending");
  }
  for (I o : offsets) {
    if (o <= -rows || o >= cols) throw Error(ErrorCode::invalid_matrix, "DIA: offset outside the matrix");
  }
}

template <class V, class I>
Dia<V, I> dia_from_csr(const Csr<V, I>& a, double max_fill) {
  Dia<V, I> d;
  d.rows = a.rows;
  d.cols = a.cols;
  d.nnz = a.nnz();
  // diagonal_of[offset + rows]: index of the diagonal with that offset, or -1.
  std::vector<I> diagonal_of(static_cast<std::size_t>(a.rows) + static_cast<std::size_t>(a.cols), -1);
  for (I r = 0; r < a.rows; ++r) {
    for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) diagonal_of[static_cast<std::size_t>(a.col_idx[k] - r + a.rows)] = 0;
  }
  for (std::size_t s = 0; s < diagonal_of.size(); ++s) {
    if (diagonal_of[s] == 0) {
      diagonal_of[s] = static_cast<I>(d.offsets.size());
      d.offsets.push_back(static_cast<I>(static_cast<std::int64_t>(s) - a.rows));
    }
  }
  const double slots = static_cast<double>(d.offsets.size()) * static_cast<double>(a.rows);
  const double fill = slots / static_cast<double>(std::max<std::size_t>(a.nnz(), 1));
  if (fill > max_fill && slots > 1e6) {
    throw Error(ErrorCode::invalid_argument,
                "DIA refused: " + std::to_string(d.offsets.size()) + " diagonals x " + std::to_string(a.rows) +
                    " rows = " + std::to_string(static_cast<long long>(slots)) + " slots for " + std::to_string(a.nnz()) +
                    " nonzeros (fill " + std::to_string(fill) + " > limit " + std::to_string(max_fill) + ")");
  }
  d.values.assign(static_cast<std::size_t>(slots), V(0));
#pragma omp parallel for schedule(static)
  for (I r = 0; r < a.rows; ++r) {
    for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const I diag = diagonal_of[static_cast<std::size_t>(a.col_idx[k] - r + a.rows)];
      d.values[static_cast<std::size_t>(diag) * static_cast<std::size_t>(a.rows) + static_cast<std::size_t>(r)] = a.values[k];
    }
  }
  return d;
}

template <class V, class I>
Csr<V, I> dia_to_csr(const Dia<V, I>& d) {
  auto each_entry = [&](I r, auto&& fn) {
    for (std::size_t k = 0; k < d.offsets.size(); ++k) {
      const std::int64_t c = static_cast<std::int64_t>(r) + d.offsets[k];
      if (c < 0 || c >= d.cols) continue;
      const V v = d.values[k * static_cast<std::size_t>(d.rows) + static_cast<std::size_t>(r)];
      if (v != V(0)) fn(static_cast<I>(c), v);
    }
  };
  return detail::csr_from_rows<V, I>(d.rows, d.cols, each_entry);
}

#define HSPARSE_INSTANTIATE(V, I)                                    \
  template struct Dia<V, I>;                                         \
  template Dia<V, I> dia_from_csr(const Csr<V, I>&, double);         \
  template Csr<V, I> dia_to_csr(const Dia<V, I>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
