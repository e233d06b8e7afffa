#include "hsparse/formats/ell.hpp"
#include "traits_models.hpp"

#include <algorithm>
#include <string>

#include "hsparse/formats/row_statistics.hpp"
#include "csr_from_rows.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/formats/padding.hpp"

namespace hsparse {

template <class V, class I>
void Ell<V, I>::validate() const {
  const auto slots = static_cast<std::size_t>(padded_rows) * static_cast<std::size_t>(width);
  if (padded_rows < rows || row_alignment < 1 || padded_rows % row_alignment != 0 || values.size() != slots ||
      col_idx.size() != slots || row_len.size() != static_cast<std::size_t>(rows)) {
    throw Error(ErrorCode::invalid_matrix, "ELL: inconsistent sizes");
  }
  for (I c : col_idx) {
    if (c < 0 || (c >= cols && cols > 0)) throw Error(ErrorCode::invalid_matrix, "ELL: column index out of range");
  }
}

namespace detail {

template <class V, class I>
Ell<V, I> ell_first_entries(const Csr<V, I>& a, I width, I row_alignment) {
  if (row_alignment < 1) throw Error(ErrorCode::invalid_argument, "ELL: row alignment must be >= 1");
  Ell<V, I> e;
  e.rows = a.rows;
  e.cols = a.cols;
  e.row_alignment = row_alignment;
  e.padded_rows = static_cast<I>((static_cast<std::int64_t>(a.rows) + row_alignment - 1) / row_alignment * row_alignment);
  e.width = width;
  const auto pr = static_cast<std::size_t>(e.padded_rows);
  e.col_idx.resize(pr * static_cast<std::size_t>(e.width));
  e.values.resize(e.col_idx.size());
  e.row_len.resize(static_cast<std::size_t>(a.rows));
  std::size_t nnz = 0;
#pragma omp parallel for schedule(static) reduction(+ : nnz)
  for (I r = 0; r < e.padded_rows; ++r) {
    const I begin = r < a.rows ? a.row_ptr[r] : 0;
    const I len = r < a.rows ? std::min<I>(a.row_ptr[r + 1] - begin, width) : 0;
    const I pad_col = len > 0 ? a.col_idx[begin + len - 1] : 0;
    if (r < a.rows) e.row_len[r] = len;
    nnz += static_cast<std::size_t>(len);
    for (I k = 0; k < e.width; ++k) {
      const std::size_t slot = static_cast<std::size_t>(k) * pr + static_cast<std::size_t>(r);
      e.col_idx[slot] = k < len ? a.col_idx[begin + k] : pad_col;
      e.values[slot] = k < len ? stored_entry(a.values[begin + k]) : V(0);  // formats/padding.hpp
    }
  }
  e.nnz = nnz;
  return e;
}

template <class V, class I>
I ell_width_within_fill(const Csr<V, I>& a, I row_alignment, double max_fill) {
  if (row_alignment < 1) throw Error(ErrorCode::invalid_argument, "ELL: row alignment must be >= 1");
  const auto width = static_cast<I>(row_length_statistics(a).max_length);
  const auto padded_rows = (static_cast<double>(a.rows) + row_alignment - 1) / row_alignment * row_alignment;
  const double slots = padded_rows * static_cast<double>(width);
  const double nnz = static_cast<double>(std::max<std::size_t>(a.nnz(), 1));
  if (slots > max_fill * nnz) {
    throw Error(ErrorCode::invalid_argument,
                "ELL would store " + std::to_string(static_cast<long long>(slots)) + " entries for " +
                    std::to_string(a.nnz()) + " nonzeros (width " + std::to_string(width) + ", fill " +
                    std::to_string(slots / nnz) + " > limit " + std::to_string(max_fill) +
                    "); use HYB or SELL-C-sigma");
  }
  return width;
}

}  // namespace detail

template <class V, class I>
Ell<V, I> ell_from_csr(const Csr<V, I>& a, I row_alignment, double max_fill) {
  return detail::ell_first_entries(a, detail::ell_width_within_fill(a, row_alignment, max_fill), row_alignment);
}

template <class V, class I>
Csr<V, I> ell_to_csr(const Ell<V, I>& e) {
  // Row r's entries are its first row_len[r] slots, columns already increasing.
  const auto pr = static_cast<std::size_t>(e.padded_rows);
  return detail::csr_from_rows<V, I>(e.rows, e.cols, [&](I r, auto&& fn) {
    for (I k = 0; k < e.row_len[r]; ++k) {
      const std::size_t slot = static_cast<std::size_t>(k) * pr + static_cast<std::size_t>(r);
      fn(e.col_idx[slot], e.values[slot]);
    }
  });
}

#define HSPARSE_INSTANTIATE(V, I)                                       \
  template struct Ell<V, I>;                                            \
  template Ell<V, I> ell_from_csr(const Csr<V, I>&, I, double);         \
  template Ell<V, I> detail::ell_first_entries(const Csr<V, I>&, I, I);  \
  template I detail::ell_width_within_fill(const Csr<V, I>&, I, double); \
  template Csr<V, I> ell_to_csr(const Ell<V, I>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse

namespace hsparse::detail {

// Its row of the format registry (formats/format.hpp): the byte model counts what the conversion above stores.
FormatTraits format_traits_ell() {
  return {Format::ell, "ell", "ELL", "ELLPACK: every row padded to the longest, column-major (Bell and Garland)", 20.0,
          "ELL slots (rows x longest row)", {{"--max-fill", "refuse beyond this many slots per nonzero"}}, true,
          [](const FormatFootprint& f, std::size_t vb, std::size_t ib) { return count(f.rows) * count(f.max_row_length) * (vb + ib); },
          [](const FormatFootprint& f) { return per_nonzero(static_cast<double>(f.rows) * static_cast<double>(f.max_row_length), f); },
          [](const FormatFootprint& f) { return "width " + std::to_string(f.max_row_length); }};
}

}  // namespace hsparse::detail
