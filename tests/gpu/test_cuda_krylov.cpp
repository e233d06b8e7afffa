// The GPU's own vector kernels against the serial reference, and the
// cuSPARSE + cuBLAS CG baseline against our CG: the GPU-only part of the
// solver tests. The Krylov solvers themselves are tested once for every
// executor in tests/unit/test_krylov.cpp (Krylov.*/cuda: the true residual,
// pipelined CG's device-side stopping (check_every), breakdown and
// non-convergence). Skipped with "skipped: no CUDA device" where there is
// none (CI).
#include <gtest/gtest.h>

#include <cmath>

#include "hsparse/backends/cuda/vector_ops.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/kernels/vector_ops.hpp"
#include "hsparse/backends/cuda/cublas_cg.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/solvers/krylov.hpp"
#include "support/test_support.hpp"

namespace hsparse::cuda {
namespace {

#define REQUIRE_CUDA_DEVICE() \
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description()

template <class V>
void check_device_vector_ops() {
  Executor ex;
  ReductionScratch scratch;
  const double tol = std::is_same_v<V, float> ? 1e-5 : 1e-12;
  for (long long n : {0LL, 1LL, 1000LL, 300001LL}) {
    const auto un = static_cast<std::size_t>(n);
    const auto w = test::test_vector<V>(un, 1), b = test::test_vector<V>(un, 2);
    const double scale = std::max(1.0, reference::dot<V>(w, w));
    std::vector<std::vector<V>> vs;
    std::vector<DeviceArray<V>> dvs;
    std::vector<V> columns;  // the same vectors as the columns of an n x 13 matrix
    for (int k = 0; k < 13; ++k) {
      vs.push_back(test::test_vector<V>(un, 10 + static_cast<std::uint64_t>(k)));
      dvs.emplace_back(vs.back());
      columns.insert(columns.end(), vs.back().begin(), vs.back().end());
    }
    DeviceArray<V> dw(w), db(b), dcols(columns);
    EXPECT_NEAR(dot_host<V>(ex, n, dw.data(), db.data(), scratch), reference::dot<V>(w, b), tol * scale) << n;
    for (std::size_t count = 1; count <= vs.size(); ++count) {
      std::vector<const V*> hp, dp;
      for (std::size_t k = 0; k < count; ++k) {
        hp.push_back(vs[k].data());
        dp.push_back(dvs[k].data());
      }
      std::vector<double> want(count), got(count, -7.0);
      reference::mdot<V>(w, hp, want);
      mdot_host<V>(ex, n, dw.data(), dp, got, scratch);
      for (std::size_t k = 0; k < count; ++k) EXPECT_NEAR(got[k], want[k], tol * scale) << n << " mdot of " << count;
      // The benchmark's alternatives agree: k dots, and cuBLAS gemv.
      DeviceArray<double> out(count);
      mdot_as_dots<V>(ex, n, dw.data(), dp, out.data(), scratch);
      const auto as_dots = out.download();
      for (std::size_t k = 0; k < count; ++k) EXPECT_NEAR(as_dots[k], want[k], tol * scale) << n;
      if (n > 0) {
        DeviceArray<V> g(count);
        mdot_as_gemv<V>(ex, n, static_cast<long long>(count), dw.data(), dcols.data(), g.data());
        const auto as_gemv = g.download();
        for (std::size_t k = 0; k < count; ++k) EXPECT_NEAR(as_gemv[k], want[k], 10 * tol * scale) << n;
      }
      std::vector<double> coef(count);
      for (std::size_t k = 0; k < count; ++k) coef[k] = 0.1 * static_cast<double>(k + 1);
      auto y = b;
      reference::maxpy_sub<V>(coef, hp, y);
      DeviceArray<V> dy(b);
      maxpy_sub<V>(ex, n, coef, dp, dy.data());
      const auto gy = dy.download();
      for (std::size_t i = 0; i < un; ++i) ASSERT_NEAR(gy[i], y[i], 10 * tol * (1 + std::abs(y[i]))) << i;
    }
    // axpby with beta = 0 does not read y (NaN poison stays out).
    std::vector<V> nan(un, std::numeric_limits<V>::quiet_NaN());
    DeviceArray<V> dn(nan);
    axpby<V>(ex, n, V(2), dw.data(), V(0), dn.data());
    auto want = w;
    for (auto& v : want) v *= V(2);
    EXPECT_EQ(dn.download(), want);
  }
}

TEST(CudaVectorOps, MatchReferenceDouble) {
  REQUIRE_CUDA_DEVICE();
  check_device_vector_ops<double>();
}
TEST(CudaVectorOps, MatchReferenceFloat) {
  REQUIRE_CUDA_DEVICE();
  check_device_vector_ops<float>();
}

// The cuSPARSE + cuBLAS baseline solves the same problem in about as many
// iterations as our CG, to the true residual.
TEST(CudaKrylov, TheCusparseCublasBaselineConvergesLikeOurCg) {
  REQUIRE_CUDA_DEVICE();
  const ExecutorPtr ex = make_cuda_executor();
  const auto a = io::load_matrix<double, std::int32_t>("stencil2d:n=30");
  const SpmvPlan<double, std::int32_t> pa(ex, a, {});
  const std::vector<double> ones(static_cast<std::size_t>(a.rows), 1.0);
  const Array<double> bb(ex, std::span<const double>(ones));
  SolverOptions so;
  so.tolerance = 1e-10;
  Array<double> x1(ex, ones.size()), x2(ex, ones.size());
  const auto ours = hsparse::solve<double, std::int32_t>(a, pa, bb, x1, so);
  const auto base = cusparse_cublas_cg<double>(cuda_executor(*ex, "the baseline"), a, bb.data(), x2.data(), so.tolerance, so.max_iterations);
  EXPECT_EQ(base.stop, BaselineCgResult::Stop::converged) << base.message;
  EXPECT_NEAR(base.iterations, ours.iterations, 2);
  EXPECT_LE((true_relative_residual<double, std::int32_t>(a, ones, x2.to_host())), 1e-9);
}

}  // namespace
}  // namespace hsparse::cuda
