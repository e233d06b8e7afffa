// The solver benchmark's baselines from NVIDIA's libraries
// (backends/cuda/cusparse_baselines.hpp): PCG with cuSPARSE's IC(0) and
// BiCGStab with its ILU(0) reach the true residual in fewer iterations than
// without; the factorisation and triangular-solve pair equals the same
// triangular solves with factors computed densely on the host; a zero pivot
// names its row; BiCGStab's breakdown names the quantity and the iteration.
// Skipped with "skipped: no CUDA device" where there is none (CI).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "hsparse/backends/cuda/cublas_cg.hpp"
#include "hsparse/backends/cuda/cusparse_baselines.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/solvers/krylov.hpp"
#include "support/test_support.hpp"

namespace hsparse::cuda {
namespace {

#define REQUIRE_CUDA_DEVICE() \
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description()

using Pre = BaselinePreconditioner;
using Stop = BaselineCgResult::Stop;

// Central-difference convection-diffusion on an n x n grid, -Δu + c·∇u
// with the convection c along both axes: neighbours -1 -+ c (upwind and
// downwind differ, so the matrix is not symmetric), the diagonal 4.05:
// strictly diagonally dominant for c < 1.
template <class V>
Csr<V, std::int32_t> convection_diffusion(std::int32_t n, double c) {
  Csr<V, std::int32_t> a;
  a.rows = a.cols = n * n;
  for (std::int32_t y = 0; y < n; ++y) {
    for (std::int32_t x = 0; x < n; ++x) {
      const std::int32_t row = y * n + x;
      const auto add = [&](bool inside, std::int32_t col, double v) {
        if (!inside) return;
        a.col_idx.push_back(col);
        a.values.push_back(static_cast<V>(v));
      };
      add(y > 0, row - n, -1 - c);  // columns in increasing order
      add(x > 0, row - 1, -1 - c);
      add(true, row, 4.05);
      add(x + 1 < n, row + 1, -1 + c);
      add(y + 1 < n, row + n, -1 + c);
      a.row_ptr.push_back(static_cast<std::int32_t>(a.col_idx.size()));
    }
  }
  return a;
}

// A small matrix from its dense rows; zeros are not stored.
Csr<double, std::int32_t> from_dense(const std::vector<std::vector<double>>& rows) {
  Csr<double, std::int32_t> a;
  a.rows = a.cols = static_cast<std::int32_t>(rows.size());
  for (const auto& row : rows) {
    for (std::size_t j = 0; j < row.size(); ++j) {
      if (row[j] == 0) continue;
      a.col_idx.push_back(static_cast<std::int32_t>(j));
      a.values.push_back(row[j]);
    }
    a.row_ptr.push_back(static_cast<std::int32_t>(a.col_idx.size()));
  }
  return a;
}

enum class Method { pcg, bicgstab };

template <class V>
struct GpuSolve {
  BaselineCgResult result;
  double true_residual = 0;  // ||b - A x|| / ||b|| on the host, in double
  BaselineFactorTimes times;
};

template <class V>
GpuSolve<V> solve_on_gpu(Method method, const Csr<V, std::int32_t>& a, Pre pre, double tolerance, int max_iterations = 5000) {
  Executor ex;
  const auto b = test::test_vector<V>(static_cast<std::size_t>(a.rows), 3);
  DeviceArray<V> db(b), dx(std::vector<V>(b.size(), V(0)));  // x: the initial guess, 0
  GpuSolve<V> s;
  s.result = method == Method::pcg ? cusparse_cublas_pcg<V>(ex, a, pre, db.data(), dx.data(), tolerance, max_iterations, true, &s.times)
                                   : cusparse_cublas_bicgstab<V>(ex, a, pre, db.data(), dx.data(), tolerance, max_iterations, true, &s.times);
  s.true_residual = true_relative_residual<V, std::int32_t>(a, b, dx.download());
  return s;
}

// The method converges to the true residual with and without `pre`, and in
// fewer iterations with it; the history and the times are filled in.
template <class V>
void expect_preconditioner_helps(Method method, const Csr<V, std::int32_t>& a, Pre pre, double tolerance) {
  const auto plain = solve_on_gpu<V>(method, a, Pre::none, tolerance);
  const auto with = solve_on_gpu<V>(method, a, pre, tolerance);
  for (const auto* s : {&plain, &with}) {
    EXPECT_EQ(s->result.stop, Stop::converged) << s->result.message;
    EXPECT_LE(s->result.relative_residual, tolerance) << s->result.message;
    EXPECT_LE(s->true_residual, 10 * tolerance) << s->result.message;
    EXPECT_EQ(s->result.history.size(), static_cast<std::size_t>(s->result.iterations) + 1) << s->result.message;
    EXPECT_GT(s->result.setup_seconds, 0);
    EXPECT_GT(s->result.seconds, 0);
  }
  EXPECT_LT(with.result.iterations, plain.result.iterations) << with.result.message << " against " << plain.result.message;
  EXPECT_NE(with.result.message.find(preconditioner_name(pre)), std::string::npos) << with.result.message;
  EXPECT_GT(with.times.factor_seconds, 0);
  EXPECT_GT(with.times.analysis_seconds, 0);
  EXPECT_GT(with.times.triangular_pair_seconds, 0);
  EXPECT_EQ(plain.times.triangular_pair_seconds, 0);  // nothing to time without a preconditioner
}

TEST(CusparseBaselines, PcgWithIc0BeatsCgOnPoisson2dDouble) {
  REQUIRE_CUDA_DEVICE();
  expect_preconditioner_helps<double>(Method::pcg, generators::stencil_2d<double, std::int32_t>(64, 64, 5), Pre::ic0, 1e-8);
}
TEST(CusparseBaselines, PcgWithIc0BeatsCgOnPoisson2dFloat) {
  REQUIRE_CUDA_DEVICE();
  expect_preconditioner_helps<float>(Method::pcg, generators::stencil_2d<float, std::int32_t>(32, 32, 5), Pre::ic0, 1e-4);
}
TEST(CusparseBaselines, BicgstabWithIlu0BeatsBicgstabOnConvectionDiffusionDouble) {
  REQUIRE_CUDA_DEVICE();
  expect_preconditioner_helps<double>(Method::bicgstab, convection_diffusion<double>(48, 0.5), Pre::ilu0, 1e-8);
}
TEST(CusparseBaselines, BicgstabWithIlu0BeatsBicgstabOnConvectionDiffusionFloat) {
  REQUIRE_CUDA_DEVICE();
  expect_preconditioner_helps<float>(Method::bicgstab, convection_diffusion<float>(32, 0.5), Pre::ilu0, 1e-4);
}
TEST(CusparseBaselines, BicgstabWithIlu0BeatsBicgstabOnPoisson2d) {
  REQUIRE_CUDA_DEVICE();
  expect_preconditioner_helps<double>(Method::bicgstab, generators::stencil_2d<double, std::int32_t>(48, 48, 5), Pre::ilu0, 1e-8);
}

// Without a preconditioner PCG is the CG baseline's algorithm: the same iterations.
TEST(CusparseBaselines, PcgWithoutPreconditionerTakesTheCgBaselinesIterations) {
  REQUIRE_CUDA_DEVICE();
  const auto a = generators::stencil_2d<double, std::int32_t>(40, 40, 5);
  const auto pcg = solve_on_gpu<double>(Method::pcg, a, Pre::none, 1e-9);
  Executor ex;
  const auto b = test::test_vector<double>(static_cast<std::size_t>(a.rows), 3);
  DeviceArray<double> db(b), dx(std::vector<double>(b.size(), 0.0));
  const auto cg = cusparse_cublas_cg<double>(ex, a, db.data(), dx.data(), 1e-9, 5000);
  EXPECT_EQ(cg.stop, Stop::converged) << cg.message;
  EXPECT_NEAR(pcg.result.iterations, cg.iterations, 1) << pcg.result.message;
}

TEST(CusparseBaselines, BicgstabStopsAtMaxIterations) {
  REQUIRE_CUDA_DEVICE();
  const auto s = solve_on_gpu<double>(Method::bicgstab, convection_diffusion<double>(32, 0.5), Pre::none, 1e-12, 3);
  EXPECT_EQ(s.result.stop, Stop::max_iterations) << s.result.message;
  EXPECT_EQ(s.result.iterations, 3);
  EXPECT_EQ(s.result.history.size(), 4U);
}

// A skew-symmetric A has (r, A r) = 0 for every r: with r0hat = r0 = b and
// p = r0, (r0hat, v) = (b, A b) is exactly 0 in the first iteration.
TEST(CusparseBaselines, BicgstabNamesTheQuantityAndIterationOfABreakdown) {
  REQUIRE_CUDA_DEVICE();
  const auto a = from_dense({{0, 1}, {-1, 0}});
  Executor ex;
  DeviceArray<double> db(std::vector<double>{1, 2}), dx(std::vector<double>{0, 0});
  const auto r = cusparse_cublas_bicgstab<double>(ex, a, Pre::none, db.data(), dx.data(), 1e-10, 100);
  EXPECT_EQ(r.stop, Stop::breakdown) << r.message;
  EXPECT_NE(r.message.find("(r0hat, v) = 0 at iteration 1"), std::string::npos) << r.message;
}

// Host references: ILU(0) (Saad, Alg. 10.4, IKJ order) and IC(0) in A's
// pattern, dense, then the two triangular solves.
using Dense = std::vector<std::vector<double>>;

Dense dense_of(const Csr<double, std::int32_t>& a) {
  const auto flat = test::to_dense(a);
  const auto n = static_cast<std::size_t>(a.rows);
  Dense d(n);
  for (std::size_t i = 0; i < n; ++i) d[i].assign(flat.begin() + static_cast<std::ptrdiff_t>(i * n), flat.begin() + static_cast<std::ptrdiff_t>((i + 1) * n));
  return d;
}

// L (unit, strictly lower part) and U (upper part) in one matrix.
Dense host_ilu0(const Csr<double, std::int32_t>& a) {
  Dense lu = dense_of(a);
  const std::size_t n = lu.size();
  const Dense pattern = lu;  // no explicit zeros in these tests: nonzero = stored
  for (std::size_t i = 1; i < n; ++i) {
    for (std::size_t k = 0; k < i; ++k) {
      if (pattern[i][k] == 0) continue;
      lu[i][k] /= lu[k][k];
      for (std::size_t j = k + 1; j < n; ++j) {
        if (pattern[i][j] != 0) lu[i][j] -= lu[i][k] * lu[k][j];
      }
    }
  }
  return lu;
}

// L with (L L^T)_ij = a_ij on the lower pattern.
Dense host_ic0(const Csr<double, std::int32_t>& a) {
  const Dense d = dense_of(a);
  const std::size_t n = d.size();
  Dense l(n, std::vector<double>(n, 0.0));
  for (std::size_t k = 0; k < n; ++k) {
    double diag = d[k][k];
    for (std::size_t j = 0; j < k; ++j) diag -= l[k][j] * l[k][j];
    l[k][k] = std::sqrt(diag);
    for (std::size_t i = k + 1; i < n; ++i) {
      if (d[i][k] == 0) continue;
      double v = d[i][k];
      for (std::size_t j = 0; j < k; ++j) v -= l[i][j] * l[k][j];
      l[i][k] = v / l[k][k];
    }
  }
  return l;
}

// x = U^-1 L^-1 b with L unit lower (ILU) or with L = lower, U = L^T (IC).
std::vector<double> host_pair(const Dense& f, std::vector<double> b, bool ilu) {
  const std::size_t n = f.size();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < i; ++j) b[i] -= f[i][j] * b[j];
    if (!ilu) b[i] /= f[i][i];
  }
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = i + 1; j < n; ++j) b[i] -= (ilu ? f[i][j] : f[j][i]) * b[j];
    b[i] /= f[i][i];
  }
  return b;
}

