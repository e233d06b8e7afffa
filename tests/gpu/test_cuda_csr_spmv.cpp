// GPU CSR kernels against the serial reference: every edge case and every
// shared matrix, float and double (complex<double> too), outputs poisoned
// with NaN before each run. Skipped with "skipped: no CUDA device" where
// there is none (CI).
#include <gtest/gtest.h>

#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/backends/cuda/csr_spmv.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "support/test_support.hpp"

namespace hsparse::cuda {
namespace {

#define REQUIRE_CUDA_DEVICE() \
  if (!device_available()) GTEST_SKIP() << "skipped: " << device_description()

template <class V, class I>
SpmvCheck run_scalar(const Csr<V, I>& a, V alpha, V beta) {
  const auto x = test::test_vector<V>(static_cast<std::size_t>(a.cols), 21);
  const auto y0 = test::test_vector<V>(static_cast<std::size_t>(a.rows), 22);
  const auto d_a = DeviceCsr<V, I>::upload(a);
  DeviceArray<V> d_x(x);
  DeviceArray<V> d_y(beta == V(0) ? std::vector<V>(y0.size(), V(std::numeric_limits<real_type_t<V>>::quiet_NaN())) : y0);
  csr_spmv_scalar<V, I>(alpha, d_a, d_x.data(), beta, d_y.data());
  const auto y = d_y.download();
  return check_spmv_result<V, I>(a, x, alpha, beta, y0, y);
}

template <class V>
class CudaCsrScalar : public ::testing::Test {};
using ValueTypes = ::testing::Types<float, double, std::complex<double>>;
TYPED_TEST_SUITE(CudaCsrScalar, ValueTypes);

TYPED_TEST(CudaCsrScalar, MatchesReferenceOnEdgeCases) {
  REQUIRE_CUDA_DEVICE();
  using V = TypeParam;
  for (const auto& [name, a64] : test::edge_case_matrices()) {
    for (const auto& [alpha, beta] : {std::pair{V(1), V(0)}, std::pair{V(-1.5), V(0.75)}}) {
      const auto c32 = run_scalar(convert_types<V, std::int32_t>(a64), alpha, beta);
      EXPECT_TRUE(c32.passed) << name << " int32: " << c32.message;
      const auto c64 = run_scalar(convert_types<V, std::int64_t>(a64), alpha, beta);
      EXPECT_TRUE(c64.passed) << name << " int64: " << c64.message;
    }
  }
}

TYPED_TEST(CudaCsrScalar, MatchesReferenceOnSharedMatrices) {
  REQUIRE_CUDA_DEVICE();
  using V = TypeParam;
  const auto dir = test::shared_matrix_dir();
  if (!dir) GTEST_SKIP() << "skipped: shared matrices folder not found (set HSPARSE_MATRICES)";
  for (const auto& m : test::read_manifest(*dir)) {
    if ((m.field == "complex") != is_complex_v<V>) continue;
    const auto a = io::read_matrix_market_csr<V, std::int32_t>(*dir + "/" + m.name + ".mtx.gz");
    const auto c = run_scalar(a, V(1), V(0));
    EXPECT_TRUE(c.passed) << m.name << ": " << c.message;
  }
}

TEST(CudaDevice, OutOfMemoryIsAnErrorNamingTheSize) {
  REQUIRE_CUDA_DEVICE();
  try {
    DeviceArray<double> huge(std::size_t{1} << 45);  // 256 TiB
    FAIL() << "allocation of 256 TiB succeeded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::out_of_memory);
    EXPECT_NE(std::string(e.what()).find("281474976710656 bytes"), std::string::npos) << e.what();
  }
  // The device still works afterwards.
  DeviceArray<double> small(std::vector<double>{1, 2, 3});
  EXPECT_EQ(small.download(), (std::vector<double>{1, 2, 3}));
}

}  // namespace
}  // namespace hsparse::cuda
