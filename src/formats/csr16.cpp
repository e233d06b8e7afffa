// CSR16 (formats/csr16.hpp): conversions and rules.
#include "traits_models.hpp"
#include "hsparse/formats/csr16.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "csr_from_rows.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/formats/convert.hpp"

namespace hsparse {

namespace {

template <class V, class I>
bool narrow_row(const Csr<V, I>& a, I r) {
  const I b = a.row_ptr[static_cast<std::size_t>(r)], e = a.row_ptr[static_cast<std::size_t>(r) + 1];
  return e == b || static_cast<std::int64_t>(a.col_idx[static_cast<std::size_t>(e) - 1]) - a.col_idx[static_cast<std::size_t>(b)] < kCsr16Span;
}

// The rows of `a` that are narrow (keep_narrow) or wide, whole, as CSR.
template <class V, class I>
Csr<V, I> rows_of(const Csr<V, I>& a, bool keep_narrow) {
  return detail::csr_from_rows<V, I>(a.rows, a.cols, [&](I r, auto&& fn) {
    if (narrow_row(a, r) != keep_narrow) return;
    for (I k = a.row_ptr[static_cast<std::size_t>(r)]; k < a.row_ptr[static_cast<std::size_t>(r) + 1]; ++k) fn(a.col_idx[static_cast<std::size_t>(k)], a.values[static_cast<std::size_t>(k)]);
  });
}

}  // namespace

template <class V, class I>
void Csr16<V, I>::validate() const {
  const auto fail = [](const std::string& why) { throw Error(ErrorCode::invalid_matrix, "CSR16: " + why); };
  const auto n = static_cast<std::size_t>(rows);
  if (row_ptr.size() != n + 1 || base.size() != n) fail("row_ptr must hold rows + 1 and base rows entries");
  if (row_ptr.front() != 0 || static_cast<std::size_t>(row_ptr.back()) != values.size() || offset.size() != values.size()) {
    fail("row_ptr must run from 0 to the number of values, offsets one per value");
  }
  const bool any_wide = has_wide();
  if (any_wide && (wide.rows != rows || wide.cols != cols)) fail("the wide part must have the matrix's shape");
  if (any_wide) wide.validate();
  for (std::size_t r = 0; r < n; ++r) {
    if (row_ptr[r + 1] < row_ptr[r]) fail("row_ptr decreases at row " + std::to_string(r));
    if (row_ptr[r + 1] == row_ptr[r]) continue;
    if (any_wide && wide.row_length(static_cast<I>(r)) > 0) fail("row " + std::to_string(r) + " is in both parts");
    for (I k = row_ptr[r] + 1; k < row_ptr[r + 1]; ++k) {
      if (offset[static_cast<std::size_t>(k)] <= offset[static_cast<std::size_t>(k) - 1]) fail("offsets not increasing in row " + std::to_string(r));
    }
    const std::int64_t last = static_cast<std::int64_t>(base[r]) + offset[static_cast<std::size_t>(row_ptr[r + 1]) - 1];
    if (base[r] < 0 || last >= cols) fail("row " + std::to_string(r) + " has a column outside [0, " + std::to_string(cols) + ")");
  }
}

template <class V, class I>
std::int64_t csr16_wide_row_count(const Csr<V, I>& a) {
  long long wide_rows = 0;
#pragma omp parallel for schedule(static) reduction(+ : wide_rows)
  for (I r = 0; r < a.rows; ++r) wide_rows += narrow_row(a, r) ? 0 : 1;
  return wide_rows;
}

template <class V, class I>
Csr16<V, I> csr16_from_csr(const Csr<V, I>& a) {
  a.validate();
  Csr16<V, I> c;
  c.rows = a.rows;
  c.cols = a.cols;
  const std::int64_t wide_rows = csr16_wide_row_count(a);
  // Without wide rows (every regular matrix) the narrow part is `a` itself:
  // its offsets and values are copied once, not split into a CSR first
  // (that split and a second copy of the values made CSR16's setup 1.2 ns
  // per byte on the GPU host, 3x BCSR's: docs/results/2026-11-26-bcsr-bs3-kernels-h100).
  std::optional<Csr<V, I>> split;
  if (wide_rows > 0) split = rows_of(a, true);
  const Csr<V, I>& narrow = split ? *split : a;
  c.row_ptr = narrow.row_ptr;
  c.values = split ? std::move(split->values) : a.values;
  c.base.assign(static_cast<std::size_t>(a.rows), 0);
  c.offset.resize(narrow.col_idx.size());
#pragma omp parallel for schedule(static)
  for (I r = 0; r < a.rows; ++r) {
    const auto b = static_cast<std::size_t>(narrow.row_ptr[static_cast<std::size_t>(r)]), e = static_cast<std::size_t>(narrow.row_ptr[static_cast<std::size_t>(r) + 1]);
    if (b == e) continue;
    c.base[static_cast<std::size_t>(r)] = narrow.col_idx[b];
    for (std::size_t k = b; k < e; ++k) c.offset[k] = static_cast<std::uint16_t>(narrow.col_idx[k] - narrow.col_idx[b]);
  }
  if (wide_rows > 0) c.wide = rows_of(a, false);
  return c;
}

template <class V, class I>
Csr<V, I> csr16_to_csr(const Csr16<V, I>& c) {
  return detail::csr_from_rows<V, I>(c.rows, c.cols, [&](I r, auto&& fn) {
    const auto row = static_cast<std::size_t>(r);
    for (I k = c.row_ptr[row]; k < c.row_ptr[row + 1]; ++k) fn(static_cast<I>(c.base[row] + c.offset[static_cast<std::size_t>(k)]), c.values[static_cast<std::size_t>(k)]);
    if (!c.has_wide()) return;
    for (I k = c.wide.row_ptr[row]; k < c.wide.row_ptr[row + 1]; ++k) fn(c.wide.col_idx[static_cast<std::size_t>(k)], c.wide.values[static_cast<std::size_t>(k)]);
  });
}

template <class V, class I>
Csr16<single_t<V>, I> csr16_single_from_csr(const Csr<V, I>& a) {
  using S = single_t<V>;
  constexpr double most = std::numeric_limits<float>::max();
  for (std::size_t k = 0; k < a.values.size(); ++k) {
    const V v = a.values[k];
    const bool over = is_complex_v<V> ? std::abs(std::real(v)) > most || std::abs(std::imag(v)) > most : std::abs(std::real(v)) > most;
    if (over) {
      throw Error(ErrorCode::overflow, "csr16-single: entry " + std::to_string(k) + " (column " + std::to_string(a.col_idx[k]) +
                                           ") exceeds single precision's range; keep this matrix in double");
    }
  }
  return csr16_from_csr(convert_types<S, I>(a));
}

#define HSPARSE_INSTANTIATE(V, I)                           \
  template struct Csr16<V, I>;                              \
  template Csr16<V, I> csr16_from_csr(const Csr<V, I>&);    \
  template std::int64_t csr16_wide_row_count(const Csr<V, I>&); \
  template Csr<V, I> csr16_to_csr(const Csr16<V, I>&);      \
  template Csr16<single_t<V>, I> csr16_single_from_csr(const Csr<V, I>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse

namespace hsparse::detail {

// Its row of the format registry (formats/format.hpp): the byte model counts what the conversion above stores.
namespace {
// CSR16's bytes with stored values of sb bytes: narrow entries (value + 16-bit
// offset), row_ptr and bases, and the wide rows' plain CSR when there are any.
std::size_t csr16_bytes(const FormatFootprint& f, std::size_t sb, std::size_t ib) {
  const std::size_t narrow = count(f.nnz - f.csr16_wide_entries), wide = count(f.csr16_wide_entries);
  return narrow * (sb + 2) + (2 * count(f.rows) + 1) * ib + (f.csr16_wide_rows > 0 ? wide * (sb + ib) + (count(f.rows) + 1) * ib : 0);
}
std::string csr16_shape(const FormatFootprint& f) {
  return f.csr16_wide_rows > 0 ? std::to_string(f.csr16_wide_rows) + " wide rows in plain CSR" : std::string();
}
}  // namespace

FormatTraits format_traits_csr16() {
  return {Format::csr16, "csr16", "CSR16",
          "CSR with a 32-bit base per row and 16-bit column offsets; rows spanning 2^16 columns or more in a plain CSR part (issue 18: "
          "lossless index compression)",
          0, "", {}, true, csr16_bytes, no_padding, csr16_shape};
}

FormatTraits format_traits_csr16_single() {
  return {Format::csr16_single, "csr16-single", "CSR16, single values",
          "CSR16 with the values stored in single precision, products accumulated in the caller's precision (issue 18: opt-in, lossy; "
          "relative rounding 2^-24 per value)",
          0, "", {}, true,
          [](const FormatFootprint& f, std::size_t, std::size_t ib) { return csr16_bytes(f, f.complex_values ? 8 : 4, ib); },  // complex<float> or float
          no_padding, csr16_shape, 1.0 / (1 << 24)};
}

}  // namespace hsparse::detail