void expect_factor_and_apply_matches_host(const Csr<double, std::int32_t>& a, Pre pre) {
  const bool ilu = pre == Pre::ilu0;
  const auto b = test::test_vector<double>(static_cast<std::size_t>(a.rows), 5);
  const auto want = host_pair(ilu ? host_ilu0(a) : host_ic0(a), b, ilu);
  Executor ex;
  DeviceArray<double> db(b), dx(std::vector<double>(b.size(), std::numeric_limits<double>::quiet_NaN()));
  const auto times = cusparse_factor_and_apply<double>(ex, a, pre, db.data(), dx.data(), 5);
  const auto got = dx.download();
  double err = 0, scale = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_TRUE(std::isfinite(got[i])) << "x[" << i << "] not written";
    err = std::max(err, std::abs(got[i] - want[i]));
    scale = std::max(scale, std::abs(want[i]));
  }
  EXPECT_LE(err, 1e-10 * scale) << preconditioner_name(pre);
  EXPECT_GT(times.factor_seconds, 0);
  EXPECT_GT(times.analysis_seconds, 0);
  EXPECT_GT(times.triangular_pair_seconds, 0);
}

TEST(CusparseBaselines, FactorAndApplyIlu0MatchesHostTriangularSolvesOnConvectionDiffusion) {
  REQUIRE_CUDA_DEVICE();
  expect_factor_and_apply_matches_host(convection_diffusion<double>(7, 0.5), Pre::ilu0);
}
TEST(CusparseBaselines, FactorAndApplyIc0MatchesHostTriangularSolvesOnPoisson2d) {
  REQUIRE_CUDA_DEVICE();
  expect_factor_and_apply_matches_host(generators::stencil_2d<double, std::int32_t>(7, 6, 5), Pre::ic0);
}

