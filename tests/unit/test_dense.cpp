// Dense matrices and GEMM on the CPU: the reference against products known
// by hand, the blocked OpenMP kernel against the reference on edge shapes
// (1 x n, n x 1, k = 1, sizes that are not multiples of the register and
// cache blocks, empty), every transpose pair, beta = 0 with NaN in C,
// leading dimensions above the row count, and complex values.
#include <gtest/gtest.h>

#include <algorithm>

#include <complex>
#include <limits>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/dense/dense_matrix.hpp"
#include "hsparse/dense/gemm.hpp"
#include "hsparse/kernels/dense_ops.hpp"
#include "support/test_support.hpp"

namespace hsparse {
namespace {

template <class T>
std::vector<T> filled(long long n, std::uint64_t seed) {
  return test::test_vector<T>(static_cast<std::size_t>(std::max(0LL, n)), seed);
}

TEST(DenseMatrix, ShapesLeadingDimensionAndErrors) {
  const ExecutorPtr ex = make_executor(Backend::cpu);
  const std::vector<double> h = {1, 2, 3, 4, 5, 6};  // 2 x 3, column-major
  const DenseMatrix<double> m(ex, 2, 3, std::span<const double>(h));
  EXPECT_EQ(m.to_host(), h);
  EXPECT_EQ(m.view()(1, 2), 6.0);
  const DenseMatrix<double> padded(ex, 2, 3, 5);  // ld 5
  EXPECT_EQ(padded.ld(), 5);
  for (double v : padded.to_host()) EXPECT_EQ(v, 0.0);
  const std::vector<double> hl = {1, 2, -1, 3, 4, -1, 5, 6};  // the same matrix with host ld 3
  EXPECT_EQ((DenseMatrix<double>(ex, 2, 3, std::span<const double>(hl), 3).to_host()), h);
  EXPECT_THROW((DenseMatrix<double>(ex, -1, 3)), Error);
  EXPECT_THROW((DenseMatrix<double>(ex, 4, 3, 2)), Error);  // ld < rows
  EXPECT_THROW((DenseMatrix<double>(ex, 2, 3, std::span<const double>(h.data(), 5))), Error);
  EXPECT_EQ((DenseMatrix<double>(ex, 0, 0).to_host().size()), 0u);
}

TEST(Gemm, ReferenceMatchesAHandComputedProduct) {
  // A = [1 2; 3 4], B = [5 6; 7 8]: AB = [19 22; 43 50], A^T B = [26 30; 38 44].
  const std::vector<double> a = {1, 3, 2, 4}, b = {5, 7, 6, 8};
  std::vector<double> c = {1, 1, 1, 1};
  const ConstDenseView<double> av(a.data(), 2, 2, 2), bv(b.data(), 2, 2, 2);
  reference::gemm<double>(Op::none, Op::none, 1.0, av, bv, 0.0, {c.data(), 2, 2, 2});
  EXPECT_EQ(c, (std::vector<double>{19, 43, 22, 50}));
  reference::gemm<double>(Op::transpose, Op::none, 2.0, av, bv, -1.0, {c.data(), 2, 2, 2});
  EXPECT_EQ(c, (std::vector<double>{2 * 26 - 19, 2 * 38 - 43, 2 * 30 - 22, 2 * 44 - 50}));
  std::vector<double> wrong(6);
  EXPECT_THROW(reference::gemm<double>(Op::none, Op::none, 1.0, av, bv, 0.0, {wrong.data(), 3, 2, 3}), Error);
}

// op(A) m x k, op(B) k x n with leading dimensions padded by `pad`.
template <class T>
void check_openmp_gemm(long long m, long long n, long long k, Op ta, Op tb, T alpha, T beta, long long pad) {
  const long long ar = ta == Op::none ? m : k, ac = ta == Op::none ? k : m;
  const long long br = tb == Op::none ? k : n, bc = tb == Op::none ? n : k;
  const long long lda = std::max(1LL, ar) + pad, ldb = std::max(1LL, br) + pad, ldc = std::max(1LL, m) + pad;
  const auto a = filled<T>(lda * ac, 1), b = filled<T>(ldb * bc, 2);
  const T nan(std::numeric_limits<real_type_t<T>>::quiet_NaN());
  std::vector<T> c0 = beta == T(0) ? std::vector<T>(static_cast<std::size_t>(ldc * n), nan) : filled<T>(ldc * n, 3);
  std::vector<T> c = c0, expect = c0;
  const ConstDenseView<T> av(a.data(), ar, ac, lda), bv(b.data(), br, bc, ldb);
  reference::gemm<T>(ta, tb, alpha, av, bv, beta, {expect.data(), m, n, ldc});
  openmp::gemm<T>(ta, tb, alpha, av, bv, beta, {c.data(), m, n, ldc});
  const double tol = (std::is_same_v<real_type_t<T>, float> ? 2e-5 : 1e-12) * std::max(1.0, std::sqrt(static_cast<double>(k)));
  for (long long j = 0; j < n; ++j) {
    for (long long i = 0; i < ldc; ++i) {
      const auto at = static_cast<std::size_t>(i + j * ldc);
      if (i >= m) {  // padding rows of C are never written
        if (beta != T(0)) ASSERT_EQ(c[at], c0[at]);
        continue;
      }
      const double scale = std::max(1.0, std::abs(std::complex<double>(expect[at])));
      ASSERT_LE(std::abs(std::complex<double>(c[at]) - std::complex<double>(expect[at])), tol * scale * std::max(1.0, static_cast<double>(k)))
          << m << "x" << n << "x" << k << " " << to_string(ta) << to_string(tb) << " at (" << i << ", " << j << ")";
    }
  }
}

template <class T>
class GemmTyped : public ::testing::Test {};
using GemmTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(GemmTyped, GemmTypes);

TYPED_TEST(GemmTyped, OpenmpMatchesTheReferenceOnEdgeShapes) {
  using T = TypeParam;
  const std::vector<std::array<long long, 3>> shapes = {{1, 1, 1},   {1, 37, 5},   {37, 1, 5},  {17, 13, 1}, {0, 5, 3},  {5, 0, 3},
                                                        {5, 3, 0},   {8, 6, 256},  {9, 7, 257}, {97, 50, 33}, {200, 13, 300}, {130, 70, 70},
                                                        // B panels split between threads (fewer row blocks than threads), the last part and the
                                                        // second panel (NC = 3072) partial
                                                        {40, 1100, 20}, {300, 3100, 9}};
  for (const auto& [m, n, k] : shapes) {
    for (Op ta : {Op::none, Op::transpose}) {
      for (Op tb : {Op::none, Op::transpose}) {
        check_openmp_gemm<T>(m, n, k, ta, tb, T(1), T(0), 0);
        check_openmp_gemm<T>(m, n, k, ta, tb, T(-0.5), T(2), 3);
      }
    }
  }
}

// The default tile of GemmOptions is the register-blocked kernel's first
// compiled tile, the one measured fastest (gemm_names.cpp): a default that
// drifted from the list ran the bench on a slower tile (2026-11-25).
TEST(Gemm, DefaultTileIsTheFirstCompiled) {
  EXPECT_EQ(cuda::GemmTile{}.name(), cuda::gemm_tiles().front().name());
  EXPECT_EQ(cuda::gemm_tile_for("register", {}).name(), cuda::gemm_tiles().front().name());
  EXPECT_EQ(cuda::gemm_tile_for("tensor", {}).name(), cuda::gemm_tensor_tiles().front().name());
  // TF32's default is its own (the fastest tile differs from the DMMA kernel's) and is compiled.
  const auto tf32 = cuda::gemm_tile_for("tf32", {}).name();
  EXPECT_EQ(tf32, cuda::gemm_tf32_default_tile().name());
  const auto& tiles = cuda::gemm_tensor_tiles();
  EXPECT_TRUE(std::any_of(tiles.begin(), tiles.end(), [&](const cuda::GemmTile& t) { return t.name() == tf32; })) << tf32;
  // An explicit tile of the algorithm's kind is kept.
  EXPECT_EQ(cuda::gemm_tile_for("tensor", tiles.back()).name(), tiles.back().name());
}

TEST(Gemm, IntensityFollowsTheLecture) {
  // The lecture's unblocked loop keeps a row of A (bm = n, bn = 1): q -> 2;
  // no reuse at all (1 x 1): q -> 1; b x b tiles: q -> b.
  EXPECT_NEAR(gemm_intensity({4096, 4096, 4096}, 4096, 1), 2.0, 0.01);
  EXPECT_NEAR(gemm_intensity({4096, 4096, 4096}, 1, 1), 1.0, 0.01);
  EXPECT_NEAR(gemm_intensity({8192, 8192, 8192}, 64, 64), 64.0, 1.0);
}

// Tall-skinny products: V^T W and V S against the reference GEMM, for
// n from 0 to 100,001 rows and k, l from 1 to 33 (one past the GPU's 32).
template <class T>
void check_tall_skinny(long long n, long long k, long long l) {
  const ExecutorPtr cpu = make_executor(Backend::cpu);
  const auto vh = filled<T>(n * k, 4), wh = filled<T>(n * l, 5), sh = filled<T>(k * l, 6);
  const DenseMatrix<T> v(cpu, n, k, std::span<const T>(vh)), w(cpu, n, l, std::span<const T>(wh)), s_in(cpu, k, l, std::span<const T>(sh));
  const T nan(std::numeric_limits<real_type_t<T>>::quiet_NaN());
  const double tol = (std::is_same_v<real_type_t<T>, float> ? 1e-5 : 1e-12) * std::sqrt(static_cast<double>(std::max(1LL, n)));
  for (const T beta : {T(0), T(0.5)}) {
    std::vector<T> expect = beta == T(0) ? std::vector<T>(static_cast<std::size_t>(k * l), nan) : sh;
    DenseMatrix<T> s(cpu, k, l, std::span<const T>(expect));
    reference::gemm<T>(Op::transpose, Op::none, T(2), v.view(), w.view(), beta, {expect.data(), k, l, std::max(1LL, k)});
    tall_skinny_dot<T>(T(2), v, w, beta, s);
    const auto got = s.to_host();
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_LE(std::abs(std::complex<double>(got[i]) - std::complex<double>(expect[i])), tol * std::max(1.0, std::abs(std::complex<double>(expect[i]))))
          << "V^T W n " << n << " k " << k << " l " << l << " entry " << i;
    }
    std::vector<T> yexp = beta == T(0) ? std::vector<T>(static_cast<std::size_t>(n * l), nan) : filled<T>(n * l, 7);
    DenseMatrix<T> y(cpu, n, l, std::span<const T>(yexp));
    reference::gemm<T>(Op::none, Op::none, T(-1), v.view(), s_in.view(), beta, {yexp.data(), n, l, std::max(1LL, n)});
    tall_skinny_update<T>(T(-1), v, s_in, beta, y);
    const auto ygot = y.to_host();
    for (std::size_t i = 0; i < ygot.size(); ++i) {
      ASSERT_LE(std::abs(std::complex<double>(ygot[i]) - std::complex<double>(yexp[i])), 1e-5 * std::max(1.0, std::abs(std::complex<double>(yexp[i]))))
          << "V S n " << n << " k " << k << " l " << l << " entry " << i;
    }
  }
}

TYPED_TEST(GemmTyped, TallSkinnyProductsMatchTheReference) {
  for (long long n : {0LL, 1LL, 777LL, 100001LL}) {
    // 4 x 4 register tiles with every edge (1 to 3 columns left on a side), and one column (mdot).
    for (const auto& [k, l] : std::vector<std::pair<long long, long long>>{{1, 1}, {3, 1}, {8, 8}, {2, 5}, {5, 7}, {4, 9}, {32, 32}, {33, 3}}) {
      check_tall_skinny<TypeParam>(n, k, l);
    }
  }
}

// V, W and Y inside buffers of n + 3 rows (the kernels must step by the
// leading dimension), with n a few rows past whole vectors of rows: the
// padding rows of Y stay as they were.
TYPED_TEST(GemmTyped, TallSkinnyProductsFollowTheLeadingDimension) {
  using T = TypeParam;
  const ExecutorPtr cpu = make_executor(Backend::cpu);
  const double tol = (std::is_same_v<real_type_t<T>, float> ? 1e-5 : 1e-12) * 100;
  for (const long long n : {35LL, 1029LL}) {
    const long long ld = n + 3, k = 6, l = 5;
    const auto vh = filled<T>(ld * k, 4), wh = filled<T>(ld * l, 5), sh = filled<T>(k * l, 6);
    std::vector<T> expect(static_cast<std::size_t>(k * l)), s(expect.size(), T(0));
    reference::gemm<T>(Op::transpose, Op::none, T(1), {vh.data(), n, k, ld}, {wh.data(), n, l, ld}, T(0), {expect.data(), k, l, k});
    openmp::tall_skinny_dot<T>(T(1), {vh.data(), n, k, ld}, {wh.data(), n, l, ld}, T(0), {s.data(), k, l, k});
    for (std::size_t i = 0; i < s.size(); ++i) {
      ASSERT_LE(std::abs(std::complex<double>(s[i]) - std::complex<double>(expect[i])), tol * std::max(1.0, std::abs(std::complex<double>(expect[i]))))
          << "V^T W n " << n << " entry " << i;
    }
    const auto y0 = filled<T>(ld * l, 7);
    std::vector<T> y = y0, yexp = y0;
    reference::gemm<T>(Op::none, Op::none, T(-1), {vh.data(), n, k, ld}, {sh.data(), k, l, k}, T(0.5), {yexp.data(), n, l, ld});
    openmp::tall_skinny_update<T>(T(-1), {vh.data(), n, k, ld}, {sh.data(), k, l, k}, T(0.5), {y.data(), n, l, ld});
    for (long long j = 0; j < l; ++j) {
      for (long long i = 0; i < ld; ++i) {
        const auto at = static_cast<std::size_t>(i + j * ld);
        if (i >= n) {
          ASSERT_EQ(y[at], y0[at]) << "V S wrote padding row " << i << " of column " << j;
          continue;
        }
        ASSERT_LE(std::abs(std::complex<double>(y[at]) - std::complex<double>(yexp[at])), tol * std::max(1.0, std::abs(std::complex<double>(yexp[at]))))
            << "V S n " << n << " at (" << i << ", " << j << ")";
      }
    }
  }
}

}  // namespace
}  // namespace hsparse
