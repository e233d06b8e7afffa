#include "hsparse/analysis/matrix_analysis.hpp"

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <complex>
#include <functional>

#include "hsparse/core/error.hpp"

#include "hsparse/formats/convert.hpp"

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
SymmetryDefect symmetry_defect(const Csr<V, I>& a) {
  if (a.rows != a.cols) throw Error(ErrorCode::invalid_argument, "symmetry_defect: a non-square matrix is not symmetric");
  const Csr<V, I> t = transpose(a, false);
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

namespace {

// Chunk occupancy beta of SELL-C-sigma: rows sorted by length (descending)
// within windows of sigma rows, then cut into chunks of C rows, each padded
// to its longest row (Kreutzer et al., section 3.4).
template <class V, class I>
SellOccupancy sell_occupancy(const Csr<V, I>& a, int chunk, std::int64_t sigma) {
  SellOccupancy s;
  s.chunk = chunk;
  s.sigma = sigma;
  const std::int64_t rows = a.rows;
  std::vector<std::int64_t> len(static_cast<std::size_t>(rows));
  for (std::int64_t r = 0; r < rows; ++r) len[r] = a.row_ptr[r + 1] - a.row_ptr[r];
  if (sigma > 1) {
    for (std::int64_t w = 0; w < rows; w += sigma) {
      std::sort(len.begin() + w, len.begin() + std::min(rows, w + sigma), std::greater<>());
    }
  }
  std::size_t stored = 0;
  std::int64_t chunks = 0;
  for (std::int64_t c = 0; c < rows; c += chunk, ++chunks) {
    const std::int64_t width = *std::max_element(len.begin() + c, len.begin() + std::min(rows, c + chunk));
    stored += static_cast<std::size_t>(width) * static_cast<std::size_t>(chunk);
  }
  s.beta = stored > 0 ? static_cast<double>(a.nnz()) / static_cast<double>(stored) : 1.0;
  // values + column indices, chunk offsets and lengths, row permutation
  s.bytes = stored * (sizeof(V) + kIndexBytes) + static_cast<std::size_t>(2 * chunks + 1) * kIndexBytes +
            (sigma > 1 ? static_cast<std::size_t>(rows) * kIndexBytes : 0);
  return s;
}

}  // namespace

template <class V, class I>
BcsrFill bcsr_fill(const Csr<V, I>& a, int b) {
  BcsrFill f;
  f.block = b;
  const std::int64_t block_cols = (static_cast<std::int64_t>(a.cols) + b - 1) / b;
  const std::int64_t block_rows = (static_cast<std::int64_t>(a.rows) + b - 1) / b;
  std::int64_t blocks = 0;
#pragma omp parallel reduction(+ : blocks)
  {
    // Per thread: the last block row that used each block column.
    std::vector<std::int64_t> last_seen(static_cast<std::size_t>(block_cols), -1);
#pragma omp for schedule(dynamic, 256)
    for (std::int64_t br = 0; br < block_rows; ++br) {
      const std::int64_t r_end = std::min<std::int64_t>(a.rows, (br + 1) * b);
      for (std::int64_t r = br * b; r < r_end; ++r) {
        for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
          auto& seen = last_seen[static_cast<std::size_t>(a.col_idx[k] / b)];
          if (seen != br) { seen = br; ++blocks; }
        }
      }
    }
  }
  f.blocks = blocks;
  f.fill_ratio = a.nnz() > 0 ? static_cast<double>(f.blocks) * b * b / static_cast<double>(a.nnz()) : 1.0;
  f.bytes = static_cast<std::size_t>(f.blocks) * (static_cast<std::size_t>(b) * b * sizeof(V) + kIndexBytes) +
            static_cast<std::size_t>(block_rows + 1) * kIndexBytes;
  return f;
}

template <class V, class I>
int best_bcsr_block(const Csr<V, I>& a, int max_block) {
  int best = 1;
  std::size_t best_bytes = static_cast<std::size_t>(-1);
  for (int b = 1; b <= max_block; ++b) {
    const std::size_t bytes = bcsr_fill(a, b).bytes;
    if (bytes < best_bytes) { best = b; best_bytes = bytes; }
  }
  return best;
}