TEST(CusparseBaselines, FactorAndApplyRefusesNoPreconditioner) {
  REQUIRE_CUDA_DEVICE();
  const auto a = generators::stencil_2d<double, std::int32_t>(4, 4, 5);
  Executor ex;
  DeviceArray<double> db(std::vector<double>(16, 1.0)), dx(16);
  try {
    cusparse_factor_and_apply<double>(ex, a, Pre::none, db.data(), dx.data(), 1);
    ADD_FAILURE() << "pre == none accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument) << e.what();
  }
}

// The error a factorisation of `a` throws: its code and message.
std::pair<ErrorCode, std::string> factorisation_error(const Csr<double, std::int32_t>& a, Pre pre) {
  Executor ex;
  const std::vector<double> ones(static_cast<std::size_t>(a.rows), 1.0);
  DeviceArray<double> db(ones), dx(std::vector<double>(ones.size(), std::numeric_limits<double>::quiet_NaN()));
  try {
    cusparse_factor_and_apply<double>(ex, a, pre, db.data(), dx.data(), 1);
  } catch (const Error& e) {
    return {e.code(), e.what()};
  }
  return {ErrorCode::internal, "no error"};
}

TEST(CusparseBaselines, Ilu0NamesTheRowOfAStructuralZeroPivot) {
  REQUIRE_CUDA_DEVICE();
  const auto a = from_dense({{4, 1, 0, 0}, {1, 4, 1, 0}, {0, 1, 0, 1}, {0, 0, 1, 4}});  // no stored A(3,3)
  const auto [code, message] = factorisation_error(a, Pre::ilu0);
  EXPECT_EQ(code, ErrorCode::invalid_matrix) << message;
  EXPECT_NE(message.find("cuSPARSE ILU(0): zero pivot in row 3 (1-based)"), std::string::npos) << message;
}

