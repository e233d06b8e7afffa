// CSR SpMV: the reference against a dense computation by hand; the OpenMP
// kernel (both schedules) against the reference on every edge case, in every
// value type, with alpha/beta and NaN-poisoned outputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "support/test_support.hpp"

namespace hsparse {
namespace {

template <class V>
V poison() {
  return V(std::numeric_limits<real_type_t<V>>::quiet_NaN());
}

TEST(ReferenceCsrSpmv, MatchesHandComputedValues) {
  // A = [1 0 2; 0 0 0; 3 4 0], x = [1 2 3]: A x = [7, 0, 11]
  Csr<double, int> a;
  a.rows = a.cols = 3;
  a.row_ptr = {0, 2, 2, 4};
  a.col_idx = {0, 2, 0, 1};
  a.values = {1, 2, 3, 4};
  const std::vector<double> x = {1, 2, 3};
  std::vector<double> y(3, poison<double>());
  reference::csr_spmv<double, int>(1.0, a, x, 0.0, y);
  EXPECT_EQ(y, (std::vector<double>{7, 0, 11}));
  // y = 2 A x - 1 y
  reference::csr_spmv<double, int>(2.0, a, x, -1.0, y);
  EXPECT_EQ(y, (std::vector<double>{7, 0, 11}));
}

template <class V>
class CsrSpmvTyped : public ::testing::Test {};
using ValueTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(CsrSpmvTyped, ValueTypes);

TYPED_TEST(CsrSpmvTyped, ReferenceMatchesDenseProduct) {
  using V = TypeParam;
  for (const auto& [name, a64] : test::edge_case_matrices()) {
    if (a64.rows * a64.cols > 5'000'000) continue;
    const auto a = convert_types<V, std::int32_t>(a64);
    const auto dense = test::to_dense(a);
    const auto x = test::test_vector<V>(static_cast<std::size_t>(a.cols), 3);
    std::vector<V> y(static_cast<std::size_t>(a.rows), poison<V>());
    reference::csr_spmv<V, std::int32_t>(V(1), a, x, V(0), y);
    for (std::int32_t r = 0; r < a.rows; ++r) {
      std::complex<double> expected = 0;
      double scale = 0;
      for (std::int32_t c = 0; c < a.cols; ++c) {
        const auto p = std::complex<double>(dense[static_cast<std::size_t>(r) * a.cols + c]) * std::complex<double>(x[c]);
        expected += p;
        scale += std::abs(p);
      }
      const double tol = 4.0 * (a.row_length(r) + 2) * std::numeric_limits<real_type_t<V>>::epsilon() * scale + 1e-300;
      ASSERT_LE(std::abs(std::complex<double>(y[r]) - expected), tol) << name << " row " << r;
    }
  }
}

TYPED_TEST(CsrSpmvTyped, OpenmpMatchesReferenceOnEdgeCases) {
  using V = TypeParam;
  for (const auto& [name, a64] : test::edge_case_matrices()) {
    for (const bool wide_index : {false, true}) {
      for (const auto schedule : {openmp::Schedule::static_rows, openmp::Schedule::guided_rows}) {
        for (const auto& [alpha, beta] : {std::pair{V(1), V(0)}, std::pair{V(2.5), V(-0.5)}}) {
          auto run = [&](const auto& a) {
            using I = typename std::decay_t<decltype(a)>::index_type;
            const auto x = test::test_vector<V>(static_cast<std::size_t>(a.cols), 7);
            const auto y0 = test::test_vector<V>(static_cast<std::size_t>(a.rows), 8);
            std::vector<V> y = beta == V(0) ? std::vector<V>(y0.size(), poison<V>()) : y0;
            openmp::csr_spmv<V, I>(alpha, a, x, beta, y, schedule);
            const auto check = check_spmv_result<V, I>(a, x, alpha, beta, y0, y);
            EXPECT_TRUE(check.passed) << name << ": " << check.message;
          };
          if (wide_index) run(convert_types<V, std::int64_t>(a64));
          else run(convert_types<V, std::int32_t>(a64));
        }
      }
    }
  }
}

TEST(CsrSpmv, SizeMismatchIsAnError) {
  Csr<double, int> a;
  a.rows = 2;
  a.cols = 3;
  a.row_ptr = {0, 0, 0};
  std::vector<double> x(2), y(2);
  EXPECT_THROW((reference::csr_spmv<double, int>(1.0, a, x, 0.0, y)), Error);
  EXPECT_THROW((openmp::csr_spmv<double, int>(1.0, a, x, 0.0, y)), Error);
}

TEST(CsrSpmv, CheckerCatchesWrongAndUnwrittenResults) {
  const auto a = test::edge_case_matrices()[8].matrix;  // a stencil
  const auto x = test::test_vector<double>(static_cast<std::size_t>(a.cols), 1);
  std::vector<double> y(static_cast<std::size_t>(a.rows));
  reference::csr_spmv<double, std::int64_t>(1.0, a, x, 0.0, y);
  EXPECT_TRUE((check_spmv_result<double, std::int64_t>(a, x, 1.0, 0.0, {}, y).passed));
  auto wrong = y;
  wrong[17] *= 1.0 + 1e-9;
  const auto c = check_spmv_result<double, std::int64_t>(a, x, 1.0, 0.0, {}, wrong);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.worst_row, 17);
  auto unwritten = y;
  unwritten[5] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE((check_spmv_result<double, std::int64_t>(a, x, 1.0, 0.0, {}, unwritten).passed));
}

TEST(CsrSpmv, ScheduleRuleFollowsEquation15) {
  // Small matrices (in cache) and regular ones run static; large irregular ones guided.
  EXPECT_EQ(openmp::choose_schedule(1 << 10, 5.0), openmp::Schedule::static_rows);
  EXPECT_EQ(openmp::choose_schedule(std::size_t{1} << 40, 0.1), openmp::Schedule::static_rows);
  EXPECT_EQ(openmp::choose_schedule(std::size_t{1} << 40, 3.0), openmp::Schedule::guided_rows);
}

// The rows sorted by length within windows (CsrSortedRows): a permutation
// that keeps each row in its window, lengths non-increasing there, rows of
// one length in their order; the entries are the row's own.
TEST(CsrSortedRows, SortsRowsByLengthWithinWindows) {
  const auto a = io::load_matrix<double, int>("powerlaw:min=2.5,rows=5000");
  const auto s = openmp::csr_sorted_rows(a);
  ASSERT_EQ(s.row_of.size(), static_cast<std::size_t>(a.rows));
  EXPECT_NO_THROW(s.rows.validate());
  std::vector<int> seen(static_cast<std::size_t>(a.rows), 0);
  const auto length = [&a](int r) { return a.row_ptr[r + 1] - a.row_ptr[r]; };
  for (int i = 0; i < a.rows; ++i) {
    const int r = s.row_of[static_cast<std::size_t>(i)];
    ++seen[static_cast<std::size_t>(r)];
    EXPECT_EQ(r / openmp::kSortedRowWindow, i / openmp::kSortedRowWindow) << "stored row " << i;
    EXPECT_EQ(s.rows.row_ptr[i + 1] - s.rows.row_ptr[i], length(r));
    EXPECT_TRUE(std::equal(s.rows.col_idx.begin() + s.rows.row_ptr[i], s.rows.col_idx.begin() + s.rows.row_ptr[i + 1], a.col_idx.begin() + a.row_ptr[r]));
    if (i % openmp::kSortedRowWindow == 0) continue;
    const int prev = s.row_of[static_cast<std::size_t>(i) - 1];
    EXPECT_GE(length(prev), length(r)) << "stored row " << i;
    if (length(prev) == length(r)) EXPECT_LT(prev, r) << "stored row " << i;
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), a.rows) << "not a permutation";
}

