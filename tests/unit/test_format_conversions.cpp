// Format containers: documented layouts checked entry by entry, round trips
// CSR -> X -> CSR exact on every edge case and shared matrix, and refusals
// with clear messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "hsparse/core/error.hpp"
#include "hsparse/formats/bcsr.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/formats/dia.hpp"
#include "hsparse/formats/dia_tiles.hpp"
#include "hsparse/formats/ell.hpp"
#include "hsparse/formats/hyb.hpp"
#include "hsparse/formats/sell_c_sigma.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "support/test_support.hpp"

namespace hsparse {
namespace {

using M = Csr<double, std::int32_t>;

// [1 0 2 0]
// [0 0 0 0]
// [3 4 5 6]
M small() {
  M a;
  a.rows = 3;
  a.cols = 4;
  a.row_ptr = {0, 2, 2, 6};
  a.col_idx = {0, 2, 0, 1, 2, 3};
  a.values = {1, 2, 3, 4, 5, 6};
  return a;
}

void expect_same(const M& x, const M& y, const std::string& what) {
  EXPECT_EQ(x.rows, y.rows) << what;
  EXPECT_EQ(x.cols, y.cols) << what;
  EXPECT_EQ(x.row_ptr, y.row_ptr) << what;
  EXPECT_EQ(x.col_idx, y.col_idx) << what;
  EXPECT_EQ(x.values, y.values) << what;
}

TEST(EllFormat, ColumnMajorWithPaddingAtTheRowsLastColumn) {
  const auto e = ell_from_csr(small(), 4);
  EXPECT_EQ(e.width, 4);
  EXPECT_EQ(e.padded_rows, 4);
  // slot k * padded_rows + r
  EXPECT_EQ(e.col_idx, (std::vector<std::int32_t>{0, 0, 0, 0, 2, 0, 1, 0, 2, 0, 2, 0, 2, 0, 3, 0}));
  EXPECT_EQ(e.values, (std::vector<double>{1, 0, 3, 0, 2, 0, 4, 0, 0, 0, 5, 0, 0, 0, 6, 0}));
  EXPECT_EQ(e.row_len, (std::vector<std::int32_t>{2, 0, 4}));
  EXPECT_NO_THROW(e.validate());
}

TEST(EllFormat, OneLongRowIsRefusedNamingTheFill) {
  const auto a = generators::generate<double, std::int32_t>("powerlaw:rows=20000,long_rows=2,long_fraction=0.5");
  try {
    ell_from_csr(a);
    FAIL() << "ELL accepted a matrix with a 10,000-entry row";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("fill"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("use HYB or SELL-C-sigma"), std::string::npos) << e.what();
  }
}

TEST(HybFormat, SplitsAtTheWidth) {
  const auto h = hyb_from_csr(small(), std::optional<std::int32_t>(2));
  EXPECT_EQ(h.ell.width, 2);
  EXPECT_EQ(h.ell.nnz, 4u);
  EXPECT_EQ(h.coo.row_idx, (std::vector<std::int32_t>{2, 2}));
  EXPECT_EQ(h.coo.col_idx, (std::vector<std::int32_t>{2, 3}));
  EXPECT_EQ(h.nnz(), 6u);
  // The rule: under 4096 rows everything goes to COO.
  EXPECT_EQ(hyb_from_csr(small()).ell.width, 0);
}

TEST(DiaFormat, DiagonalsAsColumnsOfRows) {
  const auto d = dia_from_csr(small());
  EXPECT_EQ(d.offsets, (std::vector<std::int32_t>{-2, -1, 0, 1, 2}));
  // diagonal -2 holds A(2,0) = 3 in row 2
  EXPECT_EQ(d.values[0 * 3 + 2], 3);
  EXPECT_EQ(d.values[4 * 3 + 0], 2);  // offset +2, row 0: A(0,2)
  EXPECT_EQ(d.values[2 * 3 + 2], 5);  // main diagonal, row 2
  EXPECT_NO_THROW(d.validate());
}

// The GPU's DIA tiles (formats/dia_tiles.hpp): a tile's diagonals one after
// another, every slot where dia_tiled_slot says, the last tile padded with
// zeros; rows not a multiple of the tile included.
TEST(DiaFormat, TiledValuesPlaceEachTilesDiagonalsTogetherAndRoundTrip) {
  for (const char* spec : {"banded:bandwidth=3,n=70", "stencil3d:n=5,points=27", "banded:bandwidth=1,n=1"}) {
    const auto a = generators::generate<double, std::int32_t>(spec);
    const auto d = dia_from_csr(a);
    const long long rows = d.rows, diagonals = static_cast<long long>(d.offsets.size());
    const auto tiled = dia_tiled_values(d);
    ASSERT_EQ(tiled.size(), static_cast<std::size_t>(dia_tiled_rows(rows) * diagonals)) << spec;
    ASSERT_EQ(dia_tiled_rows(rows) % kDiaTileRows, 0) << spec;
    for (long long d_ = 0; d_ < diagonals; ++d_) {
      for (long long r = 0; r < rows; ++r) {
        // Row r of tile t, diagonal d: after the t earlier tiles' slots and the tile's d earlier diagonals.
        const long long expected = (r / kDiaTileRows) * diagonals * kDiaTileRows + d_ * kDiaTileRows + r % kDiaTileRows;
        ASSERT_EQ(dia_tiled_slot(r, d_, diagonals), expected) << spec;
        ASSERT_EQ(tiled[static_cast<std::size_t>(expected)], d.values[static_cast<std::size_t>(d_ * rows + r)]) << spec;
      }
      for (long long r = rows; r < dia_tiled_rows(rows); ++r) EXPECT_EQ(tiled[static_cast<std::size_t>(dia_tiled_slot(r, d_, diagonals))], 0.0) << spec;
    }
  }
  EXPECT_TRUE(dia_tiled_values(Dia<double, std::int32_t>{}).empty());
  auto short_of_values = dia_from_csr(generators::generate<double, std::int32_t>("banded:bandwidth=1,n=40"));
  short_of_values.values.pop_back();
  try {
    dia_tiled_values(short_of_values);
    FAIL() << "tiled a DIA whose values do not fill its diagonals";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_matrix);
    EXPECT_NE(std::string(e.what()).find("119 values for 3 diagonals of 40 rows"), std::string::npos) << e.what();
  }
}

TEST(DiaFormat, ScatteredMatrixIsRefusedNamingTheFill) {
  const auto a = generators::generate<double, std::int32_t>("random:rows=20000,per_row=5");
  try {
    dia_from_csr(a);
    FAIL() << "DIA accepted a random matrix";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    const std::string what = e.what();
    EXPECT_NE(what.find("DIA refused"), std::string::npos) << what;
    EXPECT_NE(what.find("diagonals"), std::string::npos) << what;
    EXPECT_NE(what.find("fill"), std::string::npos) << what;
  }
}

TEST(BcsrFormat, BlocksAreColumnMajorAndEdgesPadded) {
  const auto b = bcsr_from_csr(small(), 2);
  EXPECT_EQ(b.block_rows, 2);
  EXPECT_EQ(b.block_cols, 2);
  EXPECT_EQ(b.row_ptr, (std::vector<std::int32_t>{0, 2, 4}));
  EXPECT_EQ(b.col_idx, (std::vector<std::int32_t>{0, 1, 0, 1}));
  // Block (0,0) = [1 0; 0 0] column-major: 1 0 0 0. Block (0,1) = [2 0; 0 0].
  EXPECT_EQ(std::vector<double>(b.values.begin(), b.values.begin() + 8), (std::vector<double>{1, 0, 0, 0, 2, 0, 0, 0}));
  // Block (1,0) = rows 2..3 (row 3 is padding), cols 0..1: [3 4; 0 0] -> 3 0 4 0
  EXPECT_EQ(std::vector<double>(b.values.begin() + 8, b.values.begin() + 12), (std::vector<double>{3, 0, 4, 0}));
  EXPECT_EQ(b.zero_fill(), 16u - 6u);
  const auto aligned = bcsr_from_csr(small(), 3, true);
  EXPECT_EQ(aligned.block_stride, 16u);  // 9 doubles rounded up to 128 bytes
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(aligned.values.data()) % 64, 0u);
  EXPECT_THROW(bcsr_from_csr(small(), 33), Error);
  try {
    bcsr_from_csr(generators::generate<double, std::int32_t>("random:rows=20000,per_row=5"), 16);
    FAIL() << "BCSR 16x16 accepted a random matrix";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("BCSR refused"), std::string::npos) << e.what();
  }
}