TEST(CusparseBaselines, Ilu0NamesTheRowOfANumericalZeroPivot) {
  REQUIRE_CUDA_DEVICE();
  const auto a = from_dense({{1, 1, 0}, {1, 1, 1}, {0, 1, 2}});  // U(2,2) = 1 - 1 * 1 = 0
  const auto [code, message] = factorisation_error(a, Pre::ilu0);
  EXPECT_EQ(code, ErrorCode::invalid_matrix) << message;
  EXPECT_NE(message.find("cuSPARSE ILU(0): zero pivot in row 2 (1-based)"), std::string::npos) << message;
}

TEST(CusparseBaselines, Ic0NamesTheRowOfAStructuralZeroPivot) {
  REQUIRE_CUDA_DEVICE();
  const auto a = from_dense({{4, 1, 0}, {1, 0, 1}, {0, 1, 4}});  // no stored A(2,2)
  const auto [code, message] = factorisation_error(a, Pre::ic0);
  EXPECT_EQ(code, ErrorCode::invalid_matrix) << message;
  EXPECT_NE(message.find("cuSPARSE IC(0): zero pivot in row 2 (1-based)"), std::string::npos) << message;
}

// The Krylov baselines pass the factorisation's error on.
TEST(CusparseBaselines, BicgstabWithIlu0PassesTheZeroPivotOn) {
  REQUIRE_CUDA_DEVICE();
  const auto a = from_dense({{4, 1, 0, 0}, {1, 4, 1, 0}, {0, 1, 0, 1}, {0, 0, 1, 4}});
  Executor ex;
  DeviceArray<double> db(std::vector<double>(4, 1.0)), dx(std::vector<double>(4, 0.0));
  try {
    cusparse_cublas_bicgstab<double>(ex, a, Pre::ilu0, db.data(), dx.data(), 1e-10, 100);
    ADD_FAILURE() << "a zero pivot accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_matrix) << e.what();
    EXPECT_NE(std::string(e.what()).find("row 3 (1-based)"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hsparse::cuda
