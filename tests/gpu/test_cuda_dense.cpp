// GPU GEMM: every kernel (untiled, tiled, each compiled register-blocked
// tile, cuBLAS) against the CPU reference on edge shapes (1 x n, n x 1,
// k = 1, sizes that are not multiples of any tile), every transpose pair,
// beta = 0 with NaN in C, padded leading dimensions; float and double, and
// complex for the kernels that take it. One test per kernel, named after it.
#include <gtest/gtest.h>

#include <complex>
#include <limits>

#include "hsparse/backends/cuda/dense_ops.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/executor.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/dense/gemm.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/kernels/csr_spmm.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "support/spmm_check.hpp"
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
  const auto add = [&](const std::string& algorithm, const GemmTile& t) {
    std::string name = algorithm + "_" + t.name();
    for (char& ch : name) ch = (ch == 'x' || ch == '/') ? '_' : ch;
    v.push_back({name, {algorithm, t}});
  };
  for (const auto& t : gemm_tiles()) add("register", t);
  for (const auto& t : gemm_tensor_tiles()) add("tensor", t);
  for (const auto& t : gemm_tensor_tiles()) add("tf32", t);
  v.push_back({"cublas_tf32", {"cublas-tf32", {}}});
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
  // TF32 rounds each input to 10 mantissa bits (u = 2^-11): the products
  // err by up to 2u |a||b|; the bound per entry uses |alpha| |op(A)| |op(B)|.
  const bool tf32 = options.algorithm == "tf32" || options.algorithm == "cublas-tf32";
  std::vector<T> magnitude(static_cast<std::size_t>(ldc * n), T(0));
  if (tf32) {
    auto abs_of = [](std::vector<T> x) {
      for (auto& e : x) e = T(std::abs(e));
      return x;
    };
    const auto aa = abs_of(ah), ba = abs_of(bh);
    reference::gemm<T>(ta, tb, T(std::abs(alpha)), {aa.data(), ar, ac, lda}, {ba.data(), br, bc, ldb}, T(0), {magnitude.data(), m, n, ldc});
  }
  for (long long j = 0; j < n; ++j) {
    for (long long i = 0; i < m; ++i) {
      const auto e = std::complex<double>(expect[static_cast<std::size_t>(i + j * ldc)]);
      const auto g = std::complex<double>(got[static_cast<std::size_t>(i + j * m)]);
      const double input_rounding = tf32 ? 2 * std::ldexp(1.0, -11) * std::abs(std::complex<double>(magnitude[static_cast<std::size_t>(i + j * ldc)])) : 0.0;
      ASSERT_LE(std::abs(g - e), tol * std::max(1.0, std::abs(e)) + input_rounding)
          << options.algorithm << " " << m << "x" << n << "x" << k << " " << to_string(ta) << to_string(tb) << " at (" << i << ", " << j << ")";
    }
  }
}

class CudaGemm : public ::testing::TestWithParam<GemmVariant> {};

// 260 x 132 x 68: whole 128 x 128 tiles beside partial ones, a partial last
// depth panel, and (pad 0) leading dimensions in whole 16-byte runs: the
// register-blocked kernel's 16-byte panel copies, in every transpose case.
template <class T>
void check_variant(const GemmOptions& o) {
  const std::vector<std::array<long long, 3>> shapes = {{1, 1, 1}, {1, 67, 5}, {67, 1, 5}, {33, 17, 1}, {0, 5, 3}, {5, 3, 0},
                                                        {64, 64, 16}, {65, 129, 17}, {200, 130, 70}, {257, 3, 300}, {260, 132, 68}};
  for (const auto& [m, n, k] : shapes) {
    for (Op ta : {Op::none, Op::transpose}) {
      for (Op tb : {Op::none, Op::transpose}) {
        check_gemm<T>(o, m, n, k, ta, tb, T(1), T(0), 0);
        check_gemm<T>(o, m, n, k, ta, tb, T(-0.5), T(2), 3);
      }
    }
  }
}

