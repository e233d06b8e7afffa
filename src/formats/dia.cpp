#include "hsparse/formats/dia.hpp"
#include "traits_models.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>

#include "csr_from_rows.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/formats/padding.hpp"

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
std::vector<I> dia_offsets(const Csr<V, I>& a, double max_fill) {
  // Which of the rows + cols - 1 diagonals hold an entry: a bitmap per
  // thread, or-ed together (a serial pass over 100 M entries took ~0.1 s of
  // the GPU plan's setup; the bitmaps are (rows + cols) / 8 bytes each).
  const std::size_t span = static_cast<std::size_t>(a.rows) + static_cast<std::size_t>(a.cols);
  const std::size_t words = (span + 63) / 64;
  std::vector<std::uint64_t> used(words, 0);
#pragma omp parallel
  {
    std::vector<std::uint64_t> mine(words, 0);
#pragma omp for schedule(static) nowait
    for (I r = 0; r < a.rows; ++r) {
      for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
        const auto s = static_cast<std::size_t>(static_cast<std::int64_t>(a.col_idx[k]) - r + a.rows);
        mine[s / 64] |= std::uint64_t{1} << (s % 64);
      }
    }
#pragma omp critical
    for (std::size_t w = 0; w < words; ++w) used[w] |= mine[w];
  }
  std::vector<I> offsets;
  for (std::size_t w = 0; w < words; ++w) {
    for (std::uint64_t bits = used[w]; bits != 0; bits &= bits - 1) {
      const std::size_t s = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
      offsets.push_back(static_cast<I>(static_cast<std::int64_t>(s) - a.rows));
    }
  }
  const double slots = static_cast<double>(offsets.size()) * static_cast<double>(a.rows);
  const double fill = slots / static_cast<double>(std::max<std::size_t>(a.nnz(), 1));
  if (fill > max_fill && slots > 1e6) {
    throw Error(ErrorCode::invalid_argument,
                "DIA refused: " + std::to_string(offsets.size()) + " diagonals x " + std::to_string(a.rows) +
                    " rows = " + std::to_string(static_cast<long long>(slots)) + " slots for " + std::to_string(a.nnz()) +
                    " nonzeros (fill " + std::to_string(fill) + " > limit " + std::to_string(max_fill) + ")");
  }
  return offsets;
}

template <class V, class I>
Dia<V, I> dia_from_csr(const Csr<V, I>& a, double max_fill) {
  Dia<V, I> d;
  d.rows = a.rows;
  d.cols = a.cols;
  d.nnz = a.nnz();
  d.offsets = dia_offsets(a, max_fill);
  // diagonal_of[offset + rows]: index of the diagonal with that offset (only those of offsets are read).
  std::vector<I> diagonal_of(static_cast<std::size_t>(a.rows) + static_cast<std::size_t>(a.cols), -1);
  for (std::size_t i = 0; i < d.offsets.size(); ++i) diagonal_of[static_cast<std::size_t>(d.offsets[i] + a.rows)] = static_cast<I>(i);
  d.values.assign(d.offsets.size() * static_cast<std::size_t>(a.rows), V(0));
#pragma omp parallel for schedule(static)
  for (I r = 0; r < a.rows; ++r) {
    for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const I diag = diagonal_of[static_cast<std::size_t>(a.col_idx[k] - r + a.rows)];
      d.values[static_cast<std::size_t>(diag) * static_cast<std::size_t>(a.rows) + static_cast<std::size_t>(r)] = stored_entry(a.values[k]);
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
      if (!is_padding(v)) fn(static_cast<I>(c), v);  // an explicit zero is an entry (formats/padding.hpp)
    }
  };
  return detail::csr_from_rows<V, I>(d.rows, d.cols, each_entry);
}

#define HSPARSE_INSTANTIATE(V, I)                                    \
  template struct Dia<V, I>;                                         \
  template Dia<V, I> dia_from_csr(const Csr<V, I>&, double);         \
  template std::vector<I> dia_offsets(const Csr<V, I>&, double);     \
  template Csr<V, I> dia_to_csr(const Dia<V, I>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse

namespace hsparse::detail {

// Its row of the format registry (formats/format.hpp): the byte model counts what the conversion above stores.
FormatTraits format_traits_dia() {
  return {Format::dia, "dia", "DIA", "diagonals stored densely, one offset each (Bell and Garland)", 3.0, "DIA slots (diagonals x rows)",
          {{"--max-fill", "refuse beyond this many slots per nonzero"}}, true,
          [](const FormatFootprint& f, std::size_t vb, std::size_t ib) { return count(f.diagonals) * (count(f.rows) * vb + ib); },
          [](const FormatFootprint& f) { return per_nonzero(static_cast<double>(f.diagonals) * static_cast<double>(f.rows), f); },
          [](const FormatFootprint& f) { return std::to_string(f.diagonals) + " diagonals"; }};
}

}  // namespace hsparse::detail
