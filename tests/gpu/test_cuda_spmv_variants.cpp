// The GPU-only SpMV checks: what the per-kernel suite written once for every
// executor (tests/unit/test_spmv_kernels.cpp, SpmvKernel.*/cuda_*: every
// registered GPU kernel and its parameter sweeps against the serial
// double-precision reference on the edge cases and the shared matrices,
// outputs poisoned with NaN, NaN and infinity in x; Ginkgo's
// "SimpleApplyIsEquivalentToRefWith...") cannot say: the device conversions
// against the host's, CSR slabs sized from L2, panels over many tiles,
// CSR16's wide rows, CSR adaptive's second phase, runs of block carries,
// DIA's staged windows, refusals by name, the advisor on this device's
// model. Skipped with "skipped: no CUDA device" where there is none (CI).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <optional>

#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/backends/cuda/csr_spmv.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/formats/csr16.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/kernels/csr_slabs.hpp"
#include "hsparse/backends/cuda/timing.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/tuning/advisor.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "support/test_support.hpp"

namespace hsparse::cuda {
namespace {

struct Variant {
  std::string name;
  SpmvOptions options;
};
// Runs one variant on one matrix; returns false when the plan refused it.
template <class V, class I>
bool check(const ExecutorPtr& ex, const Csr<V, I>& a, const Variant& variant, const std::string& matrix, bool with_beta) {
  std::optional<SpmvPlan<V, I>> plan;
  try {
    plan.emplace(ex, a, variant.options);
  } catch (const Error& e) {
    // Refusals only: fill limits, cuSPARSE's shape rules (BSR) or index types it lacks.
    if (e.code() != ErrorCode::invalid_argument && e.code() != ErrorCode::unsupported) throw;
    return false;
  }
  const auto x = test::test_vector<V>(static_cast<std::size_t>(a.cols), 41);
  const auto y0 = test::test_vector<V>(static_cast<std::size_t>(a.rows), 42);
  DeviceArray<V> d_x(x);
  const V nan(std::numeric_limits<real_type_t<V>>::quiet_NaN());
  std::vector<std::pair<V, V>> scalars = {{V(1), V(0)}};
  if (with_beta) scalars.push_back({V(-0.5), V(2)});
  for (const auto& [alpha, beta] : scalars) {
    DeviceArray<V> d_y(beta == V(0) ? std::vector<V>(y0.size(), nan) : y0);
    plan->apply(alpha, d_x.data(), beta, d_y.data());
    ex->synchronize();
    const auto c = check_spmv_result<V, I>(a, x, alpha, beta, y0, d_y.download(), format_traits(plan->format()).value_rounding);
    EXPECT_TRUE(c.passed) << matrix << " " << plan->description() << " (" << type_name<V>() << ", " << type_name<I>() << "): " << c.message;
  }
  return true;
}

// CSR "panels" over many panels and several tiles of rows (the variants'
// matrices fit one panel): 37 panels in one chunk, and 13 panels in three
// chunks, the last one short; real and complex, both index types.
template <class V>
void check_many_panels() {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  const ExecutorPtr ex = make_cuda_executor();
  const Variant panels{"csr_panels", SpmvOptions{Format::csr, "panels"}};
  const auto one_chunk = generators::random_uniform<double, std::int64_t>(300, 300000, 700, 11);
  const auto three_chunks = generators::random_uniform<double, std::int64_t>(2100, 100000, 200, 12);
  EXPECT_TRUE(check(ex, convert_types<V, std::int32_t>(one_chunk), panels, "random 300 x 300000", true));
  EXPECT_TRUE(check(ex, convert_types<V, std::int64_t>(one_chunk), panels, "random 300 x 300000", true));
  EXPECT_TRUE(check(ex, convert_types<V, std::int32_t>(three_chunks), panels, "random 2100 x 100000", true));
  // Its description names the shape: panels x columns, rows per tile, lanes.
  const SpmvPlan<V, std::int32_t> plan(ex, convert_types<V, std::int32_t>(three_chunks), panels.options);
  EXPECT_NE(plan.description().find("panels-"), std::string::npos) << plan.description();
}

// The advisor takes the panels for CSR on a short-wide matrix once their
// setup pays back (many products), CSR's default kernel over one product, and
// never the panels on a stencil; the plan it advises is correct. The machine
// model is this device's own, as `auto` uses it (CSR is ranked twice where
// the panels suit, with its default kernel and with the panels).
TEST(CudaCsrPanels, TheAdvisorTakesThemOnShortWideOnly) {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  const ExecutorPtr ex = make_cuda_executor();
  const MachineModel m = measured_machine("cuda");
  const auto wide = generators::random_uniform<double, std::int32_t>(300, 300000, 700, 11);
  const Advice many = advise(wide, m, 100000), one = advise(wide, m, 1);
  EXPECT_EQ(many.choice().format, Format::csr);
  EXPECT_EQ(many.choice().kernel, "panels");
  EXPECT_NE(one.choice().kernel, "panels");
  SpmvOptions o{Format::csr, "panels"};
  EXPECT_TRUE(check(ex, wide, Variant{"csr_panels", o}, "random 300 x 300000", true));
  const auto stencil = generators::stencil_2d<double, std::int32_t>(200, 200, 5);
  for (const auto& p : advise(stencil, m, 1000).ranked) {
    if (p.format == Format::csr) EXPECT_EQ(p.kernel, "adaptive");
  }
}

// Replaces row r's entries with `columns` (increasing), each of value 0.25; no columns empties it.
void replace_row(Csr<double, std::int32_t>& a, std::int32_t r, const std::vector<std::int32_t>& columns) {
  const std::int32_t first = a.row_ptr[r], last = a.row_ptr[r + 1];
  a.col_idx.erase(a.col_idx.begin() + first, a.col_idx.begin() + last);
  a.values.erase(a.values.begin() + first, a.values.begin() + last);
  a.col_idx.insert(a.col_idx.begin() + first, columns.begin(), columns.end());
  a.values.insert(a.values.begin() + first, columns.size(), 0.25);
  const std::int32_t change = static_cast<std::int32_t>(columns.size()) - (last - first);
  for (std::int32_t i = r + 1; i <= a.rows; ++i) a.row_ptr[i] += change;
}

// CSR slabs with the count from L2 (kernels/csr_slabs.hpp): a random
// matrix whose x (24 MB) is more than a third of L2 is cut into
// ceil(x / (L2 / 3)) slabs and matches the reference; one whose x fits is
// refused by name unless a count is given.
TEST(CudaCsrSlabs, TheCountComesFromL2AndTheProductMatches) {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  const ExecutorPtr ex = make_cuda_executor();
  const auto a = generators::random_uniform<double, std::int32_t>(3000000, 3000000, 3, 13);
  const SlabShape shape = csr_slab_shape(a.cols, sizeof(double), static_cast<double>(l2_cache_bytes()), 0);
  ASSERT_GE(shape.slabs, 2) << "L2 of " << l2_cache_bytes() << " bytes";
  const SpmvOptions o{Format::csr, "slabs"};
  EXPECT_TRUE(check(ex, a, Variant{"csr_slabs", o}, "random 3e6 x 3e6", true));
  const SpmvPlan<double, std::int32_t> plan(ex, a, o);
  EXPECT_NE(plan.description().find("slabs-" + std::to_string(shape.slabs) + "x" + std::to_string(shape.slab_cols)), std::string::npos)
      << plan.description();
  const auto small = generators::random_uniform<double, std::int32_t>(1000, 1000, 3, 14);
  try {
    const SpmvPlan<double, std::int32_t> refused(ex, small, o);
    ADD_FAILURE() << "a 1000-column x was cut into slabs: " << refused.description();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("fits in a third of L2"), std::string::npos) << e.what();
  }
  SpmvOptions forced = o;
  forced.params["slabs"] = 2;
  EXPECT_TRUE(check(ex, small, Variant{"csr_slabs_forced", forced}, "random 1000 x 1000, 2 slabs", true));
}

// The slabs built on the device equal the host's (csr_slabs), array by
// array, with empty rows and one long row; inconsistent row pointers are refused.
TEST(CudaCsrSlabs, DeviceConversionEqualsTheHostOne) {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  const ExecutorPtr ex = make_cuda_executor();
  auto a = generators::random_uniform<double, std::int32_t>(3000, 7000, 9, 15);
  for (std::int32_t r = 5; r < a.rows; r += 97) replace_row(a, r, {});  // empty some rows
  std::vector<std::int32_t> every_column(static_cast<std::size_t>(a.cols));
  std::iota(every_column.begin(), every_column.end(), 0);
  replace_row(a, 7, every_column);  // a row crossing every slab
  a.validate();
  const SlabShape shape = csr_slab_shape(a.cols, sizeof(double), 0, 5);
  const auto host = csr_slabs(a, shape);
  const auto staged = DeviceCsr<double, std::int32_t>::upload(a);
  const auto device = csr_slabs_from_device_csr(cuda_executor(*ex, "test"), staged, csr_slab_row_ptrs(a, shape), shape);
  ASSERT_EQ(device.size(), host.size());
  for (std::size_t s = 0; s < host.size(); ++s) {
    EXPECT_EQ(device[s].row_ptr.download(), host[s].row_ptr) << "slab " << s;
    EXPECT_EQ(device[s].col_idx.download(), host[s].col_idx) << "slab " << s;
    EXPECT_EQ(device[s].values.download(), host[s].values) << "slab " << s;
  }
  auto wrong = csr_slab_row_ptrs(a, shape);
  wrong.pop_back();
  EXPECT_THROW(csr_slabs_from_device_csr(cuda_executor(*ex, "test"), staged, wrong, shape), Error);
}

// The panels built on the device equal the host's (csr_panels), array by
// array, with empty rows and a short last tile; a refusal alike.
TEST(CudaCsrPanels, DeviceConversionEqualsTheHostOne) {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  const ExecutorPtr ex = make_cuda_executor();
  auto a = generators::random_uniform<double, std::int32_t>(2100, 100000, 200, 12);
  for (std::int32_t r = 5; r < a.rows; r += 97) replace_row(a, r, {});  // empty some rows
  a.validate();
  const PanelShape shape = csr_panel_shape(a.rows, a.cols, static_cast<long long>(a.nnz()), sizeof(double));
  const auto host = csr_panels(a, shape);
  const auto staged = DeviceCsr<double, std::int32_t>::upload(a);
  const auto device = csr_panels_from_device_csr(cuda_executor(*ex, "test"), staged, shape);
  EXPECT_EQ(device.segment_ptr.download(), host.segment_ptr);
  EXPECT_EQ(device.column.download(), host.column);
  EXPECT_EQ(device.values.download(), host.values);
  EXPECT_EQ(device.lanes, csr_panels_lanes(shape.entries_per_segment));
  const auto sparse = generators::random_uniform<double, std::int32_t>(10000, 100000, 10, 9);
  const auto staged_sparse = DeviceCsr<double, std::int32_t>::upload(sparse);
  EXPECT_THROW(csr_panels_from_device_csr(cuda_executor(*ex, "test"), staged_sparse,
                                          csr_panel_shape(sparse.rows, sparse.cols, static_cast<long long>(sparse.nnz()), sizeof(double))),
               Error);
}

TEST(CudaCsrPanels, ManyPanelsAndTilesMatchTheReferenceDouble) { check_many_panels<double>(); }
TEST(CudaCsrPanels, ManyPanelsAndTilesMatchTheReferenceFloat) { check_many_panels<float>(); }
TEST(CudaCsrPanels, ManyPanelsAndTilesMatchTheReferenceComplexDouble) { check_many_panels<std::complex<double>>(); }

// CSR16's wide rows (columns spanning 2^16 or more) among narrow and empty
// ones: the device keeps them compacted and adds their sums to their rows
// only (device_formats.hpp). One wide row of 20000 entries is split into
// pieces by the adaptive kernel, so its partials and the wide sums share
// the workspace. Both kernels, both value kinds, alpha and beta.
template <class V>
void check_csr16_wide_rows() {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  const ExecutorPtr ex = make_cuda_executor();
  Coo<double, std::int64_t> coo;
  coo.rows = 4000;
  coo.cols = 300000;
  auto put = [&](std::int64_t r, std::int64_t c) {
    coo.row_idx.push_back(r);
    coo.col_idx.push_back(c);
    coo.values.push_back(1.0 + static_cast<double>((r * 7 + c) % 11) * 0.25);
  };
  for (std::int64_t r = 0; r < coo.rows; ++r) {
    if (r % 9 == 4) continue;  // empty
    if (r == 1001) {
      for (std::int64_t c = 0; c < 20000; ++c) put(r, c * 15);  // wide and long
    } else if (r % 5 == 2) {
      for (std::int64_t j = 0; j < 6; ++j) put(r, (r * 37 + j * 50021) % coo.cols);  // wide
    } else {
      for (std::int64_t j = 0; j < 12; ++j) put(r, (r * 70 + j * 3) % coo.cols);  // narrow
    }
  }
  const auto a = convert_types<V, std::int32_t>(coo_to_csr(coo));
  ASSERT_TRUE(csr16_from_csr(a).has_wide());
  for (Format f : {Format::csr16, Format::csr16_single}) {
    for (const char* kernel : {"adaptive", "vector"}) {
      const Variant v{std::string(to_string(f)) + "_" + kernel, SpmvOptions{f, kernel}};
      EXPECT_TRUE(check(ex, a, v, "wide rows among narrow ones", true)) << v.name;
      EXPECT_TRUE(check(ex, convert_types<V, std::int64_t>(a), v, "wide rows among narrow ones, int64", true)) << v.name;
    }
  }
}

TEST(CudaCsr16, WideRowsAmongNarrowOnesDouble) { check_csr16_wide_rows<double>(); }
TEST(CudaCsr16, WideRowsAmongNarrowOnesComplexDouble) { check_csr16_wide_rows<std::complex<double>>(); }

// CSR adaptive's second phase (csr_spmv_adaptive.cu): runs of a few hundred
// short rows, one lane a row, holding rows of 40 and 600 entries that the
// lanes leave to a warp each. The schedule says such rows exist, so the
// kernel runs the phase; a stencil's schedule says none do, so it skips it.
// CSR and both CSR16s (same kernel), alpha and beta, int32 and int64.
template <class V>
void check_second_phase_rows() {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  const ExecutorPtr ex = make_cuda_executor();
  Coo<double, std::int64_t> coo;
  coo.rows = 700;
  coo.cols = 2000;
  for (std::int64_t r = 0; r < coo.rows; ++r) {
    const std::int64_t length = r % 100 == 50 ? 600 : r % 100 == 20 ? 40 : r % 100 == 77 ? 0 : 2;
    for (std::int64_t j = 0; j < length; ++j) {
      coo.row_idx.push_back(r);
      coo.col_idx.push_back((r + j * 3) % coo.cols);
      coo.values.push_back(1.0 + static_cast<double>((r * 7 + j) % 11) * 0.25);
    }
  }
  const auto a = convert_types<V, std::int32_t>(coo_to_csr(coo));
  EXPECT_TRUE(csr_adaptive_schedule(std::span<const std::int32_t>(a.row_ptr)).long_rows_in_runs);
  const auto stencil = generators::stencil_3d<V, std::int32_t>(12, 12, 12, 27);
  EXPECT_FALSE(csr_adaptive_schedule(std::span<const std::int32_t>(stencil.row_ptr)).long_rows_in_runs);
  for (Format f : {Format::csr, Format::csr16, Format::csr16_single}) {
    const Variant v{std::string(to_string(f)) + "_adaptive", SpmvOptions{f, "adaptive"}};
    EXPECT_TRUE(check(ex, a, v, "long rows among short ones", true)) << v.name;
    EXPECT_TRUE(check(ex, convert_types<V, std::int64_t>(a), v, "long rows among short ones, int64", true)) << v.name;
    EXPECT_TRUE(check(ex, stencil, v, "stencil3d 27 points, n = 12", true)) << v.name;
  }
}

TEST(CudaCsrAdaptive, LongRowsAmongShortOnesDouble) { check_second_phase_rows<double>(); }
TEST(CudaCsrAdaptive, LongRowsAmongShortOnesFloat) { check_second_phase_rows<float>(); }
TEST(CudaCsrAdaptive, LongRowsAmongShortOnesComplexDouble) { check_second_phase_rows<std::complex<double>>(); }

// Rows whose entries span many blocks of the kernels that leave one carry
// per block (COO segmented, HYB's COO tail, merge-path CSR; carries.cuh).
// Rows 0-2047 hold one entry each, so row 2048 begins COO's second block of
// 2048 entries, and its 131072 entries leave a run of exactly 64 block
// carries: two whole groups of 32 lanes in add_carries, then a group the
// run has left. Row 2049 (70000 entries) follows with 34, its run ending
// in mid-group. One entry in most other rows keeps HYB's ELL width at 1
// or more, so its tail is the long rows'; every fifth row after them is empty.
template <class V>
void check_runs_of_block_carries() {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  const ExecutorPtr ex = make_cuda_executor();
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> t;
  const std::int64_t rows = 6000, cols = 150000;
  for (std::int64_t r = 0; r < rows; ++r) {
    if (r == 2048 || r == 2049 || (r > 2049 && r % 5 == 0)) continue;
    t.emplace_back(r, (r * 37) % cols, 1.0 + r % 7);
  }
  for (std::int64_t c = 0; c < 131072; ++c) t.emplace_back(2048, c, 0.5 - (c % 9) * 0.125);
  for (std::int64_t c = 0; c < 140000; c += 2) t.emplace_back(2049, c, 1.5 - (c % 5) * 0.25);
  const auto a64 = test::from_triplets(rows, cols, t);
  const std::vector<Variant> carrying = {{"coo_segmented", SpmvOptions{Format::coo, "segmented"}},
                                         {"hyb_thread", SpmvOptions{Format::hyb, "thread"}},
                                         {"csr_merge", SpmvOptions{Format::csr, "merge"}}};
  for (const auto& v : carrying) {
    EXPECT_TRUE(check(ex, convert_types<V, std::int32_t>(a64), v, "two long adjacent rows", true)) << v.name;
    if (v.options.format == Format::hyb) {  // the tail is the long rows', not the whole matrix
      const SpmvPlan<V, std::int32_t> plan(ex, convert_types<V, std::int32_t>(a64), v.options);
      EXPECT_EQ(plan.description().find("-width0"), std::string::npos) << plan.description();
    }
    EXPECT_TRUE(check(ex, convert_types<V, std::int64_t>(a64), v, "two long adjacent rows, int64", true)) << v.name;
  }
}

TEST(CudaCarries, RunsOfManyBlockCarriesDouble) { check_runs_of_block_carries<double>(); }
TEST(CudaCarries, RunsOfManyBlockCarriesFloat) { check_runs_of_block_carries<float>(); }
TEST(CudaCarries, RunsOfManyBlockCarriesComplexDouble) { check_runs_of_block_carries<std::complex<double>>(); }

// DIA "staged" with more windows than one phase holds (format_spmv.hpp,
// dia_windows): a band of 7 diagonals (one run) and 30 diagonals 300 apart
// (a run each), 31 windows of >= 256 elements: two phases in double, four
// in complex<double>; rows near both ends have windows reaching past x.
template <class V, class I>
Csr<V, I> far_diagonals(I n) {
  std::vector<long long> offsets;
  for (int k = -15; k <= 15; ++k) {
    if (k == 0) {
      for (int o = -3; o <= 3; ++o) offsets.push_back(o);
    } else {
      offsets.push_back(300LL * k);
    }
  }
  Csr<V, I> a;
  a.rows = a.cols = n;
  for (I r = 0; r < n; ++r) {
    for (long long o : offsets) {
      const long long c = r + o;
      if (c < 0 || c >= n) continue;
      a.col_idx.push_back(static_cast<I>(c));
      a.values.push_back(V(static_cast<real_type_t<V>>(1 + (r * 7 + c * 3) % 11) / 8));
    }
    a.row_ptr.push_back(static_cast<I>(a.col_idx.size()));
  }
  return a;
}

template <class V>
void check_far_diagonals() {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  const ExecutorPtr ex = make_cuda_executor();
  const Variant staged{"dia_staged", SpmvOptions{Format::dia, "staged"}};
  for (int n : {5000, 9001, 300}) {
    EXPECT_TRUE(check(ex, far_diagonals<V, std::int32_t>(n), staged, "far diagonals n=" + std::to_string(n), true)) << "refused";
    EXPECT_TRUE(check(ex, far_diagonals<V, std::int64_t>(n), staged, "far diagonals n=" + std::to_string(n), true)) << "refused";
  }
}

TEST(CudaDiaStaged, WindowsOverSeveralPhasesMatchTheReferenceDouble) { check_far_diagonals<double>(); }
TEST(CudaDiaStaged, WindowsOverSeveralPhasesMatchTheReferenceComplexDouble) { check_far_diagonals<std::complex<double>>(); }

// A BCSR kernel that is not compiled for the block size is refused when
// the plan is made, with the kernel and the sizes it has in the message;
// so is a group of lanes by-column lacks.
TEST(CudaBcsrKernels, UncompiledBlockSizesAreRefusedByName) {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  const ExecutorPtr ex = make_cuda_executor();
  const auto a = generators::stencil_2d<double, std::int32_t>(30, 30, 5);
  for (const char* kernel : {"by-column", "by-block"}) {
    SpmvOptions o{Format::bcsr, kernel};
    o.layout.block = 7;
    try {
      SpmvPlan<double, std::int32_t> plan(ex, a, o);
      ADD_FAILURE() << kernel << " accepted block size 7";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
      EXPECT_NE(std::string(e.what()).find(kernel), std::string::npos) << e.what();
    }
  }
  SpmvOptions o{Format::bcsr, "by-column"};
  o.layout.block = 3;
  o.params["lanes"] = 12;
  try {
    SpmvPlan<double, std::int32_t> plan(ex, a, o);
    ADD_FAILURE() << "by-column accepted 12 lanes per block row";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("parameter lanes must be 4, 8, 16 or 32, not 12"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hsparse::cuda