// tensor is double only, tf32 and cublas-tf32 float only: the other type
// must be refused (never silently run at another precision).
TEST_P(CudaGemm, MatchesTheReference) {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  const GemmOptions& o = GetParam().options;
  const bool double_only = o.algorithm == "tensor", float_only = o.algorithm == "tf32" || o.algorithm == "cublas-tf32";
  if (!float_only) check_variant<double>(o);
  if (!double_only) check_variant<float>(o);
  if (o.algorithm == "untiled" || o.algorithm == "tiled" || o.algorithm == "register") {  // complex (register falls back to tiled)
    check_variant<std::complex<double>>(o);
  }
  if (double_only || float_only) {
    const ExecutorPtr gpu = make_executor(Backend::cuda);
    DenseMatrix<float> af(gpu, 4, 3), bf(gpu, 3, 2), cf(gpu, 4, 2);
    DenseMatrix<double> ad(gpu, 4, 3), bd(gpu, 3, 2), cd(gpu, 4, 2);
    if (double_only) EXPECT_THROW(gemm<float>(Op::none, Op::none, 1.0f, af, bf, 0.0f, cf, o), Error);
    if (float_only) EXPECT_THROW(gemm<double>(Op::none, Op::none, 1.0, ad, bd, 0.0, cd, o), Error);
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

// Tall-skinny products on the device against the CPU reference: k, l from
// 1 to 33 (33: two launches; every narrow width 1, 2, 4, 8 and a tensor-core
// / float tile shape of each size; 17 x 19 and 32 x 32 the float 4 x 4
// micro-tiles), n up to 300,001 (many blocks, the last block's ordered sum,
// and a tail of rows in every kernel), beta = 0 with NaN in S and Y.
template <class T>
void check_tall_skinny_gpu(long long n, long long k, long long l) {
  const ExecutorPtr gpu = make_executor(Backend::cuda);
  const auto vh = test::test_vector<T>(static_cast<std::size_t>(n * k), 4), wh = test::test_vector<T>(static_cast<std::size_t>(n * l), 5);
  const auto sh = test::test_vector<T>(static_cast<std::size_t>(k * l), 6);
  const DenseMatrix<T> v(gpu, n, k, std::span<const T>(vh)), w(gpu, n, l, std::span<const T>(wh)), s_in(gpu, k, l, std::span<const T>(sh));
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const double tol = (std::is_same_v<T, float> ? 1e-5 : 1e-12) * std::sqrt(static_cast<double>(std::max(1LL, n)));
  for (const T beta : {T(0), T(0.5)}) {
    std::vector<T> expect = beta == T(0) ? std::vector<T>(static_cast<std::size_t>(k * l), nan) : sh;
    DenseMatrix<T> s(gpu, k, l, std::span<const T>(expect));
    reference::gemm<T>(Op::transpose, Op::none, T(2), {vh.data(), n, k, std::max(1LL, n)}, {wh.data(), n, l, std::max(1LL, n)}, beta,
                       {expect.data(), k, l, std::max(1LL, k)});
    for (int repeat = 0; repeat < 2; ++repeat) {  // the completion counter must be reset for the next launch
      DenseMatrix<T> s2(gpu, k, l, std::span<const T>(beta == T(0) ? std::vector<T>(static_cast<std::size_t>(k * l), nan) : sh));
      tall_skinny_dot<T>(T(2), v, w, beta, s2);
      const auto got = s2.to_host();
      for (std::size_t i = 0; i < got.size(); ++i) {
        ASSERT_LE(std::abs(got[i] - expect[i]), tol * std::max(1.0, std::abs(static_cast<double>(expect[i]))))
            << "V^T W n " << n << " k " << k << " l " << l << " entry " << i << " run " << repeat;
      }
    }
    std::vector<T> yexp = beta == T(0) ? std::vector<T>(static_cast<std::size_t>(n * l), nan) : test::test_vector<T>(static_cast<std::size_t>(n * l), 7);
    DenseMatrix<T> y(gpu, n, l, std::span<const T>(yexp));
    reference::gemm<T>(Op::none, Op::none, T(-1), {vh.data(), n, k, std::max(1LL, n)}, {sh.data(), k, l, std::max(1LL, k)}, beta,
                       {yexp.data(), n, l, std::max(1LL, n)});
    tall_skinny_update<T>(T(-1), v, s_in, beta, y);
    const auto ygot = y.to_host();
    for (std::size_t i = 0; i < ygot.size(); ++i) {
      ASSERT_LE(std::abs(ygot[i] - yexp[i]), 1e-5 * std::max(1.0, std::abs(static_cast<double>(yexp[i])))) << "V S n " << n << " k " << k << " l " << l;
    }
  }
}

TEST(CudaTallSkinny, MatchTheReference) {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  for (long long n : {0LL, 1LL, 777LL, 300001LL}) {
    for (const auto& [k, l] : std::vector<std::pair<long long, long long>>{{1, 1}, {2, 2}, {4, 1}, {40, 1}, {1, 9}, {8, 8}, {3, 7}, {5, 16}, {17, 19}, {32, 32}, {33, 2}, {9, 33}}) {
      check_tall_skinny_gpu<double>(n, k, l);
      check_tall_skinny_gpu<float>(n, k, l);
    }
  }
}

// V and W (and Y) inside buffers of 778 rows (even leading dimension,
// 16-byte aligned) with n = 777 and 776: 16-byte loads and stores of row
// pairs (groups of 4 in float), the last one partly outside V at n = 777;
// and leading dimensions 779 and 780 (float: 16-byte rows only at 780) that
// make them unaligned (one value at a time). Shapes for each kernel: the
// narrow ones (k, l <= 8), the tensor cores (double) / shared-memory tiles
// (float) above.
template <class T>
void check_tall_skinny_leading_dimensions() {
  const ExecutorPtr gpu = make_executor(Backend::cuda);
  const Executor& ex = cuda_executor(*gpu, "the tall-skinny test");
  const double tol = (std::is_same_v<T, float> ? 1e-5 : 1e-12) * std::sqrt(777.0);  // as check_tall_skinny_gpu's bound
  for (const auto& [k, l] : std::vector<std::pair<long long, long long>>{{2, 2}, {8, 5}, {16, 24}, {3, 30}}) {
    for (const long long ld : {778LL, 779LL, 780LL}) {
      const auto vh = test::test_vector<T>(static_cast<std::size_t>(ld * k), 4), wh = test::test_vector<T>(static_cast<std::size_t>(ld * l), 5);
      const auto sh = test::test_vector<T>(static_cast<std::size_t>(k * l), 6);
      const DenseMatrix<T> v(gpu, ld, k, std::span<const T>(vh)), w(gpu, ld, l, std::span<const T>(wh)), s_in(gpu, k, l, std::span<const T>(sh));
      for (const long long n : {777LL, 776LL}) {
        std::vector<T> expect(static_cast<std::size_t>(k * l), std::numeric_limits<T>::quiet_NaN());
        DenseMatrix<T> s(gpu, k, l, std::span<const T>(expect));
        reference::gemm<T>(Op::transpose, Op::none, T(2), {vh.data(), n, k, ld}, {wh.data(), n, l, ld}, T(0), {expect.data(), k, l, k});
        tall_skinny_dot<T>(ex, T(2), ConstDenseView<T>{v.data(), n, k, ld}, ConstDenseView<T>{w.data(), n, l, ld}, T(0), s.view());
        const auto got = s.to_host();
        for (std::size_t i = 0; i < got.size(); ++i) {
          ASSERT_LE(std::abs(got[i] - expect[i]), tol * std::max(1.0, std::abs(static_cast<double>(expect[i]))))
              << "V^T W k " << k << " l " << l << " ld " << ld << " n " << n << " entry " << i;
        }
        // Y = -V S + 0.5 Y inside a buffer of the same leading dimension; the rows past n must stay as they were.
        auto yexp = test::test_vector<T>(static_cast<std::size_t>(ld * l), 7);
        DenseMatrix<T> y(gpu, ld, l, std::span<const T>(yexp));
        reference::gemm<T>(Op::none, Op::none, T(-1), {vh.data(), n, k, ld}, {sh.data(), k, l, k}, T(0.5), {yexp.data(), n, l, ld});
        tall_skinny_update<T>(ex, T(-1), ConstDenseView<T>{v.data(), n, k, ld}, s_in.view(), T(0.5), DenseView<T>{y.data(), n, l, ld});
        const auto ygot = y.to_host();
        for (std::size_t i = 0; i < ygot.size(); ++i) {
          ASSERT_LE(std::abs(ygot[i] - yexp[i]), tol * std::max(1.0, std::abs(static_cast<double>(yexp[i]))))
              << "V S k " << k << " l " << l << " ld " << ld << " n " << n << " entry " << i;
        }
      }
    }
  }
}

TEST(CudaTallSkinny, VectorRowsAndLeadingDimensions) {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  check_tall_skinny_leading_dimensions<double>();
  check_tall_skinny_leading_dimensions<float>();
}

// SpMM on the device through the plan (support/spmm_check.hpp): CSR's,
// SELL's and BCSR's kernels for k = 1..33 (every KC template, two passes)
// on the edge cases and a 40,000-entry row (CSR's long-row kernel), float,
// double and complex<double>, BCSR with blocks that do not divide the
// shape; the other formats column by column.
TEST(CudaSpmm, OnEverySharedMatrix) {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  test::check_plan_spmm_shared(make_executor(Backend::cuda), {3, 33}, {Format::csr, Format::sell, Format::bcsr});
}

TEST(CudaSpmm, MatchesTheReference) {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  const ExecutorPtr gpu = make_executor(Backend::cuda);
  const std::vector<long long> ks = {1, 2, 3, 8, 16, 32, 33};
  test::check_plan_spmm<double>(gpu, Format::csr, ks);
  test::check_plan_spmm<float>(gpu, Format::csr, ks);
  test::check_plan_spmm<std::complex<double>>(gpu, Format::csr, ks);
  for (Format f : all_formats()) test::check_plan_spmm<double>(gpu, f, {3});
  for (Format f : {Format::sell, Format::bcsr}) {
    test::check_plan_spmm<double>(gpu, f, ks);
    test::check_plan_spmm<float>(gpu, f, {2, 17});
    test::check_plan_spmm<std::complex<double>>(gpu, f, {1, 5, 33});
  }
  // CSR's row bins: power-law and circuit rows longer than 4x the mean (a warp each) among short ones;
  // hub rows of 20,001 entries: long rows cut into 5 segments of up to 4096 (the last one partial);
  // 700 entries per row: short rows read by teams of lanes per nonzero (mean row >= kTeamMinMeanRow).
  for (const char* spec : {"powerlaw:min=2.5,rows=20000", "circuit:n=20000", "circuit:n=200000,dense_rows=3", "shortwide:rows=300,cols=20000,per_row=700"}) {
    test::check_plan_spmm_on<double>(gpu, io::load_matrix<double, std::int32_t>(spec), spec, Format::csr, ks);
  }
  // BCSR blocks that do not divide the rows or columns (the padded last block column of X).
  for (int block : {2, 3, 5, 8}) test::check_plan_spmm<double>(gpu, Format::bcsr, {1, 4, 33}, block);
}

}  // namespace
}  // namespace hsparse::cuda
