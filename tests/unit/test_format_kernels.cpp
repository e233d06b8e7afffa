// Every format x kernel x value type against the serial double-precision
// CSR reference, on the generated edge cases and on every shared matrix,
// with NaN-poisoned outputs and alpha/beta both trivial and not.
#include <gtest/gtest.h>

#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "support/kernel_cases.hpp"
#include "support/test_support.hpp"

namespace hsparse {
namespace {

template <class V, class I>
void check_all_kernels(const Csr<V, I>& a, const std::string& matrix_name, bool with_beta) {
  const auto cases = test::all_cpu_kernels(a);
  const auto x = test::test_vector<V>(static_cast<std::size_t>(a.cols), 31);
  const auto y0 = test::test_vector<V>(static_cast<std::size_t>(a.rows), 32);
  std::vector<std::pair<V, V>> scalars = {{V(1), V(0)}};
  if (with_beta) scalars.push_back({V(-0.75), V(1.5)});
  for (const auto& kc : cases.cases) {
    for (const auto& [alpha, beta] : scalars) {
      std::vector<V> y = beta == V(0) ? std::vector<V>(y0.size(), V(std::numeric_limits<real_type_t<V>>::quiet_NaN())) : y0;
      kc.run(alpha, x, beta, y);
      const auto check = check_spmv_result<V, I>(a, x, alpha, beta, y0, y);
      EXPECT_TRUE(check.passed) << matrix_name << " " << kc.name << " (" << type_name<V>() << ", " << type_name<I>()
                                << ", beta " << (beta == V(0) ? "0" : "1.5") << "): " << check.message;
    }
  }
}

template <class V>
class FormatKernels : public ::testing::Test {};
using ValueTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(FormatKernels, ValueTypes);

TYPED_TEST(FormatKernels, EdgeCasesMatchTheReference) {
  using V = TypeParam;
  for (const auto& [name, a64] : test::edge_case_matrices()) {
    check_all_kernels(convert_types<V, std::int32_t>(a64), name, true);
    check_all_kernels(convert_types<V, std::int64_t>(a64), name, true);
  }
}

TEST(FormatKernels, EveryFormatRunsOnRegularMatrices) {
  // Nothing may be refused on a stencil, and the case list is complete.
  const auto cases = test::all_cpu_kernels(test::edge_case_matrices()[9].matrix);
  EXPECT_TRUE(cases.refused.empty()) << cases.refused.front();
  for (const char* format : {"csr/", "coo/", "ell/", "hyb/", "dia/", "bcsr/", "sell/"}) {
    bool found = false;
    for (const auto& c : cases.cases) found = found || c.name.rfind(format, 0) == 0;
    EXPECT_TRUE(found) << format;
  }
}

TEST(FormatKernels, AllSharedMatricesMatchTheReference) {
  const auto dir = test::shared_matrix_dir();
  if (!dir) GTEST_SKIP() << "skipped: shared matrices folder not found (set HSPARSE_MATRICES)";
  std::size_t refused = 0, runs = 0;
  for (const auto& m : test::read_manifest(*dir)) {
    const std::string path = *dir + "/" + m.name + ".mtx.gz";
    if (m.field == "complex") {
      const auto a = io::read_matrix_market_csr<std::complex<double>, std::int32_t>(path);
      check_all_kernels(a, m.name, false);
      continue;
    }
    const auto a = io::read_matrix_market_csr<double, std::int32_t>(path);
    const auto cases = test::all_cpu_kernels(a);
    refused += cases.refused.size();
    runs += cases.cases.size();
    check_all_kernels(a, m.name, m.nnz < 20000);
    check_all_kernels(convert_types<float, std::int32_t>(a), m.name, false);
  }
  std::printf("shared matrices: %zu kernel runs per precision, %zu format refusals (DIA/ELL/BCSR fill limits)\n", runs, refused);
}

}  // namespace
}  // namespace hsparse
