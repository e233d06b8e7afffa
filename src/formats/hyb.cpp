#include "hsparse/formats/hyb.hpp"
#include "traits_models.hpp"

#include <algorithm>

#include "hsparse/core/error.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/formats/footprint.hpp"

namespace hsparse {

namespace detail {
template <class V, class I>
I hyb_width(const Csr<V, I>& a, std::optional<I> width) {
  if (width) {
    if (*width < 0) throw Error(ErrorCode::invalid_argument, "HYB: width must be >= 0");
    return *width;
  }
  return static_cast<I>(hyb_ell_width(row_length_histogram(a), a.rows));
}
}  // namespace detail

template <class V, class I>
Hyb<V, I> hyb_from_csr(const Csr<V, I>& a, std::optional<I> width, I row_alignment) {
  const I k = detail::hyb_width(a, width);
  Hyb<V, I> h;
  h.ell = detail::ell_first_entries(a, k, row_alignment);
  h.coo.rows = a.rows;
  h.coo.cols = a.cols;
  // Entries beyond column k of each row, in row order (so the COO is canonical).
  std::vector<I> offset(static_cast<std::size_t>(a.rows) + 1, 0);
  for (I r = 0; r < a.rows; ++r) offset[r + 1] = offset[r] + std::max<I>(0, a.row_ptr[r + 1] - a.row_ptr[r] - k);
  const auto extra = static_cast<std::size_t>(offset[a.rows]);
  h.coo.row_idx.resize(extra);
  h.coo.col_idx.resize(extra);
  h.coo.values.resize(extra);
#pragma omp parallel for schedule(static)
  for (I r = 0; r < a.rows; ++r) {
    I out = offset[r];
    for (I j = a.row_ptr[r] + k; j < a.row_ptr[r + 1]; ++j, ++out) {
      h.coo.row_idx[out] = r;
      h.coo.col_idx[out] = a.col_idx[j];
      h.coo.values[out] = a.values[j];
    }
  }
  return h;
}

template <class V, class I>
Csr<V, I> hyb_to_csr(const Hyb<V, I>& h) {
  // ELL part first, then the COO tail of each row: columns stay increasing.
  Csr<V, I> ell = ell_to_csr(h.ell);
  Coo<V, I> all = csr_to_coo(ell);
  all.row_idx.insert(all.row_idx.end(), h.coo.row_idx.begin(), h.coo.row_idx.end());
  all.col_idx.insert(all.col_idx.end(), h.coo.col_idx.begin(), h.coo.col_idx.end());
  all.values.insert(all.values.end(), h.coo.values.begin(), h.coo.values.end());
  return coo_to_csr(all);
}

#define HSPARSE_INSTANTIATE(V, I)                                                   \
  template Hyb<V, I> hyb_from_csr(const Csr<V, I>&, std::optional<I>, I);          \
  template Csr<V, I> hyb_to_csr(const Hyb<V, I>&);                                \
  template I detail::hyb_width(const Csr<V, I>&, std::optional<I>);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse

namespace hsparse::detail {

// Its row of the format registry (formats/format.hpp): the byte model counts what the conversion above stores.
FormatTraits format_traits_hyb() {
  return {Format::hyb, "hyb", "HYB", "ELL for the first K entries of each row plus COO for the rest (Bell and Garland; cusp's K)", 0, "",
          {{"--hyb-width", "the ELL part's width K (default: cusp's histogram rule)"}}, true,
          [](const FormatFootprint& f, std::size_t vb, std::size_t ib) {
            return count(f.rows) * count(f.hyb_ell_width) * (vb + ib) + count(f.hyb_coo_entries) * (vb + 2 * ib);
          },
          [](const FormatFootprint& f) {
            return per_nonzero(static_cast<double>(f.rows) * static_cast<double>(f.hyb_ell_width) + static_cast<double>(f.hyb_coo_entries), f);
          },
          [](const FormatFootprint& f) {
            return "ELL width " + std::to_string(f.hyb_ell_width) + ", " + std::to_string(f.hyb_coo_entries) + " COO entries";
          }};
}

}  // namespace hsparse::detail
