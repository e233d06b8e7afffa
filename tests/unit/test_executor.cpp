// Executors, arrays and the one SpmvPlan on the CPU executor: the choice of
// an executor (one function, "auto" included), Array round trips, plans
// applied through Arrays and spans against the serial reference, and the
// errors for mixed executors and wrong sizes. The CUDA side is in
// tests/gpu/test_cuda_spmv.cpp (CudaExecutor.*).
#include <gtest/gtest.h>

#include <complex>
#include <limits>

#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/executor.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/kernels/csr_spmm.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "support/spmm_check.hpp"
#include "support/test_support.hpp"

namespace hsparse {
namespace {

TEST(Executor, TheChoiceIsMadeInOnePlace) {
  const ExecutorPtr cpu = make_executor("cpu");
  EXPECT_EQ(cpu->backend(), Backend::cpu);
  EXPECT_NE(cpu->description().find("OpenMP threads"), std::string::npos) << cpu->description();
  EXPECT_EQ(make_executor("auto")->backend(), cuda::device_available() ? Backend::cuda : Backend::cpu);
  try {
    make_executor("gpu");
    FAIL() << "an unknown backend was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("cuda"), std::string::npos) << "the choices are named: " << e.what();
  }
  if (!cuda::device_available()) {
    try {
      make_executor("cuda");
      FAIL() << "a CUDA executor without a device";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::unsupported) << e.what();
    }
  }
  try {
    cuda_executor(*cpu, "a test");
    FAIL() << "a CPU executor passed for a CUDA one";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("a test needs a CUDA executor"), std::string::npos) << e.what();
  }
}

TEST(Executor, ArraysRoundTripAndStartZeroed) {
  const ExecutorPtr ex = make_executor(Backend::cpu);
  const Array<double> empty(ex, 0);
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_TRUE(empty.to_host().empty());
  Array<double> a(ex, 1000);
  for (double v : a.to_host()) ASSERT_EQ(v, 0.0);
  const auto values = test::test_vector<double>(1000, 3);
  a.assign(values);
  EXPECT_EQ(a.to_host(), values);
  const Array<double> c = a.copy_of();
  EXPECT_EQ(c.to_host(), values);
  EXPECT_NE(c.data(), a.data());
  Array<double> moved = std::move(a);
  EXPECT_EQ(moved.to_host(), values);
  EXPECT_THROW(moved.assign(std::vector<double>(999)), Error);
  EXPECT_THROW((Array<double>(nullptr, 3)), Error);
}

template <class V>
void check_plan_through_arrays(Format f) {
  const ExecutorPtr ex = make_executor(Backend::cpu);
  for (const auto& [name, a64] : test::edge_case_matrices()) {
    const auto a = convert_types<V, std::int32_t>(a64);
    SpmvOptions o;
    o.format = f;
    o.layout.max_fill = 1e9;  // every edge case, however padded
    std::optional<SpmvPlan<V, std::int32_t>> plan;
    try {
      plan.emplace(ex, a, o);
    } catch (const Error& e) {
      ASSERT_EQ(e.code(), ErrorCode::invalid_argument) << name << ": " << e.what();
      continue;
    }
    EXPECT_EQ(plan->rows(), a.rows);
    EXPECT_EQ(plan->format(), f);
    const auto x = test::test_vector<V>(static_cast<std::size_t>(a.cols), 5);
    const auto y0 = test::test_vector<V>(static_cast<std::size_t>(a.rows), 6);
    const Array<V> dx(ex, std::span<const V>(x));
    Array<V> dy(ex, std::span<const V>(y0));
    plan->apply(V(2), dx, V(-1), dy);
    const double rounding = format_traits(f).value_rounding;  // csr16-single: single-precision values
    const auto c = check_spmv_result<V, std::int32_t>(a, x, V(2), V(-1), y0, dy.to_host(), rounding);
    EXPECT_TRUE(c.passed) << name << " " << plan->description() << ": " << c.message;
    // beta = 0 never reads y: poisoned y must come out right.
    std::vector<V> y(y0.size(), V(std::numeric_limits<real_type_t<V>>::quiet_NaN()));
    plan->apply(V(1), std::span<const V>(x), V(0), std::span<V>(y));
    EXPECT_TRUE((check_spmv_result<V, std::int32_t>(a, x, V(1), V(0), {}, y, rounding).passed)) << name << " " << plan->description();
  }
}

TEST(SpmvPlan, EveryFormatThroughArraysMatchesTheReference) {
  for (Format f : all_formats()) {
    check_plan_through_arrays<double>(f);
    check_plan_through_arrays<std::complex<float>>(f);
  }
}

TEST(SpmvPlan, WrongSizesAndExecutorsAreErrors) {
  const ExecutorPtr ex = make_executor(Backend::cpu);
  const auto a = io::load_matrix<double, std::int32_t>("stencil2d:n=10");
  const SpmvPlan<double, std::int32_t> plan(ex, a);
  Array<double> x(ex, 100), y(ex, 99);
  EXPECT_THROW(plan.apply(1.0, x, 0.0, y), Error);
  std::vector<double> hx(100), hy(101);
  EXPECT_THROW(plan.apply(1.0, std::span<const double>(hx), 0.0, std::span<double>(hy)), Error);
  const Array<double> no_executor;
  Array<double> y100(ex, 100);
  EXPECT_THROW(plan.apply(1.0, no_executor, 0.0, y100), Error);
  EXPECT_THROW((SpmvPlan<double, std::int32_t>(nullptr, a)), Error);
  EXPECT_THROW((SpmvPlan<double, std::int32_t>(ex, a, SpmvOptions{Format::csr, "no-such-kernel"})), Error);
}

