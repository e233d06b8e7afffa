#include "hsparse/analysis/matrix_analysis.hpp"

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <complex>
#include <functional>

#include "hsparse/core/error.hpp"

#include "hsparse/formats/convert.hpp"
#include "hsparse/formats/format.hpp"

namespace hsparse {

namespace {

constexpr std::size_t kIndexBytes = 4;  // footprints assume int32 indices, as in the papers

template <class V, class I>
std::string classify_symmetry(const Csr<V, I>& a) {
  if (a.rows != a.cols) return "general (non-square)";
  const Csr<V, I> t = transpose(a, false);
  if (t.row_ptr != a.row_ptr || t.col_idx != a.col_idx) return "general";
  auto all = [&](auto pred) {
    for (std::size_t k = 0; k < a.nnz(); ++k) {
      if (!pred(a.values[k], t.values[k])) return false;
    }
    return true;
  };
  if (all([](V x, V y) { return x == y; })) return "symmetric";
  if (all([](V x, V y) { return x == -y; })) return "skew-symmetric";
  if constexpr (is_complex_v<V>) {
    if (all([](V x, V y) { return x == std::conj(y); })) return "hermitian";
  }
  return "structurally symmetric";
}

}  // namespace

template <class V, class I>
SymmetryDefect symmetry_defect(const Csr<V, I>& a, bool hermitian) {
  if (a.rows != a.cols) throw Error(ErrorCode::invalid_argument, "symmetry_defect: a non-square matrix is not symmetric");
  const Csr<V, I> t = transpose(a, hermitian);
  SymmetryDefect d;
  double diff2 = 0, norm2 = 0, worst = -1;
  auto note = [&](I r, I c, V x, V y) {  // x = a_rc, y = a_cr
    const double e = std::abs(x - y);
    diff2 += e * e;
    norm2 += std::norm(std::complex<double>(x));
    if (e > worst) {
      worst = e;
      d.row = r;
      d.col = c;
      d.a_ij = static_cast<double>(std::real(x));
      d.a_ji = static_cast<double>(std::real(y));
    }
  };
  for (I r = 0; r < a.rows; ++r) {  // merge row r of A with row r of A^T (both sorted)
    I i = a.row_ptr[r], j = t.row_ptr[r];
    while (i < a.row_ptr[r + 1] || j < t.row_ptr[r + 1]) {
      const I ca = i < a.row_ptr[r + 1] ? a.col_idx[i] : a.cols, ct = j < t.row_ptr[r + 1] ? t.col_idx[j] : a.cols;
      if (ca == ct) note(r, ca, a.values[i++], t.values[j++]);
      else if (ca < ct) note(r, ca, a.values[i++], V(0));
      else note(r, ct, V(0), t.values[j++]);
    }
  }
  d.relative = norm2 > 0 ? std::sqrt(diff2 / norm2) : 0;
  return d;
}

template <class V, class I>
MatrixAnalysis analyze_matrix(const Csr<V, I>& a) {
  MatrixAnalysis m;
  m.rows = a.rows;
  m.cols = a.cols;
  m.nnz = a.nnz();
  m.row_lengths = row_length_statistics(a);
  m.symmetry = classify_symmetry(a);
  for (I r = 0; r < a.rows; ++r) {
    for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const std::int64_t offset = static_cast<std::int64_t>(a.col_idx[k]) - r;
      m.lower_bandwidth = std::max(m.lower_bandwidth, -offset);
      m.upper_bandwidth = std::max(m.upper_bandwidth, offset);
    }
  }
  m.footprint = format_footprint(a, 32, 4096);
  m.diagonals = m.footprint.diagonals;
  m.hyb_ell_width = m.footprint.hyb_ell_width;
  for (int b : {1, 2, 3, 4, 5, 6, 7, 8, 16, 32}) m.bcsr.push_back(b == m.footprint.bcsr.block ? m.footprint.bcsr : bcsr_fill(a, b));
  m.best_bcsr_block = m.footprint.bcsr.block;

  // Sorting scopes: none, two windows, and the whole matrix (duplicates and
  // windows beyond the row count dropped).
  std::vector<std::int64_t> sigmas;
  for (std::int64_t sigma : {std::int64_t{1}, std::int64_t{256}, std::int64_t{4096}, static_cast<std::int64_t>(a.rows)}) {
    if (sigma >= 1 && (sigma == 1 || sigma <= a.rows) && std::find(sigmas.begin(), sigmas.end(), sigma) == sigmas.end()) {
      sigmas.push_back(sigma);
    }
  }
  for (int chunk : {4, 8, 32}) {
    for (std::int64_t sigma : sigmas) m.sell.push_back(sell_occupancy(a, chunk, sigma));
  }
  // Every registered format's bytes for this value type and int32 indices.
  for (Format f : all_formats()) {
    const FormatTraits& t = format_traits(f);
    m.formats.push_back({f, t.title, t.bytes(m.footprint, sizeof(V), kIndexBytes), t.shape(m.footprint)});
  }
  return m;
}

#define HSPARSE_INSTANTIATE(V, I)                                \
  template MatrixAnalysis analyze_matrix(const Csr<V, I>&);      \
  template SymmetryDefect symmetry_defect(const Csr<V, I>&, bool);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