// The CPU plan's default CSR kernel sorts the rows where most rows differ
// in length from the one before (a power law), not on a stencil nor on a
// circuit (rows of one length, and hubs); its products and SpMM match the
// reference, with alpha and beta.
TEST(CsrSortedRows, ThePlanSortsWhereRowLengthsVary) {
  const ExecutorPtr cpu = make_executor(Backend::cpu);
  const auto a = io::load_matrix<double, int>("powerlaw:min=2.5,rows=200000");
  ASSERT_TRUE(openmp::sort_rows_by_length(a));
  const SpmvPlan<double, int> plan(cpu, a, SpmvOptions{Format::csr});
  EXPECT_EQ(plan.description(), "csr/sorted");
  const auto x = test::test_vector<double>(static_cast<std::size_t>(a.cols), 3);
  const auto y0 = test::test_vector<double>(static_cast<std::size_t>(a.rows), 4);
  std::vector<double> y = y0;
  plan.apply(2.0, std::span<const double>(x), 0.5, std::span<double>(y));
  EXPECT_TRUE((check_spmv_result<double, int>(a, x, 2.0, 0.5, y0, y).passed));
  // SpMM, three columns: each column as its own product.
  const long long k = 3;
  std::vector<double> xs(static_cast<std::size_t>(a.cols * k)), ys(static_cast<std::size_t>(a.rows * k));
  for (long long j = 0; j < k; ++j) {
    const auto xj = test::test_vector<double>(static_cast<std::size_t>(a.cols), 10 + static_cast<std::uint64_t>(j));
    const auto yj = test::test_vector<double>(static_cast<std::size_t>(a.rows), 20 + static_cast<std::uint64_t>(j));
    std::copy(xj.begin(), xj.end(), xs.begin() + j * a.cols);
    std::copy(yj.begin(), yj.end(), ys.begin() + j * a.rows);
  }
  const std::vector<double> ys0 = ys;
  plan.apply(2.0, ConstDenseView<double>(xs.data(), a.cols, k, a.cols), 0.5, DenseView<double>{ys.data(), a.rows, k, a.rows});
  for (long long j = 0; j < k; ++j) {
    const std::span<const double> xj(xs.data() + j * a.cols, static_cast<std::size_t>(a.cols));
    const std::span<const double> y0j(ys0.data() + j * a.rows, static_cast<std::size_t>(a.rows)), yj(ys.data() + j * a.rows, static_cast<std::size_t>(a.rows));
    EXPECT_TRUE((check_spmv_result<double, int>(a, xj, 2.0, 0.5, y0j, yj).passed)) << "column " << j;
  }
  const auto stencil = io::load_matrix<double, int>("stencil3d:points=27,n=20");
  const SpmvPlan<double, int> regular(cpu, stencil, SpmvOptions{Format::csr});
  EXPECT_EQ(regular.description(), "csr/static");
  const auto circuit = io::load_matrix<double, int>("circuit:n=300000");
  EXPECT_FALSE(openmp::sort_rows_by_length(circuit));
  const SpmvPlan<double, int> hubs(cpu, circuit, SpmvOptions{Format::csr});
  EXPECT_EQ(hubs.description().find("sorted"), std::string::npos) << hubs.description();
  // One row, and none: nothing to compare.
  EXPECT_FALSE(openmp::sort_rows_by_length(io::load_matrix<double, int>("powerlaw:min=2.5,rows=1")));
}

}  // namespace
}  // namespace hsparse
