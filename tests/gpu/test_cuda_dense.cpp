// GPU GEMM: every kernel (untiled, tiled, each compiled register-blocked
// tile, cuBLAS) against the CPU reference on edge shapes (1 x n, n x 1,
// k = 1, sizes that are not multiples of any tile), every transpose pair,
// beta = 0 with NaN in C, padded leading dimensions; float and double, and
// complex for the kernels that take it. One test per kernel, named after it.
#include <gtest/gtest.h>

#include <complex>
#include <limits>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/dense/gemm.hpp"
#include "support/test_support.hpp"

namespace hsparse::cuda {
namespace {

struct GemmVariant {
  std::string name;
  GemmOptions options;
};
void PrintTo(const GemmVariant& v, std::ostream* os) { *os << v.name; }

std::vector<GemmVariant> gemm_variants() {
  std::vector<GemmVariant> v = {{"untiled", {"untiled", {}}}, {"tiled", {"tiled", {}}}, {"cublas", {"cublas", {}}}};
  for (const auto& t : gemm_tiles()) {
    std::string name = "register_" + t.name();
    for (char& ch : name) ch = (ch == 'x' || ch == '/') ? '_' : ch;
    v.push_back({name, {"register", t}});
  }
  return v;
}

template <class T>
void check_gemm(const GemmOptions& options, long long m, long long n, long long k, Op ta, Op tb, T alpha, T beta, long long pad) {
  const ExecutorPtr gpu = make_executor(Backend::cuda);
  const long long ar = ta == Op::none ? m : k, ac = ta == Op::none ? k : m;
  const long long br = tb == Op::none ? k : n, bc = tb == Op::none ? n : k;
  const long long lda = std::max(1LL, ar) + pad, ldb = std::max(1LL, br) + pad, ldc = std::max(1LL, m) + pad;
  const auto ah = test::test_vector<T>(static_cast<std::size_t>(lda * ac), 1), bh = test::test_vector<T>(static_cast<std::size_t>(ldb * bc), 2);
  const T nan(std::numeric_limits<real_type_t<T>>::quiet_NaN());
  const auto c0 = beta == T(0) ? std::vector<T>(static_cast<std::size_t>(ldc * n), nan) : test::test_vector<T>(static_cast<std::size_t>(ldc * n), 3);
  std::vector<T> expect = c0;
  reference::gemm<T>(ta, tb, alpha, {ah.data(), ar, ac, lda}, {bh.data(), br, bc, ldb}, beta, {expect.data(), m, n, ldc});
  const DenseMatrix<T> a(gpu, ar, ac, std::span<const T>(ah), lda), b(gpu, br, bc, std::span<const T>(bh), ldb);
  DenseMatrix<T> c(gpu, m, n, std::span<const T>(c0), ldc);
  gemm<T>(ta, tb, alpha, a, b, beta, c, options);
  const auto got = c.to_host();  // rows x cols, ld = rows
  const double tol = (std::is_same_v<real_type_t<T>, float> ? 3e-5 : 1e-12) * std::max(1.0, static_cast<double>(k));
  for (long long j = 0; j < n; ++j) {
    for (long long i = 0; i < m; ++i) {
      const auto e = std::complex<double>(expect[static_cast<std::size_t>(i + j * ldc)]);
      const auto g = std::complex<double>(got[static_cast<std::size_t>(i + j * m)]);
      ASSERT_LE(std::abs(g - e), tol * std::max(1.0, std::abs(e)))
          << options.algorithm << " " << m << "x" << n << "x" << k << " " << to_string(ta) << to_string(tb) << " at (" << i << ", " << j << ")";
    }
  }
}

class CudaGemm : public ::testing::TestWithParam<GemmVariant> {};

template <class T>
void check_variant(const GemmOptions& o) {
  const std::vector<std::array<long long, 3>> shapes = {{1, 1, 1}, {1, 67, 5}, {67, 1, 5}, {33, 17, 1}, {0, 5, 3}, {5, 3, 0},
                                                        {64, 64, 16}, {65, 129, 17}, {200, 130, 70}, {257, 3, 300}};
  for (const auto& [m, n, k] : shapes) {
    for (Op ta : {Op::none, Op::transpose}) {
      for (Op tb : {Op::none, Op::transpose}) {
        check_gemm<T>(o, m, n, k, ta, tb, T(1), T(0), 0);
        check_gemm<T>(o, m, n, k, ta, tb, T(-0.5), T(2), 3);
      }
    }
  }
}

TEST_P(CudaGemm, MatchesTheReference) {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  check_variant<double>(GetParam().options);
  check_variant<float>(GetParam().options);
  if (GetParam().options.algorithm != "cublas") {  // complex: the untiled and tiled kernels (register falls back to tiled)
    check_variant<std::complex<double>>(GetParam().options);
  }
}

INSTANTIATE_TEST_SUITE_P(Every, CudaGemm, ::testing::ValuesIn(gemm_variants()),
                         [](const ::testing::TestParamInfo<GemmVariant>& i) { return i.param.name; });

TEST(CudaGemmErrors, ClearErrors) {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  const ExecutorPtr gpu = make_executor(Backend::cuda), cpu = make_executor(Backend::cpu);
  DenseMatrix<double> a(gpu, 4, 3), b(gpu, 3, 2), c(gpu, 4, 2), host_b(cpu, 3, 2), wrong(gpu, 3, 3);
  EXPECT_THROW(gemm<double>(Op::none, Op::none, 1.0, a, host_b, 0.0, c), Error);
  EXPECT_THROW(gemm<double>(Op::none, Op::none, 1.0, a, wrong, 0.0, c), Error);
  EXPECT_THROW(gemm<double>(Op::none, Op::none, 1.0, a, b, 0.0, c, {"blocked", {}}), Error);  // a CPU algorithm
  EXPECT_THROW(gemm<double>(Op::none, Op::none, 1.0, a, b, 0.0, c, {"register", {32, 32, 8, 2, 2}}), Error);  // not compiled
  gemm<double>(Op::none, Op::none, 1.0, a, b, 0.0, c);
}

}  // namespace
}  // namespace hsparse::cuda
