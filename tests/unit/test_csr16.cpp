// CSR16 (formats/csr16.hpp, issue 18): lossless, below CSR's bytes where
// rows are narrow, the escape to plain CSR for rows spanning 2^16 columns or
// more, and its rules enforced. Its products against the reference run with
// every other format's in the kernel tests (tests/support/kernel_cases.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <type_traits>
#include <cstdint>
#include <string>
#include <vector>

#include "hsparse/core/error.hpp"
#include "hsparse/formats/csr16.hpp"
#include "hsparse/formats/footprint.hpp"
#include "hsparse/formats/format.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/kernels/format_spmv.hpp"
#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/tuning/advisor.hpp"
#include "support/test_support.hpp"

namespace hsparse {
namespace {

// Rows of span 65535 (narrow: the largest offset), 65536 (wide), an empty
// row, and a one-entry row at the last column.
Csr<double, std::int32_t> mixed_spans() {
  Csr<double, std::int32_t> a;
  a.rows = 4;
  a.cols = 200000;
  a.row_ptr = {0, 2, 4, 4, 5};
  a.col_idx = {100, 100 + 65535, 5, 5 + 65536, 199999};
  a.values = {1.5, -2.0, 3.0, 0.0, 4.25};  // an explicit zero kept
  return a;
}

TEST(Csr16, RoundTripWithNarrowAndWideRows) {
  const auto a = mixed_spans();
  const auto c = csr16_from_csr(a);
  c.validate();
  ASSERT_TRUE(c.has_wide());
  EXPECT_EQ(c.values.size(), 3u) << "rows 0 and 3 narrow";
  EXPECT_EQ(c.wide.nnz(), 2u) << "row 1 wide";
  EXPECT_EQ(c.base[0], 100);
  EXPECT_EQ(c.offset[1], 65535);
  const auto back = csr16_to_csr(c);
  EXPECT_EQ(back.row_ptr, a.row_ptr);
  EXPECT_EQ(back.col_idx, a.col_idx);
  EXPECT_EQ(back.values, a.values);
  // The product, both kernels, against CSR's reference (NaN-poisoned y, beta 0; and beta -0.5).
  const auto x = test::test_vector<double>(static_cast<std::size_t>(a.cols), 3);
  for (const double beta : {0.0, -0.5}) {
    std::vector<double> expect(4, beta == 0 ? 0.0 : 1.0), got_ref(4, beta == 0 ? std::nan("") : 1.0), got_omp = got_ref;
    reference::csr_spmv<double, std::int32_t>(2.0, a, x, beta, expect);
    reference::csr16_spmv<double, double, std::int32_t>(2.0, c, x, beta, got_ref);
    openmp::csr16_spmv<double, double, std::int32_t>(2.0, c, x, beta, got_omp);
    for (std::size_t r = 0; r < 4; ++r) {
      EXPECT_DOUBLE_EQ(got_ref[r], expect[r]) << "row " << r;
      EXPECT_DOUBLE_EQ(got_omp[r], expect[r]) << "row " << r;
    }
  }
}

// Below CSR's 12 bytes per nonzero (int32 + double) on a 27-point stencil,
// no wide rows there, and the registry's byte model equal to the conversion's.
TEST(Csr16, FewerBytesThanCsrOnAStencil) {
  const auto a = generators::stencil_3d<double, std::int32_t>(30, 30, 30, 27);
  const auto c = csr16_from_csr(a);
  EXPECT_FALSE(c.has_wide());
  c.validate();
  // Without wide rows the conversion takes the matrix's own arrays (no split): the round trip is exact.
  const auto back = csr16_to_csr(c);
  EXPECT_EQ(back.row_ptr, a.row_ptr);
  EXPECT_EQ(back.col_idx, a.col_idx);
  EXPECT_EQ(back.values, a.values);
  const double per_nonzero = static_cast<double>(c.bytes()) / static_cast<double>(a.nnz());
  EXPECT_LT(per_nonzero, 11.0) << "10 bytes per entry + 8 per row over 25 entries a row";
  EXPECT_LT(c.bytes(), a.bytes());
  const auto f = format_footprint(a);
  EXPECT_EQ(format_traits(Format::csr16).bytes(f, sizeof(double), sizeof(std::int32_t)), c.bytes());
  const auto wide = csr16_from_csr(mixed_spans());
  EXPECT_EQ(format_traits(Format::csr16).bytes(format_footprint(mixed_spans()), sizeof(double), sizeof(std::int32_t)), wide.bytes());
}

TEST(Csr16, ComplexValuesAndInt64Indices) {
  Csr<std::complex<double>, std::int64_t> a;
  a.rows = 2;
  a.cols = 70000;
  a.row_ptr = {0, 2, 3};
  a.col_idx = {0, 69999, 3};
  a.values = {{1, 2}, {3, -1}, {0.5, 0.5}};
  const auto c = csr16_from_csr(a);
  EXPECT_TRUE(c.has_wide());
  const auto back = csr16_to_csr(c);
  EXPECT_EQ(back.col_idx, a.col_idx);
  EXPECT_EQ(back.values, a.values);
}

TEST(Csr16, ValidateNamesTheBrokenRule) {
  auto c = csr16_from_csr(generators::stencil_2d<double, std::int32_t>(8, 8, 5));
  c.offset[2] = c.offset[1];  // not increasing
  try {
    c.validate();
    ADD_FAILURE() << "an unsorted row passed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("CSR16: offsets not increasing in row 0"), std::string::npos) << e.what();
  }
  auto d = csr16_from_csr(generators::stencil_2d<double, std::int32_t>(8, 8, 5));
  d.base.back() = d.cols;  // past the last column
  EXPECT_THROW(d.validate(), Error);
}

}  // namespace
}  // namespace hsparse

