// Issue 62: one SpmvHandle shared by threads (its mutex serializes the
// products while the tuner rebuilds the plan between them), and x and y
// overlapping in memory, which every apply() of a plan or a handle refuses.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "hsparse/core/error.hpp"
#include "hsparse/dense/dense_matrix.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/tuning/spmv_handle.hpp"
#include "support/test_support.hpp"

namespace hsparse {
namespace {

// y = A x by a plain loop over the rows, and each row's forward-error bound
// (4 eps (length + 2) sum |a||x|, as the kernel checks use).
struct Reference {
  std::vector<double> y, bound;
};
Reference serial_product(const Csr<double, std::int32_t>& a, const std::vector<double>& x) {
  Reference r{std::vector<double>(static_cast<std::size_t>(a.rows)), std::vector<double>(static_cast<std::size_t>(a.rows))};
  const double eps = std::numeric_limits<double>::epsilon();
  for (std::int32_t row = 0; row < a.rows; ++row) {
    double sum = 0, magnitude = 0;
    for (std::int32_t k = a.row_ptr[row]; k < a.row_ptr[row + 1]; ++k) {
      sum += a.values[k] * x[a.col_idx[k]];
      magnitude += std::abs(a.values[k] * x[a.col_idx[k]]);
    }
    r.y[row] = sum;
    r.bound[row] = 4 * eps * (a.row_length(row) + 2) * magnitude + std::numeric_limits<double>::min();
  }
  return r;
}

// The first row where y leaves the reference's bound, or -1.
long long first_wrong_row(const Reference& r, const std::vector<double>& y) {
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (!(std::abs(y[i] - r.y[i]) <= r.bound[i])) return static_cast<long long>(i);
  }
  return -1;
}

TEST(HandleSharing, EightThreadsOnOneTuningHandleEachGetTheSerialProduct) {
  const auto a = io::load_matrix<double, std::int32_t>("powerlaw:rows=20000");
  HandleOptions o;
  o.format = Format::sell;  // the CPU tunes SELL's C and sigma: a new plan per guess, made between products
  o.use_cache = false;      // tune now, whatever an earlier run stored
  SpmvHandle<double, std::int32_t> h(make_executor(Backend::cpu), a, o);
  ASSERT_TRUE(h.tuning());
  constexpr int kThreads = 8, kProducts = 12;
  std::vector<std::vector<double>> xs;
  std::vector<Reference> references;
  for (int t = 0; t < kThreads; ++t) {
    xs.push_back(test::test_vector<double>(static_cast<std::size_t>(a.cols), 100 + t));
    references.push_back(serial_product(a, xs.back()));
  }
  std::vector<long long> wrong(kThreads, -1);
  std::vector<int> wrong_call(kThreads, -1);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int call = 0; call < kProducts && wrong[t] < 0; ++call) {
        std::vector<double> y(static_cast<std::size_t>(a.rows), std::numeric_limits<double>::quiet_NaN());
        h.apply(1.0, std::span<const double>(xs[t]), 0.0, std::span<double>(y));
        (void)h.tuning(), (void)h.configuration(), (void)h.description();  // the accessors, read while others tune
        wrong[t] = first_wrong_row(references[t], y);
        if (wrong[t] >= 0) wrong_call[t] = call;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(wrong[t], -1) << "thread " << t << ", product " << wrong_call[t] << ": first wrong row";
  EXPECT_EQ(h.calls(), kThreads * kProducts);
}

// The message names x and y and says what to do.
void expect_overlap_refused(const std::function<void()>& product) {
  try {
    product();
    ADD_FAILURE() << "an overlap of x and y was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("x and y overlap"), std::string::npos) << e.what();
  }
}

Csr<double, std::int32_t> square_matrix() { return io::load_matrix<double, std::int32_t>("stencil2d:n=14"); }

TEST(SpmvOverlap, PlanRefusesYOverlappingXAsSpansPointersAndArrays) {
  const auto a = square_matrix();
  const auto cpu = make_executor(Backend::cpu);
  const SpmvPlan<double, std::int32_t> plan(cpu, a);
  const auto n = static_cast<std::size_t>(a.rows);
  std::vector<double> v = test::test_vector<double>(2 * n, 5);
  const std::span<const double> x(v.data(), n);
  expect_overlap_refused([&] { plan.apply(1.0, x, 0.0, std::span<double>(v.data(), n)); });          // out = x
  expect_overlap_refused([&] { plan.apply(1.0, x, 0.0, std::span<double>(v.data() + n - 1, n)); });  // y's first entry is x's last
  expect_overlap_refused([&] { plan.apply(1.0, v.data() + 1, 0.0, v.data()); });
  Array<double> both(cpu, x);
  expect_overlap_refused([&] { plan.apply(1.0, both, 0.0, both); });
}

TEST(SpmvOverlap, PlanRefusesOverlappingBlocksInSpmm) {
  const auto a = square_matrix();
  const auto cpu = make_executor(Backend::cpu);
  const SpmvPlan<double, std::int32_t> plan(cpu, a);
  const long long n = a.rows, k = 3;
  std::vector<double> v = test::test_vector<double>(static_cast<std::size_t>(n * (k + 1)), 6);
  // Y's columns start one column after X's: X's last two columns are Y's first two.
  expect_overlap_refused([&] { plan.apply(1.0, ConstDenseView<double>(v.data(), n, k, n), 0.0, DenseView<double>{v.data() + n, n, k, n}); });
}

TEST(SpmvOverlap, HandleRefusesYOverlappingXWhetherTuningOrNot) {
  const auto a = square_matrix();
  const auto n = static_cast<std::size_t>(a.rows);
  for (const bool tune : {true, false}) {
    HandleOptions o;
    o.format = Format::sell;
    o.use_cache = false;
    o.tune = tune;
    SpmvHandle<double, std::int32_t> h(make_executor(Backend::cpu), a, o);
    std::vector<double> v = test::test_vector<double>(n, 7);
    const std::vector<double> before = v;
    expect_overlap_refused([&] { h.apply(1.0, std::span<const double>(v), 0.0, std::span<double>(v)); });
    expect_overlap_refused([&] { h.apply(1.0, v.data(), 0.0, v.data()); });
    EXPECT_EQ(v, before) << "a refused product wrote y";
    EXPECT_EQ(h.calls(), 0) << "a refused product counted as a call";
  }
}

TEST(SpmvOverlap, AdjacentXAndYAreNoOverlap) {
  const auto a = square_matrix();
  const SpmvPlan<double, std::int32_t> plan(make_executor(Backend::cpu), a);
  const auto n = static_cast<std::size_t>(a.rows);
  std::vector<double> v = test::test_vector<double>(2 * n, 8);
  const std::vector<double> x(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n));
  plan.apply(1.0, std::span<const double>(v.data(), n), 0.0, std::span<double>(v.data() + n, n));  // y right after x
  const std::vector<double> y(v.begin() + static_cast<std::ptrdiff_t>(n), v.end());
  EXPECT_EQ(first_wrong_row(serial_product(a, x), y), -1);
}

}  // namespace
}  // namespace hsparse
