// IEEE semantics of every CPU kernel of every format with NaN and infinity
// in x (issue 62, item 5): a padded slot (ELL, SELL, HYB, DIA, BCSR) adds
// nothing, an explicit zero gives 0 * NaN = NaN, as the serial CSR
// reference and scipy.sparse compute them, called directly
// (support/kernel_cases.hpp). Through plans, on every executor, the GPU's
// kernels included: SpmvKernel.KeepsNonFiniteXInTheRowsThatReferenceIt/*
// (tests/unit/test_spmv_kernels.cpp).
#include <gtest/gtest.h>

#include <complex>
#include <cstdio>
#include <limits>

#include "hsparse/formats/bcsr.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/formats/dia.hpp"
#include "hsparse/formats/padding.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "support/kernel_cases.hpp"
#include "support/nonfinite.hpp"

namespace hsparse {
namespace {

template <class V>
double tolerance() {
  return std::is_same_v<real_type_t<V>, float> ? 1e-4 : 1e-12;
}

template <class V, class I>
void check_nonfinite_x(const Csr<V, I>& a, const std::string& matrix) {
  const auto x = test::nonfinite_vector<V>(static_cast<std::size_t>(a.cols));
  std::vector<V> reference(static_cast<std::size_t>(a.rows));
  reference::csr_spmv(V(1), a, std::span<const V>(x), V(0), std::span<V>(reference));
  const auto cases = test::all_cpu_kernels(a);
  ASSERT_FALSE(cases.cases.empty());
  for (const auto& kc : cases.cases) {
    std::vector<V> y(reference.size(), V(std::numeric_limits<real_type_t<V>>::quiet_NaN()));
    kc.run(V(1), x, V(0), y);
    const std::string m = test::ieee_mismatch(reference, y, tolerance<V>());
    EXPECT_TRUE(m.empty()) << matrix << " " << kc.name << " (" << type_name<V>() << ", " << type_name<I>() << "): " << m;
  }
}

template <class V>
class PaddingIeee : public ::testing::Test {};
using ValueTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(PaddingIeee, ValueTypes);

TYPED_TEST(PaddingIeee, NonFiniteXStaysInTheRowsThatReferenceIt) {
  using V = TypeParam;
  for (const auto& [name, a64] : test::nonfinite_cases()) {
    check_nonfinite_x(convert_types<V, std::int32_t>(a64), name);
    check_nonfinite_x(convert_types<V, std::int64_t>(a64), name);
  }
}

// The real matrices: NaN and infinity in x of every shared matrix of up to
// 20,000 entries (the padded formats refuse many larger ones on fill, and
// the bigger ones add time, not cases), real ones in double, complex ones
// in complex<double>.
TEST(PaddingIeee, SharedMatricesKeepNonFiniteXInItsRows) {
  const auto dir = test::shared_matrix_dir();
  if (!dir) GTEST_SKIP() << "skipped: shared matrices folder not found (set HSPARSE_MATRICES)";
  int checked = 0;
  for (const auto& m : test::read_manifest(*dir)) {
    if (m.nnz > 20000) continue;
    const std::string path = *dir + "/" + m.name + ".mtx.gz";
    if (m.field == "complex") check_nonfinite_x(io::read_matrix_market_csr<std::complex<double>, std::int32_t>(path), m.name);
    else check_nonfinite_x(io::read_matrix_market_csr<double, std::int32_t>(path), m.name);
    ++checked;
  }
  EXPECT_GT(checked, 0) << "no shared matrix of up to 20,000 entries";
  std::printf("shared matrices with non-finite x: %d\n", checked);
}

// The issue's example, spelled out: DIA pads rows 0 and 1 on the diagonals
// that reach columns 2 and 3; the answer is scipy's [1, 4, 0].
TEST(PaddingIeee, TheIssueExampleGivesScipysAnswerInEveryFormat) {
  const auto a = convert_types<double, std::int32_t>(test::nonfinite_cases().front().matrix);
  const std::vector<double> x = {1, 2, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()};
  const auto cases = test::all_cpu_kernels(a);
  for (const char* format : {"dia/", "ell/", "sell/", "bcsr/", "hyb/"}) {
    bool found = false;
    for (const auto& kc : cases.cases) {
      if (kc.name.rfind(format, 0) != 0) continue;
      found = true;
      std::vector<double> y(3, -1.0);
      kc.run(1.0, x, 0.0, y);
      EXPECT_EQ(y, (std::vector<double>{1, 4, 0})) << kc.name;
    }
    EXPECT_TRUE(found) << format << " has no kernel for the 3 x 4 example";
  }
}

// The storage rule (formats/padding.hpp): a stored zero entry is -0, the
// padding +0, and the round trip keeps explicit zeros as entries.
TEST(PaddingIeee, ExplicitZerosSurviveTheRoundTripThroughDiaAndBcsr) {
  const auto a = convert_types<double, std::int32_t>(test::nonfinite_cases()[1].matrix);  // explicit zeros at (0, 3) and (2, 2)
  ASSERT_EQ(a.nnz(), 4u);
  const auto dia = dia_from_csr(a, 100.0);
  EXPECT_EQ(dia_to_csr(dia).nnz(), a.nnz());
  const auto bcsr = bcsr_from_csr(a, 2, false, 100.0);
  EXPECT_EQ(bcsr_to_csr(bcsr).nnz(), a.nnz());
  std::size_t entries = 0;
  for (double v : dia.values) entries += !is_padding(v);
  EXPECT_EQ(entries, a.nnz());
}

TEST(PaddingIeee, StoredEntryMarksZeroAndKeepsEveryOtherValue) {
  EXPECT_TRUE(is_padding(0.0));
  EXPECT_FALSE(is_padding(stored_entry(0.0)));
  EXPECT_TRUE(std::signbit(stored_entry(0.0)));
  EXPECT_FALSE(is_padding(stored_entry(0.0f)));
  EXPECT_FALSE(is_padding(stored_entry(std::complex<double>(0, 0))));
  EXPECT_FALSE(is_padding(stored_entry(std::complex<float>(0, 0))));
  EXPECT_EQ(stored_entry(std::complex<double>(0, 0)), std::complex<double>(0, 0));  // equal in value
  EXPECT_EQ(stored_entry(-2.5), -2.5);
  EXPECT_EQ(stored_entry(std::complex<float>(0, 3)), std::complex<float>(0, 3));
  EXPECT_TRUE(std::isnan(entry_product(stored_entry(0.0), std::numeric_limits<double>::infinity())));
  EXPECT_EQ(entry_product(0.0, std::numeric_limits<double>::quiet_NaN()), 0.0);
}

}  // namespace
}  // namespace hsparse
