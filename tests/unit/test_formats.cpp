// COO and CSR containers: validation, COO <-> CSR conversion, transpose.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

#include "hsparse/core/error.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/formats/footprint.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "support/test_support.hpp"

namespace hsparse {
namespace {

Csr<double, int> small_csr() {
  // [1 0 2]
  // [0 0 0]
  // [3 4 0]
  Csr<double, int> a;
  a.rows = 3;
  a.cols = 3;
  a.row_ptr = {0, 2, 2, 4};
  a.col_idx = {0, 2, 0, 1};
  a.values = {1, 2, 3, 4};
  return a;
}

void expect_invalid(const Csr<double, int>& a, const std::string& fragment) {
  try {
    a.validate();
    FAIL() << "validate() accepted an invalid matrix, expected: " << fragment;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_matrix);
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Csr, ValidMatrixPasses) { EXPECT_NO_THROW(small_csr().validate()); }

// Validation runs in parallel over rows and still names the first bad row.
TEST(Csr, ValidationNamesTheFirstBadRowOfMany) {
  Csr<double, int> a;
  a.rows = 100000;
  a.cols = 100000;
  a.row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  for (int r = 0; r <= a.rows; ++r) a.row_ptr[static_cast<std::size_t>(r)] = 2 * r;
  for (int r = 0; r < a.rows; ++r) {
    a.col_idx.insert(a.col_idx.end(), {r / 2, r / 2 + 1});
    a.values.insert(a.values.end(), {1.0, 2.0});
  }
  EXPECT_NO_THROW(a.validate());
  a.col_idx[2 * 90000 + 1] = 100000;  // outside, in a later row
  a.col_idx[2 * 70000 + 1] = a.col_idx[2 * 70000];  // repeated, in an earlier one
  expect_invalid(a, "row 70000 has column indices not strictly increasing");
  a.row_ptr[95001] = 0;
  a.row_ptr[99001] = 0;
  expect_invalid(a, "row_ptr decreases at row 95000");
}

TEST(Csr, ValidationNamesEachViolation) {
  auto a = small_csr();
  a.row_ptr = {0, 2, 1, 4};
  expect_invalid(a, "row_ptr decreases at row 1");
  a = small_csr();
  a.col_idx = {2, 0, 0, 1};
  expect_invalid(a, "not strictly increasing");
  a = small_csr();
  a.col_idx = {0, 0, 0, 1};
  expect_invalid(a, "not strictly increasing");
  a = small_csr();
  a.col_idx[3] = 3;
  expect_invalid(a, "column index 3 outside [0, 3)");
  a = small_csr();
  a.row_ptr = {0, 9, 2, 4};  // past nnz before it decreases: named, not read past col_idx
  expect_invalid(a, "row_ptr decreases at row 1");
  a = small_csr();
  a.row_ptr = {1, 2, 2, 4};
  expect_invalid(a, "row_ptr[0] is 1");
  a = small_csr();
  a.row_ptr = {0, 2, 2, 3};
  expect_invalid(a, "row_ptr[rows] is 3");
  a = small_csr();
  a.row_ptr.pop_back();
  expect_invalid(a, "expected rows + 1");
  a = small_csr();
  a.values.pop_back();
  expect_invalid(a, "col_idx has 4 entries but values has 3");
}

TEST(Coo, ToCsrSortsAndSumsDuplicates) {
  Coo<double, int> coo;
  coo.rows = 2;
  coo.cols = 3;
  coo.row_idx = {1, 0, 1, 0, 1};
  coo.col_idx = {2, 1, 0, 1, 2};
  coo.values = {1.0, 2.0, 3.0, 4.0, 0.5};
  const auto csr = coo_to_csr(coo);
  EXPECT_NO_THROW(csr.validate());
  EXPECT_EQ(csr.row_ptr, (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(csr.col_idx, (std::vector<int>{1, 0, 2}));
  EXPECT_EQ(csr.values, (std::vector<double>{6.0, 3.0, 1.5}));
}

TEST(Coo, ExplicitZerosAreKept) {
  Coo<double, int> coo;
  coo.rows = 2;
  coo.cols = 2;
  coo.row_idx = {0, 1};
  coo.col_idx = {1, 0};
  coo.values = {0.0, 0.0};
  EXPECT_EQ(coo_to_csr(coo).nnz(), 2u);
}

TEST(Coo, OutOfRangeEntryIsAnError) {
  Coo<double, int> coo;
  coo.rows = 2;
  coo.cols = 2;
  coo.row_idx = {0, 2};
  coo.col_idx = {1, 0};
  coo.values = {1.0, 1.0};
  EXPECT_THROW(coo_to_csr(coo), Error);
}

TEST(Coo, CanonicalizeSortsAndMerges) {
  Coo<float, std::int64_t> coo;
  coo.rows = 3;
  coo.cols = 3;
  coo.row_idx = {2, 0, 2};
  coo.col_idx = {1, 0, 1};
  coo.values = {1.f, 2.f, 3.f};
  EXPECT_FALSE(coo.is_canonical());
  coo.canonicalize();
  EXPECT_TRUE(coo.is_canonical());
  EXPECT_EQ(coo.values, (std::vector<float>{2.f, 4.f}));
}

TEST(Convert, CsrCooRoundTripIsExactOnEdgeCases) {
  for (const auto& [name, a] : test::edge_case_matrices()) {
    const auto back = coo_to_csr(csr_to_coo(a));
    EXPECT_EQ(back.row_ptr, a.row_ptr) << name;
    EXPECT_EQ(back.col_idx, a.col_idx) << name;
    EXPECT_EQ(back.values, a.values) << name;
  }
}

TEST(Convert, TransposeTwiceIsIdentityAndMatchesDense) {
  for (const auto& [name, a] : test::edge_case_matrices()) {
    if (a.rows * a.cols > 4'000'000) continue;
    const auto t = transpose(a);
    EXPECT_NO_THROW(t.validate()) << name;
    const auto d = test::to_dense(a), dt = test::to_dense(t);
    for (std::int64_t r = 0; r < a.rows; ++r)
      for (std::int64_t c = 0; c < a.cols; ++c) ASSERT_EQ(d[r * a.cols + c], dt[c * a.rows + r]) << name;
    const auto tt = transpose(t);
    EXPECT_EQ(tt.col_idx, a.col_idx) << name;
    EXPECT_EQ(tt.values, a.values) << name;
  }
}

TEST(Convert, TypeConversionChecksIndexOverflow) {
  Csr<double, std::int64_t> big;
  big.rows = std::int64_t{3} << 31;
  big.cols = 1;
  EXPECT_THROW((convert_types<double, std::int32_t>(big)), Error);
  const auto a = test::edge_case_matrices()[3].matrix;
  const auto f = convert_types<float, std::int32_t>(a);
  EXPECT_NO_THROW(f.validate());
  EXPECT_EQ(f.nnz(), a.nnz());
}


// best_bcsr_block samples a sixteenth of the rows on large matrices: its
// block must store within 0.5% of the fewest bytes of any block size (banded
// with bandwidth 6 stores nearly as many at b = 2 as at 3: either is right),
// and exactly the best where one block size is clearly best.
TEST(BcsrBlock, TheSampledChoiceStoresTheFewestBytes) {
  for (const char* spec : {"banded:bandwidth=6,n=600000", "stencil3d:points=27,n=80", "fem:block=2,n=64"}) {
    const auto a = io::load_matrix<double, std::int32_t>(spec);
    ASSERT_GE(a.nnz(), std::size_t{1} << 22) << spec << ": below the sampling threshold, the test would test nothing";
    int exact = 1;
    std::size_t least = bcsr_fill(a, 1).bytes;
    for (int b = 2; b <= 8; ++b) {
      const std::size_t bytes = bcsr_fill(a, b).bytes;
      if (bytes < least) { exact = b; least = bytes; }
    }
    const int sampled = best_bcsr_block(a);
    EXPECT_LE(static_cast<double>(bcsr_fill(a, sampled).bytes), 1.005 * static_cast<double>(least)) << spec << ": " << sampled;
    if (std::string(spec).rfind("banded", 0) != 0) EXPECT_EQ(sampled, exact) << spec;
  }
}

// bcsr_fill counts a block row's blocks by merging its rows' increasing
// columns; against a set of (block row, block column) pairs, for every block
// size 1..12 (above 8 it sorts), on the edge cases, a generated matrix, and
// a hand-made matrix whose rows are not increasing (the merge must notice
// and sort: no validate() guards a Csr built in code).
TEST(BcsrBlock, FillCountsEveryBlockOnceWhateverTheColumnOrder) {
  auto brute = [](const Csr<double, std::int32_t>& a, int b) {
    std::set<std::pair<long long, long long>> blocks;
    for (std::int32_t r = 0; r < a.rows; ++r) {
      for (std::int32_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) blocks.insert({r / b, a.col_idx[k] / b});
    }
    return static_cast<std::int64_t>(blocks.size());
  };
  std::vector<std::pair<std::string, Csr<double, std::int32_t>>> cases;
  for (const auto& [name, a] : test::edge_case_matrices()) cases.emplace_back(name, convert_types<double, std::int32_t>(a));
  cases.emplace_back("powerlaw", io::load_matrix<double, std::int32_t>("powerlaw:rows=3000"));
  auto shuffled = cases.back().second;
  std::mt19937 rng(7);
  for (std::int32_t r = 0; r < shuffled.rows; ++r) {
    std::shuffle(shuffled.col_idx.begin() + shuffled.row_ptr[r], shuffled.col_idx.begin() + shuffled.row_ptr[r + 1], rng);
  }
  cases.emplace_back("powerlaw with shuffled rows", shuffled);
  for (const auto& [name, a] : cases) {
    for (int b = 1; b <= 12; ++b) EXPECT_EQ(bcsr_fill(a, b).blocks, brute(a, b)) << name << ", block " << b;
  }
}

}  // namespace
}  // namespace hsparse