// SpMM through the plan (support/spmm_check.hpp): CSR's, SELL's and BCSR's kernels
// (A read once per 32 columns) and the other formats column by column,
// k = 1, 5 and 33 (two passes), complex values for the kernels.
TEST(SpmvPlan, SpmmOnEverySharedMatrix) { test::check_plan_spmm_shared(make_executor(Backend::cpu), {3, 33}, {Format::csr, Format::sell, Format::bcsr}); }

TEST(SpmvPlan, SpmmMatchesTheReferenceForEveryFormat) {
  const ExecutorPtr ex = make_executor(Backend::cpu);
  for (Format f : all_formats()) test::check_plan_spmm<double>(ex, f, {1, 5, 33});
  test::check_plan_spmm<std::complex<float>>(ex, Format::csr, {1, 5, 33});  // the column path is the SpMV's, tested there
  test::check_plan_spmm<std::complex<float>>(ex, Format::sell, {1, 5, 33});
  test::check_plan_spmm<float>(ex, Format::sell, {2, 17});
  test::check_plan_spmm<std::complex<float>>(ex, Format::bcsr, {1, 5, 33});
  test::check_plan_spmm<float>(ex, Format::bcsr, {2, 17});
  for (int block : {2, 3, 5, 8}) test::check_plan_spmm<double>(ex, Format::bcsr, {1, 4, 33}, block);  // blocks not dividing the shape
  // Every vector width of the CPU row kernels (16 to 64 bytes of packed X per row): float k = 3, 5, 9 and double k = 2, 3.
  for (Format f : {Format::csr, Format::sell}) {
    test::check_plan_spmm<float>(ex, f, {3, 5, 9});
    test::check_plan_spmm<double>(ex, f, {2, 3});
  }
  // BCSR's vector kernel for each block size it is compiled for (2, 3, 4, 6, 8), and one it is not (5).
  for (int block : {2, 3, 4, 5, 6, 8}) {
    test::check_plan_spmm<float>(ex, Format::bcsr, {5, 9}, block);
    test::check_plan_spmm<double>(ex, Format::bcsr, {2, 7}, block);
  }
  const auto a = io::load_matrix<double, std::int32_t>("stencil2d:n=10");
  const SpmvPlan<double, std::int32_t> plan(ex, a);
  const DenseMatrix<double> x(ex, 100, 3);
  DenseMatrix<double> y(ex, 100, 2);
  EXPECT_THROW(plan.apply(1.0, x, 0.0, y), Error);  // 3 columns against 2
}

// SpMM on views of someone else's memory (what the Python package passes
// for CuPy blocks): leading dimensions beyond the rows, the padding between
// columns left untouched, beta != 0 reading y; SpMM kernels (CSR, SELL,
// BCSR) and the column-by-column path (COO). Bad shapes throw.
TEST(SpmvPlan, SpmmOnViewsWithLeadingDimensions) {
  const ExecutorPtr ex = make_executor(Backend::cpu);
  const auto a = io::load_matrix<double, std::int32_t>("powerlaw:rows=700");
  const long long k = 4, ldx = a.cols + 3, ldy = a.rows + 2;
  const auto xh = test::test_vector<double>(static_cast<std::size_t>(ldx * k), 31);
  const auto y0 = test::test_vector<double>(static_cast<std::size_t>(ldy * k), 32);
  for (Format f : {Format::csr, Format::sell, Format::bcsr, Format::coo}) {
    SpmvOptions o;
    o.format = f;
    const SpmvPlan<double, std::int32_t> plan(ex, a, o);
    std::vector<double> yh = y0;
    plan.apply(2.0, ConstDenseView<double>(xh.data(), a.cols, k, ldx), -1.0, DenseView<double>{yh.data(), a.rows, k, ldy});
    for (long long c = 0; c < k; ++c) {
      const std::span<const double> xc(xh.data() + c * ldx, static_cast<std::size_t>(a.cols));
      const std::span<const double> yc0(y0.data() + c * ldy, static_cast<std::size_t>(a.rows));
      const std::span<const double> yc(yh.data() + c * ldy, static_cast<std::size_t>(a.rows));
      const auto check = check_spmv_result<double, std::int32_t>(a, xc, 2.0, -1.0, yc0, yc);
      ASSERT_TRUE(check.passed) << plan.description() << " column " << c << ": " << check.message;
      for (long long i = a.rows; i < ldy; ++i) EXPECT_EQ(yh[c * ldy + i], y0[c * ldy + i]) << plan.description() << ": padding written";
    }
    EXPECT_THROW(plan.apply(1.0, ConstDenseView<double>(xh.data(), a.cols, k, a.cols - 1), 0.0, DenseView<double>{yh.data(), a.rows, k, ldy}), Error);
    EXPECT_THROW(plan.apply(1.0, ConstDenseView<double>(xh.data(), a.cols, k, ldx), 0.0, DenseView<double>{yh.data(), a.rows, k - 1, ldy}), Error);
  }
}

}  // namespace
}  // namespace hsparse