namespace hsparse {
namespace {

// csr16-single: values rounded to single precision, products in double. The
// result is within the rounding bound of the double reference (and not
// within the exact bound: the rounding is real), its bytes are 6 per entry,
// and values beyond single precision's range are refused by name.
TEST(Csr16Single, RoundedValuesWithinTheirBound) {
  const auto a = generators::banded<double, std::int32_t>(20000, 6, 3);  // pseudo-random values: not exact in float
  const auto c = csr16_single_from_csr(a);
  static_assert(std::is_same_v<decltype(c.values)::value_type, float>);
  EXPECT_LT(static_cast<double>(c.bytes()) / static_cast<double>(a.nnz()), 7.0);
  EXPECT_EQ(format_traits(Format::csr16_single).bytes(format_footprint(a), sizeof(double), sizeof(std::int32_t)), c.bytes());
  const auto x = test::test_vector<double>(static_cast<std::size_t>(a.cols), 7);
  std::vector<double> y(static_cast<std::size_t>(a.rows), std::nan(""));
  openmp::csr16_spmv<double, float, std::int32_t>(1.0, c, x, 0.0, y);
  const double rounding = format_traits(Format::csr16_single).value_rounding;
  const auto within = check_spmv_result<double, std::int32_t>(a, x, 1.0, 0.0, {}, y, rounding);
  EXPECT_TRUE(within.passed) << within.message;
  EXPECT_GT(within.relative_error, 1e-12) << "single-precision values cannot give a double-exact product";
  EXPECT_LT(within.relative_error, 1e-6);
  Csr<double, std::int32_t> huge = a;
  huge.values[17] = 1e300;
  try {
    csr16_single_from_csr(huge);
    ADD_FAILURE() << "1e300 stored as a float";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::overflow);
    EXPECT_NE(std::string(e.what()).find("entry 17"), std::string::npos) << e.what();
  }
}

// The advisor never picks a lossy format unless the caller allows its rounding.
TEST(Csr16Single, AdvisorTakesItOnlyWithATolerance) {
  const auto a = generators::stencil_3d<double, std::int32_t>(30, 30, 30, 27);
  MachineModel gpu;
  gpu.cache_bytes = 256 * 1024;
  for (const auto& p : advise(a, gpu, 100000).ranked) {
    if (p.format == Format::csr16_single) {
      EXPECT_FALSE(p.possible);
      EXPECT_NE(p.why.find("rounded"), std::string::npos) << p.why;
    }
  }
  bool ranked = false;
  for (const auto& p : advise(a, gpu, 100000, 1e-6).ranked) {
    if (p.format == Format::csr16_single) ranked = p.possible;
  }
  EXPECT_TRUE(ranked) << "with 1e-6 allowed, csr16-single is a candidate";
}

}  // namespace
}  // namespace hsparse
