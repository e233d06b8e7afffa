// Batched tridiagonal solves on the CPU: the OpenMP Thomas against the
// serial one, both held to the residual ||Ax - d|| / ||d|| in double, on
// random diagonally dominant batches of sizes 1, 2, 3, odd, non-powers of
// two, 512 and 2^20, batches of 1 to 10^5 systems, both layouts; zero pivots
// and bad shapes reported.
#include <gtest/gtest.h>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/generators/tridiagonal_batch.hpp"
#include "hsparse/solvers/tridiagonal.hpp"
#include "support/test_support.hpp"

namespace hsparse {
namespace {

template <class V>
void check_batches(double tol) {
  struct Shape {
    long long size, count;
  };
  for (const Shape sh : {Shape{1, 1}, Shape{1, 100}, Shape{2, 3}, Shape{3, 7}, Shape{17, 100000}, Shape{100, 1000}, Shape{512, 512},
                         Shape{1000, 3}, Shape{1 << 20, 1}}) {
    for (auto layout : {TridiagonalLayout::contiguous, TridiagonalLayout::interleaved}) {
      const auto t = generators::random_tridiagonal_batch<V>(sh.size, sh.count, layout, 3);
      const auto s = t.systems();
      std::vector<V> x1(t.d.size(), std::numeric_limits<V>::quiet_NaN()), x2 = x1;
      reference::tridiagonal_solve<V>(s, t.d, x1);
      openmp::tridiagonal_solve<V>(s, t.d, x2);
      EXPECT_EQ(x1, x2) << sh.size << " x " << sh.count << " " << to_string(layout);
      EXPECT_LE((tridiagonal_relative_residual<V>(s, t.d, x1)), tol) << sh.size << " x " << sh.count << " " << to_string(layout);
      EXPECT_TRUE(check_diagonal_dominance(s).dominant);
    }
  }
}

TEST(Tridiagonal, ThomasDouble) { check_batches<double>(1e-14); }
TEST(Tridiagonal, ThomasFloat) { check_batches<float>(1e-5); }

TEST(Tridiagonal, LayoutsGiveTheSameSolution) {
  const auto c = generators::random_tridiagonal_batch<double>(37, 11, TridiagonalLayout::contiguous, 5);
  const auto i = generators::random_tridiagonal_batch<double>(37, 11, TridiagonalLayout::interleaved, 5);
  std::vector<double> xc(c.d.size()), xi(i.d.size());
  openmp::tridiagonal_solve<double>(c.systems(), c.d, xc);
  openmp::tridiagonal_solve<double>(i.systems(), i.d, xi);
  for (long long k = 0; k < 11; ++k) {
    for (long long r = 0; r < 37; ++r) EXPECT_EQ(xc[static_cast<std::size_t>(k * 37 + r)], xi[static_cast<std::size_t>(r * 11 + k)]);
  }
}

TEST(Tridiagonal, ZeroPivotAndBadShapesAreErrors) {
  auto t = generators::random_tridiagonal_batch<double>(10, 4, TridiagonalLayout::contiguous, 7);
  // System 2: b_0 = 0 (a first-row zero pivot); system 3, row 5: b = a*c' makes the pivot vanish.
  t.b[2 * 10 + 0] = 0;
  std::vector<double> x(t.d.size());
  for (int backend = 0; backend < 2; ++backend) {
    try {
      if (backend == 0) reference::tridiagonal_solve<double>(t.systems(), t.d, x);
      else openmp::tridiagonal_solve<double>(t.systems(), t.d, x);
      ADD_FAILURE() << "zero pivot accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("system 2, row 0: zero or non-finite pivot"), std::string::npos) << e.what();
    }
  }
  // A zero pivot in a middle row (a_3 = b_3 = 0) of system 70 of 100, both
  // layouts (the interleaved one takes the OpenMP solver's SIMD chunk path).
  for (auto layout : {TridiagonalLayout::contiguous, TridiagonalLayout::interleaved}) {
    auto u = generators::random_tridiagonal_batch<double>(9, 100, layout, 8);
    const auto j = static_cast<std::size_t>(u.systems().index(70, 3));
    u.a[j] = 0;
    u.b[j] = 0;
    std::vector<double> xu(u.d.size());
    for (int backend = 0; backend < 2; ++backend) {
      try {
        if (backend == 0) reference::tridiagonal_solve<double>(u.systems(), u.d, xu);
        else openmp::tridiagonal_solve<double>(u.systems(), u.d, xu);
        ADD_FAILURE() << "zero pivot accepted (" << to_string(layout) << ")";
      } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("system 70, row 3:"), std::string::npos) << e.what() << " (" << to_string(layout) << ")";
      }
    }
  }
  const auto dom = check_diagonal_dominance(t.systems());
  EXPECT_FALSE(dom.dominant);
  EXPECT_EQ(dom.system, 2);
  EXPECT_EQ(dom.row, 0);
  // A singular 2x2 [[1, 1], [1, 1]]: the second pivot is 1 - 1*1 = 0.
  TridiagonalSystems<double> sing{2, 1, TridiagonalLayout::contiguous, nullptr, nullptr, nullptr};
  const std::vector<double> a = {0, 1}, b = {1, 1}, c = {1, 0}, d = {1, 2};
  sing.a = a.data();
  sing.b = b.data();
  sing.c = c.data();
  std::vector<double> xs(2);
  EXPECT_THROW(reference::tridiagonal_solve<double>(sing, d, xs), Error);
  try {
    openmp::tridiagonal_solve<double>(sing, d, xs);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("system 0, row 1"), std::string::npos) << e.what();
  }
  std::vector<double> short_x(3);
  EXPECT_THROW(openmp::tridiagonal_solve<double>(t.systems(), t.d, short_x), Error);
  TridiagonalSystems<double> neg{-1, 1, TridiagonalLayout::contiguous, nullptr, nullptr, nullptr};
  EXPECT_THROW(check_tridiagonal_shape(neg), Error);
  // Empty batches are fine.
  TridiagonalSystems<double> empty{0, 5, TridiagonalLayout::contiguous, nullptr, nullptr, nullptr};
  std::vector<double> none;
  EXPECT_NO_THROW(openmp::tridiagonal_solve<double>(empty, none, none));
}