std::int64_t hyb_ell_width(const std::vector<std::int64_t>& histogram, std::int64_t rows) {
  // cusp's compute_optimal_entries_per_row (relative speed 3, breakeven 4096):
  // the first width i at which fewer than rows/3 rows, or fewer than 4096
  // rows, would still have entries beyond column i.
  constexpr double kRelativeSpeed = 3.0;
  constexpr std::int64_t kBreakevenRows = 4096;
  std::int64_t longer_than_i = rows;
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(histogram.size()); ++i) {
    longer_than_i -= histogram[static_cast<std::size_t>(i)];
    if (kRelativeSpeed * static_cast<double>(longer_than_i) < static_cast<double>(rows) || longer_than_i < kBreakevenRows) {
      return i;
    }
  }
  return static_cast<std::int64_t>(histogram.size()) - 1;
}

template <class V, class I>
MatrixAnalysis analyze_matrix(const Csr<V, I>& a) {
  MatrixAnalysis m;
  m.rows = a.rows;
  m.cols = a.cols;
  m.nnz = a.nnz();
  m.row_lengths = row_length_statistics(a);
  m.symmetry = classify_symmetry(a);

  std::vector<char> has_diagonal(static_cast<std::size_t>(a.rows) + static_cast<std::size_t>(a.cols), 0);
  std::vector<std::int64_t> histogram(static_cast<std::size_t>(m.row_lengths.max_length) + 1, 0);
  for (I r = 0; r < a.rows; ++r) {
    ++histogram[static_cast<std::size_t>(a.row_ptr[r + 1] - a.row_ptr[r])];
    for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const std::int64_t offset = static_cast<std::int64_t>(a.col_idx[k]) - r;
      m.lower_bandwidth = std::max(m.lower_bandwidth, -offset);
      m.upper_bandwidth = std::max(m.upper_bandwidth, offset);
      has_diagonal[static_cast<std::size_t>(offset + a.rows)] = 1;
    }
  }
  m.diagonals = std::count(has_diagonal.begin(), has_diagonal.end(), 1);
  m.hyb_ell_width = hyb_ell_width(histogram, a.rows);

  for (int b : {1, 2, 3, 4, 5, 6, 7, 8, 16, 32}) m.bcsr.push_back(bcsr_fill(a, b));
  const auto best = std::min_element(m.bcsr.begin(), m.bcsr.end(), [](const auto& x, const auto& y) { return x.bytes < y.bytes; });
  m.best_bcsr_block = best->block;

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

  const std::size_t vb = sizeof(V), ib = kIndexBytes, nnz = a.nnz(), rows = static_cast<std::size_t>(a.rows);
  std::size_t ell_part = 0;
  for (std::size_t len = 0; len < histogram.size(); ++len) {
    ell_part += static_cast<std::size_t>(histogram[len]) * std::min<std::size_t>(len, static_cast<std::size_t>(m.hyb_ell_width));
  }
  const auto max_len = static_cast<std::size_t>(m.row_lengths.max_length);
  m.formats.push_back({"COO", nnz * (vb + 2 * ib), ""});
  m.formats.push_back({"CSR", nnz * (vb + ib) + (rows + 1) * ib, ""});
  m.formats.push_back({"ELL", rows * max_len * (vb + ib), "width " + std::to_string(max_len)});
  m.formats.push_back({"HYB", rows * static_cast<std::size_t>(m.hyb_ell_width) * (vb + ib) + (nnz - ell_part) * (vb + 2 * ib),
                       "ELL width " + std::to_string(m.hyb_ell_width) + ", " + std::to_string(nnz - ell_part) + " COO entries"});
  m.formats.push_back({"DIA", static_cast<std::size_t>(m.diagonals) * (rows * vb + ib), std::to_string(m.diagonals) + " diagonals"});
  m.formats.push_back({"BCSR", best->bytes, "block " + std::to_string(best->block)});
  for (const auto& s : m.sell) {
    if (s.chunk == 32 && s.sigma == std::max<std::int64_t>(1, std::min<std::int64_t>(a.rows, 4096))) {
      m.formats.push_back({"SELL-32-" + std::to_string(s.sigma), s.bytes, ""});
    }
  }
  return m;
}

#define HSPARSE_INSTANTIATE(V, I)                                \
  template MatrixAnalysis analyze_matrix(const Csr<V, I>&);      \
  template BcsrFill bcsr_fill(const Csr<V, I>&, int);            \
  template int best_bcsr_block(const Csr<V, I>&, int);        \
  template SymmetryDefect symmetry_defect(const Csr<V, I>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
