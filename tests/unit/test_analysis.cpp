// Matrix analysis (hsparse info): statistics checked on matrices whose
// answers are known by hand.
#include <gtest/gtest.h>

#include "hsparse/analysis/matrix_analysis.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "hsparse/formats/convert.hpp"
#include "support/test_support.hpp"

namespace hsparse {
namespace {

TEST(Analysis, KnownStatisticsOfASmallMatrix) {
  // rows of lengths 2, 0, 3, 1 in a 4x5 matrix
  Coo<double, int> coo;
  coo.rows = 4;
  coo.cols = 5;
  coo.row_idx = {0, 0, 2, 2, 2, 3};
  coo.col_idx = {0, 4, 0, 2, 3, 0};
  coo.values = {1, 1, 1, 1, 1, 1};
  const auto m = analyze_matrix(coo_to_csr(coo));
  EXPECT_EQ(m.rows, 4);
  EXPECT_EQ(m.nnz, 6u);
  EXPECT_EQ(m.row_lengths.min_length, 0);
  EXPECT_EQ(m.row_lengths.max_length, 3);
  EXPECT_DOUBLE_EQ(m.row_lengths.mean_length, 1.5);
  EXPECT_DOUBLE_EQ(m.row_lengths.std_deviation, std::sqrt(1.25));
  EXPECT_EQ(m.row_lengths.empty_rows, 1);
  EXPECT_EQ(m.lower_bandwidth, 3);  // (3, 0)
  EXPECT_EQ(m.upper_bandwidth, 4);  // (0, 4)
  EXPECT_EQ(m.diagonals, 5);        // offsets 0, 4, -2, 0, 1, -3 -> {-3,-2,0,1,4}
  EXPECT_EQ(m.symmetry, "general (non-square)");
  // SELL C=4, sigma=1: one chunk of width 3 -> 12 slots for 6 entries.
  EXPECT_EQ(m.sell.front().chunk, 4);
  EXPECT_DOUBLE_EQ(m.sell.front().beta, 0.5);
}

TEST(Analysis, StencilIsSymmetricWith27Diagonals) {
  const auto m = analyze_matrix(generators::generate<double, int>("stencil3d:n=12"));
  EXPECT_EQ(m.symmetry, "symmetric");
  EXPECT_EQ(m.diagonals, 27);
  EXPECT_EQ(m.lower_bandwidth, 12 * 12 + 12 + 1);
  EXPECT_EQ(m.best_bcsr_block, 1);
}

TEST(Analysis, SkewAndHermitianAreRecognised) {
  const auto s = coo_to_csr(io::parse_matrix_market<double, int>(
      "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 3\n", "s").matrix);
  EXPECT_EQ(analyze_matrix(s).symmetry, "skew-symmetric");
  const auto h = coo_to_csr(io::parse_matrix_market<std::complex<double>, int>(
      "%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n1 1 2 0\n2 1 1 -1\n", "h").matrix);
  EXPECT_EQ(analyze_matrix(h).symmetry, "hermitian");
}

TEST(Analysis, HybWidthFollowsTheBellGarlandRule) {
  // 10000 rows of length 4 and 100 of length 50: ELL width 4, the long tails go to COO.
  std::vector<std::int64_t> histogram(51, 0);
  histogram[4] = 10000;
  histogram[50] = 100;
  EXPECT_EQ(hyb_ell_width(histogram, 10100), 4);
  // Under 4096 rows: everything in COO.
  std::vector<std::int64_t> small(5, 0);
  small[4] = 1000;
  EXPECT_EQ(hyb_ell_width(small, 1000), 0);
}

TEST(Analysis, EmptyMatrix) {
  const auto m = analyze_matrix(Csr<double, int>{});
  EXPECT_EQ(m.rows, 0);
  EXPECT_EQ(m.nnz, 0u);
}

}  // namespace
}  // namespace hsparse