// SELL's row order (sell_row_order): within each window of sigma rows,
// longest first, equal lengths in their order; the conversion sorts by it.
// 70000 rows: sorting them all takes the counting path of wide windows.
TEST(SellFormat, RowOrderSortsEachWindowStablyLongestFirst) {
  const auto a = generators::power_law<double, std::int32_t>(generators::PowerLawOptions{70000, 2.0});
  for (std::int64_t sigma : {std::int64_t{1}, std::int64_t{8}, std::int64_t{256}, std::int64_t{70000}}) {
    const std::vector<std::int32_t> order = sell_row_order(a, sigma);
    std::vector<std::int32_t> expected(order.size());
    std::iota(expected.begin(), expected.end(), 0);
    for (std::int64_t w = 0; sigma > 1 && w < a.rows; w += sigma) {
      std::stable_sort(expected.begin() + w, expected.begin() + std::min<std::int64_t>(a.rows, w + sigma),
                       [&](std::int32_t x, std::int32_t y) { return a.row_length(x) > a.row_length(y); });
    }
    EXPECT_EQ(order, expected) << "sigma " << sigma;
    if (sigma >= 8) EXPECT_EQ(sell_from_csr(a, SellOptions{8, sigma}).perm, order) << "sigma " << sigma;
  }
}

