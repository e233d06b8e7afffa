// Distributed matrices without a communicator (distributed/row_partition.hpp,
// distributed/halo_split.hpp): every rank of P is simulated in one process.
// Each rank's rows are split into local and remote parts; local * x_owned +
// remote * x_ghost, with x_ghost gathered by the ghost list, must give the
// serial reference's rows, for P = 1..5 on the edge cases (empty matrix,
// empty rows, ranks owning no rows, rectangular both ways, one long row,
// explicit zeros) and on complex values.
#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/distributed/halo_split.hpp"
#include "hsparse/distributed/row_partition.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/manifest.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "support/test_support.hpp"

namespace hsparse::distributed {
namespace {

TEST(RowPartition, ContiguousBlocksDifferByAtMostOneRow) {
  EXPECT_EQ(contiguous_rows(10, 3).offsets, (std::vector<std::int64_t>{0, 4, 7, 10}));
  EXPECT_EQ(contiguous_rows(0, 2).offsets, (std::vector<std::int64_t>{0, 0, 0}));
  const RowPartition few = contiguous_rows(2, 4);  // two ranks own no rows
  EXPECT_EQ(few.offsets, (std::vector<std::int64_t>{0, 1, 2, 2, 2}));
  EXPECT_EQ(few.owner(0), 0);
  EXPECT_EQ(few.owner(1), 1);
  const RowPartition gaps{{0, 3, 3, 3, 8}};  // empty ranks in the middle
  gaps.validate();
  for (std::int64_t r = 0; r < 8; ++r) EXPECT_EQ(gaps.owner(r), r < 3 ? 0 : 3) << r;
  EXPECT_THROW(gaps.owner(8), Error);
  EXPECT_THROW(gaps.owner(-1), Error);
  EXPECT_THROW(contiguous_rows(5, 0), Error);
  EXPECT_THROW(contiguous_rows(-1, 2), Error);
  EXPECT_THROW((RowPartition{{0, 4, 2}}).validate(), Error);
  EXPECT_THROW((RowPartition{{1, 4}}).validate(), Error);
  EXPECT_THROW((RowPartition{{0}}).validate(), Error);
}

TEST(RowPartition, WeightedCutsFollowTheNonzeros) {
  // Rows of 1, 2, ..., 40 entries: 820 in all.
  std::vector<std::int64_t> row_ptr{0};
  for (int i = 1; i <= 40; ++i) row_ptr.push_back(row_ptr.back() + i);
  const std::vector<double> equal(4, 1.0);
  const RowPartition even = weighted_rows(row_ptr, equal);
  even.validate();
  ASSERT_EQ(even.ranks(), 4);
  EXPECT_EQ(even.rows(), 40);
  for (int r = 0; r < 4; ++r) {
    const double share = static_cast<double>(row_ptr[static_cast<std::size_t>(even.begin(r) + even.size(r))] - row_ptr[static_cast<std::size_t>(even.begin(r))]);
    EXPECT_NEAR(share, 205.0, 40.0) << "rank " << r;  // within one row (at most 40 entries) of a quarter
  }
  EXPECT_GT(even.size(0), even.size(3));  // short rows first: more of them
  const std::vector<double> one_to_three{1.0, 3.0};
  const RowPartition skew = weighted_rows(row_ptr, one_to_three);
  const double first = static_cast<double>(row_ptr[static_cast<std::size_t>(skew.offsets[1])]);
  EXPECT_NEAR(first, 820.0 / 4, 40.0);
  // No work at all: the rows evenly.
  const std::vector<std::int64_t> empty_rows(7, 0);
  EXPECT_EQ(weighted_rows(empty_rows, equal).offsets, contiguous_rows(6, 4).offsets);
  // A rank of weight 0 gets nothing where the others can take the rows.
  const std::vector<double> idle{1.0, 0.0, 1.0};
  const RowPartition with_idle = weighted_rows(row_ptr, idle);
  EXPECT_EQ(with_idle.size(1), 0);
  EXPECT_THROW(weighted_rows(row_ptr, std::vector<double>{}), Error);
  EXPECT_THROW(weighted_rows(row_ptr, std::vector<double>{0.0, 0.0}), Error);
  EXPECT_THROW(weighted_rows(row_ptr, std::vector<double>{1.0, -1.0}), Error);
  EXPECT_THROW(weighted_rows(std::vector<std::int64_t>{0, 5, 3}, equal), Error);
}

// Every rank of P splits its rows; the two parts' products, with the ghosts
// gathered from x by the ghost list, make up the serial product.
template <class V, class I>
void expect_split_products_match(const std::string& name, const Csr<V, std::int64_t>& a, int ranks) {
  const RowPartition rows = contiguous_rows(a.rows, ranks), columns = contiguous_rows(a.cols, ranks);
  const std::vector<V> x = test::test_vector<V>(static_cast<std::size_t>(a.cols), 7);
  std::vector<V> y(static_cast<std::size_t>(a.rows), V(std::numeric_limits<double>::quiet_NaN()));  // poison: every row written
  for (int r = 0; r < ranks; ++r) {
    const HaloSplit<V, I> s = split_by_owner<V, I>(row_block(a, rows.begin(r), rows.begin(r) + rows.size(r)), columns, r);
    s.local.validate();
    s.remote.validate();
    ASSERT_EQ(static_cast<std::int64_t>(s.local.cols), columns.size(r)) << name;
    ASSERT_EQ(s.ghost_offsets.size(), static_cast<std::size_t>(ranks) + 1) << name;
    EXPECT_EQ(s.ghost_offsets[static_cast<std::size_t>(r)], s.ghost_offsets[static_cast<std::size_t>(r) + 1]) << name << ": a rank is its own ghost";
    for (int owner = 0; owner < ranks; ++owner) {
      for (auto g = s.ghost_offsets[static_cast<std::size_t>(owner)]; g < s.ghost_offsets[static_cast<std::size_t>(owner) + 1]; ++g) {
        EXPECT_EQ(columns.owner(s.ghost_columns[static_cast<std::size_t>(g)]), owner) << name << " ghost " << g;
      }
    }
    EXPECT_TRUE(std::is_sorted(s.ghost_columns.begin(), s.ghost_columns.end())) << name;
    const std::span<const V> x_owned(x.data() + columns.begin(r), static_cast<std::size_t>(columns.size(r)));
    std::vector<V> x_ghost;
    for (std::int64_t c : s.ghost_columns) x_ghost.push_back(x[static_cast<std::size_t>(c)]);
    std::span<V> y_rank(y.data() + rows.begin(r), static_cast<std::size_t>(rows.size(r)));
    reference::csr_spmv<V, I>(V(1), s.local, x_owned, V(0), y_rank);
    reference::csr_spmv<V, I>(V(1), s.remote, x_ghost, V(1), y_rank);
  }
  const SpmvCheck c = check_spmv_result<V, std::int64_t>(a, x, V(1), V(0), {}, y);
  EXPECT_TRUE(c.passed) << name << " on " << ranks << " ranks: " << c.message;
}

TEST(HaloSplit, PartsMakeUpTheSerialProductOnEveryRankCount) {
  auto cases = test::edge_case_matrices();
  cases.push_back({"random 300 x 200", generators::random_uniform<double, std::int64_t>(300, 200, 7, 3)});
  cases.push_back({"stencil 12 x 12", generators::stencil_2d<double, std::int64_t>(12, 12, 5)});
  for (const auto& [name, a] : cases) {
    for (int ranks = 1; ranks <= 5; ++ranks) {
      expect_split_products_match<double, std::int32_t>(name, a, ranks);
      expect_split_products_match<double, std::int64_t>(name, a, ranks);
    }
  }
}

TEST(HaloSplit, ComplexValuesAndSinglePrecision) {
  const auto a = generators::random_uniform<double, std::int64_t>(120, 150, 5, 11);
  for (int ranks : {1, 3, 4}) {
    expect_split_products_match<std::complex<double>, std::int32_t>("complex", convert_types<std::complex<double>, std::int64_t>(a), ranks);
    expect_split_products_match<float, std::int32_t>("float", convert_types<float, std::int64_t>(a), ranks);
  }
}

// The shared SuiteSparse matrices (real ones as double, complex ones as
// complex<double>), on 3 and 4 ranks.
TEST(HaloSplit, PartsMakeUpTheSerialProductOnTheSharedMatrices) {
  const auto dir = test::shared_matrix_dir();
  if (!dir) GTEST_SKIP() << "skipped: shared matrices folder not found (set HSPARSE_MATRICES)";
  int checked = 0;
  for (const auto& m : io::read_manifest(*dir)) {
    const std::string path = *dir + "/" + m.name + ".mtx.gz";
    for (int ranks : {3, 4}) {
      if (m.field == "complex") {
        expect_split_products_match<std::complex<double>, std::int32_t>(m.name, io::read_matrix_market_csr<std::complex<double>, std::int64_t>(path), ranks);
      } else {
        expect_split_products_match<double, std::int32_t>(m.name, io::read_matrix_market_csr<double, std::int64_t>(path), ranks);
      }
    }
    ++checked;
  }
  EXPECT_GT(checked, 0) << "the folder's MANIFEST.md lists no matrices";
}

TEST(HaloSplit, RefusesWhatDoesNotFit) {
  const auto a = generators::stencil_2d<double, std::int64_t>(6, 6, 5);
  EXPECT_THROW(row_block(a, 3, 2), Error);
  EXPECT_THROW(row_block(a, 0, a.rows + 1), Error);
  EXPECT_THROW(row_block(a, -1, 2), Error);
  EXPECT_EQ(row_block(a, 4, 4).rows, 0);
  const RowPartition columns = contiguous_rows(a.cols, 2);
  EXPECT_THROW((split_by_owner<double, std::int32_t>(a, columns, 2)), Error);   // no rank 2
  EXPECT_THROW((split_by_owner<double, std::int32_t>(a, contiguous_rows(a.cols + 1, 2), 0)), Error);  // column counts differ
  Csr<double, std::int64_t> bad = a;
  bad.col_idx[0] = a.cols;  // out of range
  EXPECT_THROW((split_by_owner<double, std::int32_t>(bad, columns, 0)), Error);
  // A global column count beyond int32 is fine while each rank's parts fit.
  Csr<double, std::int64_t> wide;
  wide.rows = 1;
  wide.cols = 5'000'000'000LL;
  wide.row_ptr = {0, 2};
  wide.col_idx = {1, 4'999'999'999LL};
  wide.values = {1.0, 2.0};
  const HaloSplit<double, std::int32_t> s = split_by_owner<double, std::int32_t>(wide, contiguous_rows(wide.cols, 4), 0);
  EXPECT_EQ(s.local.nnz(), 1u);
  EXPECT_EQ(s.ghost_columns, (std::vector<std::int64_t>{4'999'999'999LL}));
  EXPECT_EQ(s.ghost_offsets[3], 0);
  EXPECT_EQ(s.ghost_offsets[4], 1);
  try {
    split_by_owner<double, std::int32_t>(wide, contiguous_rows(wide.cols, 1), 0);  // one rank: 5e9 owned columns
    ADD_FAILURE() << "5e9 local columns fit int32";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::overflow);
    EXPECT_NE(std::string(e.what()).find("the rank's columns"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hsparse::distributed