// The one entry point (TridiagonalSolver) on every executor present: every
// algorithm the backend names, both layouts, shapes for the shared-memory
// solvers and for the partition method, against the serial reference; an
// algorithm the backend lacks refused naming those it has; a zero pivot an
// Error naming its system and row. Instances .../cpu and .../cuda (the
// latter labelled gpu, skipped where there is no device).
class TridiagonalSolverOn : public ::testing::TestWithParam<Backend> {
 protected:
  ExecutorPtr executor() const {
    if (GetParam() == Backend::cuda && !cuda::device_available()) return nullptr;
    return make_executor(GetParam());
  }
};

TEST_P(TridiagonalSolverOn, EveryAlgorithmMatchesTheReference) {
  const ExecutorPtr ex = executor();
  if (!ex) GTEST_SKIP() << "skipped: no CUDA device: " << cuda::device_description();
  struct Shape {
    long long size, count;
  };
  for (const Shape sh : {Shape{1, 3}, Shape{7, 33}, Shape{512, 64}, Shape{5000, 4}}) {
    for (auto layout : {TridiagonalLayout::contiguous, TridiagonalLayout::interleaved}) {
      const auto t = generators::random_tridiagonal_batch<double>(sh.size, sh.count, layout, 5);
      std::vector<double> expect(t.d.size());
      reference::tridiagonal_solve<double>(t.systems(), t.d, expect);
      const Array<double> a(ex, std::span<const double>(t.a)), b(ex, std::span<const double>(t.b)), c(ex, std::span<const double>(t.c)),
          d(ex, std::span<const double>(t.d));
      TridiagonalSolver<double> solver(ex);
      for (const auto& algorithm : tridiagonal_algorithms(GetParam())) {
        // The shared-memory solvers take systems of up to 1024 (PCR) or 4096 (CR, hybrid) unknowns.
        if ((algorithm == "pcr" && sh.size > 1024) || ((algorithm == "cr" || algorithm == "hybrid") && sh.size > 4096)) continue;
        TridiagonalOptions o;
        o.algorithm = algorithm;
        if (algorithm == "cusparse" && sh.size < 3) {  // cuSPARSE's gtsv2 takes m >= 3: refused, naming that
          Array<double> x(ex, t.d.size());
          EXPECT_THROW(solver.solve({sh.size, sh.count, layout, a.data(), b.data(), c.data()}, d.data(), x.data(), o), Error);
          continue;
        }
        Array<double> x(ex, std::span<const double>(std::vector<double>(t.d.size(), std::numeric_limits<double>::quiet_NaN())));
        solver.solve({sh.size, sh.count, layout, a.data(), b.data(), c.data()}, d.data(), x.data(), o);
        solver.check();
        const auto got = x.to_host();
        double worst = 0;
        for (std::size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::abs(got[i] - expect[i]) / std::max(1.0, std::abs(expect[i])));
        EXPECT_LE(worst, 1e-10) << algorithm << " (" << solver.description() << ") on " << sh.size << " x " << sh.count << " " << to_string(layout);
      }
    }
  }
}

TEST_P(TridiagonalSolverOn, RefusesWhatItLacksAndReportsZeroPivots) {
  const ExecutorPtr ex = executor();
  if (!ex) GTEST_SKIP() << "skipped: no CUDA device: " << cuda::device_description();
  const std::vector<double> a = {0, 1, 1}, b = {1, 1, 1}, c = {1, 1, 0}, d = {1, 1, 1};  // row 1's pivot: 1 - 1*1 = 0
  const Array<double> da(ex, std::span<const double>(a)), db(ex, std::span<const double>(b)), dc(ex, std::span<const double>(c)),
      dd(ex, std::span<const double>(d));
  Array<double> x(ex, 3);
  TridiagonalSolver<double> solver(ex);
  TridiagonalOptions o;
  o.algorithm = GetParam() == Backend::cpu ? "pcr" : "reference";
  try {
    solver.solve({3, 1, TridiagonalLayout::contiguous, da.data(), db.data(), dc.data()}, dd.data(), x.data(), o);
    ADD_FAILURE() << o.algorithm << " ran on " << to_string(GetParam());
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("known there: auto, thomas"), std::string::npos) << e.what();
  }
  o.algorithm = "thomas";
  try {
    solver.solve({3, 1, TridiagonalLayout::contiguous, da.data(), db.data(), dc.data()}, dd.data(), x.data(), o);
    solver.check();
    ADD_FAILURE() << "a zero pivot passed on " << to_string(GetParam());
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("system 0, row 1"), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(, TridiagonalSolverOn, ::testing::Values(Backend::cpu, Backend::cuda),
                         [](const ::testing::TestParamInfo<Backend>& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace hsparse