TEST(SellFormat, SortedWithinSigmaAndPaddedWithTheRowsLastColumn) {
  // Row lengths 2, 0, 4; C = 2, sigma = 4 (whole matrix): order 2, 0, 1.
  const auto s = sell_from_csr(small(), SellOptions{2, 4, false});
  EXPECT_EQ(s.perm, (std::vector<std::int32_t>{2, 0, 1}));
  EXPECT_EQ(s.chunk_len, (std::vector<std::int32_t>{4, 0}));
  EXPECT_EQ(s.chunk_ptr, (std::vector<std::int32_t>{0, 8, 8}));
  // chunk 0: rows (2, 0) interleaved: cols 0 0 | 1 2 | 2 2(pad) | 3 2(pad)
  EXPECT_EQ(std::vector<std::int32_t>(s.col_idx.begin(), s.col_idx.end()), (std::vector<std::int32_t>{0, 0, 1, 2, 2, 2, 3, 2}));
  EXPECT_EQ(std::vector<double>(s.values.begin(), s.values.end()), (std::vector<double>{3, 1, 4, 2, 5, 0, 6, 0}));
  EXPECT_DOUBLE_EQ(s.beta(), 6.0 / 8.0);
  // sigma larger than the row count sorts globally; sigma = 1 keeps the order.
  EXPECT_EQ(sell_from_csr(small(), SellOptions{2, 1000, false}).perm, s.perm);
  EXPECT_EQ(sell_from_csr(small(), SellOptions{2, 1, false}).perm, (std::vector<std::int32_t>{0, 1, 2}));
  EXPECT_THROW(sell_from_csr(small(), SellOptions{2, 4, true}), Error);  // P A P^T needs a square matrix
}

TEST(FormatRoundTrips, CsrToEveryFormatAndBackIsExact) {
  auto check = [](const M& a, const std::string& name) {
    expect_same(ell_to_csr(ell_from_csr(a, 8, 1e9)), a, name + " ell");
    expect_same(hyb_to_csr(hyb_from_csr(a)), a, name + " hyb");
    expect_same(hyb_to_csr(hyb_from_csr(a, std::optional<std::int32_t>(1))), a, name + " hyb width 1");
    expect_same(dia_to_csr(dia_from_csr(a, 1e9)), a, name + " dia");  // explicit zeros stay entries (formats/padding.hpp)
    for (int b : {1, 2, 3, 7, 32}) {
      if (b == 32 && a.nnz() > 5000) continue;  // 1024-entry blocks: small matrices only
      expect_same(bcsr_to_csr(bcsr_from_csr(a, b, b == 3, 1e9)), a, name + " bcsr " + std::to_string(b));
    }
    for (int c : {1, 4, 32}) {
      for (long long sigma : {1LL, 128LL, 1LL << 40}) {
        expect_same(sell_to_csr(sell_from_csr(a, SellOptions{c, sigma, false})), a, name + " sell");
        if (a.rows == a.cols) expect_same(sell_to_csr(sell_from_csr(a, SellOptions{c, sigma, true})), a, name + " sell permuted");
      }
    }
    expect_same(coo_to_csr(csr_to_coo(a)), a, name + " coo");
  };
  for (const auto& [name, a64] : test::edge_case_matrices()) {
    if (name == "dense_small" || a64.rows * a64.cols < 10'000'000) check(convert_types<double, std::int32_t>(a64), name);
  }
  const auto dir = test::shared_matrix_dir();
  if (!dir) GTEST_SKIP() << "skipped: shared matrices folder not found (set HSPARSE_MATRICES)";
  for (const auto& m : test::read_manifest(*dir)) {
    if (m.field == "complex" || m.rows > 20000) continue;  // DIA with fill unlimited: keep it small
    check(io::read_matrix_market_csr<double, std::int32_t>(*dir + "/" + m.name + ".mtx.gz"), m.name);
  }
}

// A valid COO of one entry can name 10^15 rows: the CSR's row offsets would
// need 8 PB, so the conversion says so before allocating (it hung in
// allocation before; found by the Python tests).
TEST(CooToCsr, RowOffsetsThatCannotFitAreAnErrorBeforeAllocating) {
  Coo<double, std::int64_t> coo;
  coo.rows = 1'000'000'000'000'000;
  coo.cols = 2;
  coo.row_idx = {0};
  coo.col_idx = {1};
  coo.values = {1.0};
  try {
    (void)coo_to_csr(coo);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::out_of_memory);
    EXPECT_NE(std::string(e.what()).find("1000000000000000 rows"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hsparse
