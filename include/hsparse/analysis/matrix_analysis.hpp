#pragma once
/// @file
/// What `hsparse info` reports about a matrix: shape, symmetry, row-length
/// statistics, bandwidth and diagonals, the best BCSR block size and its fill,
/// SELL-C-sigma chunk occupancy, and the bytes each storage format would take.
#include <cstdint>
#include <string>
#include <vector>

#include "hsparse/formats/csr.hpp"
#include "hsparse/formats/footprint.hpp"
#include "hsparse/formats/format.hpp"
#include "hsparse/formats/row_statistics.hpp"

namespace hsparse {

/// The stored bytes of one format for the analysed matrix.
struct FormatBytes {
  Format format = Format::csr;  ///< the format
  std::string title;  ///< its title, e.g. "SELL-C-sigma"
  std::size_t bytes = 0;  ///< bytes of the stored matrix (0 when the format refuses it)
  std::string detail;  ///< the layout, or why the format refuses the matrix
};

/// What `hsparse info` reports of a matrix: shape, symmetry, row lengths,
/// bandwidth, diagonals, block fill, SELL occupancy and each format's bytes.
struct MatrixAnalysis {
  std::int64_t rows = 0;  ///< rows of the matrix
  std::int64_t cols = 0;  ///< columns of the matrix
  std::size_t nnz = 0;    ///< stored entries
  std::string symmetry;  ///< general, structurally symmetric, symmetric, skew-symmetric, hermitian, (non-square)
  RowStatistics row_lengths;  ///< min, max, mean, spread of the row lengths
  std::int64_t lower_bandwidth = 0;  ///< max(i - j) over entries
  std::int64_t upper_bandwidth = 0;  ///< max(j - i)
  std::int64_t diagonals = 0;        ///< distinct j - i offsets holding entries
  std::int64_t hyb_ell_width = 0;    ///< ELL width of HYB by the Bell-Garland rule
  std::vector<BcsrFill> bcsr;        ///< block sizes 1..8, 16, 32
  int best_bcsr_block = 1;           ///< the block size that needs the fewest bytes
  std::vector<SellOccupancy> sell;  ///< SELL-C-sigma's beta for C = 32 and several sigma
  FormatFootprint footprint;         ///< the byte models' inputs (SELL at C = 32, sigma = 4096)
  std::vector<FormatBytes> formats;  ///< every registered format: bytes for the value type analysed, int32 indices
};

/// How far a square matrix is from symmetric, in values and not only in
/// structure: ||A - A^T||_F / ||A||_F (with `hermitian`, ||A - A^H||_F /
/// ||A||_F; 0 when symmetric; an entry missing on one side counts as its
/// value against zero), and the worst pair.
struct SymmetryDefect {
  double relative = 0;  ///< ||A - A^T||_F / ||A||_F (A^H for a Hermitian check)
  std::int64_t row = -1;  ///< row of the pair with the largest |a_ij - a_ji| (-1: none)
  std::int64_t col = -1;  ///< its column
  double a_ij = 0;        ///< real part of a_ij
  double a_ji = 0;        ///< real part of a_ji
};
template <class V, class I>
/// The symmetry defect of square `a` (against A^H with `hermitian`); Error(invalid_argument) for a non-square matrix.
SymmetryDefect symmetry_defect(const Csr<V, I>& a, bool hermitian = false);

template <class V, class I>
/// Analyses `a` on the host (a few passes over the matrix).
MatrixAnalysis analyze_matrix(const Csr<V, I>& a);

}  // namespace hsparse
