// The run-time tuner's logic on synthetic cost surfaces: it must reach the
// optimum of separable surfaces from any start, take the paper's first
// steps in order, refuse a gain that one noisy run fakes, and stop.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <iterator>

#include <cmath>
#include <limits>
#include <functional>
#include <map>
#include <set>

#include "hsparse/core/error.hpp"
#include "hsparse/tuning/coordinate_tuner.hpp"

namespace hsparse {
namespace {

// Reguly's three CSR vector axes, starting where the fixed rule would.
std::vector<TunerAxis> csr_vector_axes(std::size_t repeat_start, std::size_t coop_start) {
  return {{"repeat", {1, 2, 4, 8, 16, 32, 64, 128}, repeat_start, -1},
          {"coop", {1, 2, 4, 8, 16, 32}, coop_start, +1},
          {"block", {64, 96, 128, 160, 192, 224, 256, 288, 320}, 2, +1}};
}

// Runs the tuner to convergence (or `calls`) on cost(values); returns the calls used.
int drive(CoordinateTuner& t, const std::function<double(const std::vector<int>&)>& cost, int calls = 200) {
  int n = 0;
  while (!t.converged() && n < calls) {
    t.report(cost(t.next()));
    ++n;
  }
  return n;
}

TEST(CoordinateTuner, FindsTheOptimumOfASeparableSurfaceFromAnyStart) {
  // Time = sum of convex terms in log2(repeat), log2(coop) and block: optimum (8, 4, 192).
  auto cost = [](const std::vector<int>& v) {
    const double r = std::log2(v[0]) - 3, c = std::log2(v[1]) - 2, b = (v[2] - 192) / 32.0;
    return 1.0 + 0.2 * r * r + 0.3 * c * c + 0.05 * b * b;
  };
  for (std::size_t rs : {0u, 3u, 7u}) {
    for (std::size_t cs : {0u, 5u}) {
      CoordinateTuner t(csr_vector_axes(rs, cs));
      const int calls = drive(t, cost);
      ASSERT_TRUE(t.converged()) << rs << " " << cs;
      EXPECT_EQ(t.best(), (std::vector<int>{8, 4, 192})) << "start " << rs << " " << cs;
      EXPECT_LT(calls, 40);
      EXPECT_EQ(t.next(), t.best());  // converged: keeps running the best
    }
  }
}

TEST(CoordinateTuner, TakesThePapersFirstStepsInOrder) {
  // Section 6: first halve repeat, then (repeat done) double coop.
  CoordinateTuner t(csr_vector_axes(4, 2));
  EXPECT_EQ(t.next(), (std::vector<int>{16, 4, 128}));  // the fixed rule's guess
  t.report(1.0);
  EXPECT_EQ(t.next(), (std::vector<int>{8, 4, 128}));  // halve repeat
  t.report(2.0);                                         // worse: the other way
  EXPECT_EQ(t.next(), (std::vector<int>{32, 4, 128}));
  t.report(2.0);                                         // worse too: next axis
  EXPECT_EQ(t.next(), (std::vector<int>{16, 8, 128}));  // double coop
}

TEST(CoordinateTuner, ASmallGainMustRepeatBeforeItIsTaken) {
  // One axis; the step to value 2 measures 3% faster once, then as slow as the start.
  CoordinateTuner t({{"x", {1, 2, 3}, 0, +1}}, 0.02, 0.05);
  t.report(1.00);                           // start, x = 1
  EXPECT_EQ(t.next(), std::vector<int>{2});
  t.report(0.97);                           // 3%: below the confirmation threshold
  EXPECT_EQ(t.next(), std::vector<int>{2});  // measured again
  t.report(1.01);                           // not confirmed
  EXPECT_TRUE(t.converged());
  EXPECT_EQ(t.best(), std::vector<int>{1});
  // A confirmed small gain is taken.
  CoordinateTuner u({{"x", {1, 2, 3}, 0, +1}}, 0.02, 0.05);
  u.report(1.00);
  u.report(0.97);
  u.report(0.965);
  EXPECT_EQ(u.best(), std::vector<int>{2});
  EXPECT_NEAR(u.best_seconds(), 0.97, 1e-12);  // the slower of the two runs
}

TEST(CoordinateTuner, ASecondSweepFollowsACoupledOptimum) {
  // Coupled axes: the best y depends on x. One sweep is not enough; two are.
  auto cost = [](const std::vector<int>& v) {
    const double x = v[0], y = v[1];
    return 1.0 + (x - 4) * (x - 4) + (y - x) * (y - x) * 0.5;
  };
  CoordinateTuner t({{"y", {0, 1, 2, 3, 4, 5}, 0, +1}, {"x", {0, 1, 2, 3, 4, 5}, 0, +1}}, 0.02, 0.05, 4);
  drive(t, cost);
  EXPECT_TRUE(t.converged());
  EXPECT_EQ(t.best(), (std::vector<int>{4, 4}));
}

TEST(CoordinateTuner, PairMovesLeaveACoupledValley) {
  // Like SELL's C and sigma on the FEM matrix: from (1, 2) each axis alone
  // is worse, only the joint step to (0, 1) and on to (0, 0) pays.
  auto cost = [](const std::vector<int>& v) {
    const int c = v[0], s = v[1];
    if (c == 0 && s == 0) return 0.85;
    if (c == 0 && s == 1) return 0.90;
    return c == 1 && s == 2 ? 1.0 : 1.2;
  };
  CoordinateTuner t({{"C", {0, 1, 2}, 1, +1}, {"sigma", {0, 1, 2, 3}, 2, +1}});
  drive(t, cost);
  EXPECT_TRUE(t.converged());
  EXPECT_EQ(t.best(), (std::vector<int>{0, 0}));
  CoordinateTuner no_pairs({{"C", {0, 1, 2}, 1, +1}, {"sigma", {0, 1, 2, 3}, 2, +1}}, 0.02, 0.05, 2, 0);
  drive(no_pairs, cost);
  EXPECT_EQ(no_pairs.best(), (std::vector<int>{1, 2}));  // one axis at a time stays stuck
}

TEST(CoordinateTuner, LongStridesCrossAWideAxisQuickly) {
  // The H200 case: the fixed rule's repeat is 128 (index 7), the best is 1.
  // Single steps would take 8 products; doubling strides take 4.
  auto cost = [](const std::vector<int>& v) { return 1.0 + std::log2(v[0]) * 0.1 + std::abs(v[1] - 8) * 0.01 + (v[2] - 128) * (v[2] - 128) * 1e-5; };
  CoordinateTuner t(csr_vector_axes(7, 3));
  int calls = 0;
  while (t.best()[0] != 1 && calls < 20) {
    t.report(cost(t.next()));
    ++calls;
  }
  EXPECT_EQ(t.best()[0], 1);
  EXPECT_LE(calls, 5);
  drive(t, cost);
  EXPECT_EQ(t.best(), (std::vector<int>{1, 8, 128}));
}

TEST(CoordinateTuner, BadAxesAreErrors) {
  EXPECT_THROW(CoordinateTuner({{"x", {}, 0, +1}}), Error);
  EXPECT_THROW(CoordinateTuner({{"x", {1, 2}, 2, +1}}), Error);
  EXPECT_THROW(CoordinateTuner({{"x", {1, 2}, 0, 0}}), Error);
  CoordinateTuner none({});
  EXPECT_TRUE(none.converged());
}

}  // namespace
}  // namespace hsparse

// ---- fingerprint and tuning cache ----
#include "hsparse/tuning/exhaustive_search.hpp"

namespace hsparse {
namespace {

// hsparse tune's search: every configuration once, skipped and refused
// ones kept apart, and the tuner's replay finding the table's best on a
// surface with one minimum.
TEST(ExhaustiveSearch, TimesEveryConfigurationAndReplaysTheTuner) {
  const std::vector<TunerAxis> axes = {{"a", {1, 2, 3}, 0, +1}, {"b", {10, 20, 40}, 0, +1}};
  std::vector<std::vector<int>> timed;
  const SearchTable t = exhaustive_search(
      axes,
      [&](const std::vector<int>& c) {
        timed.push_back(c);
        if (c[0] == 3 && c[1] == 10) throw Error(ErrorCode::invalid_argument, "refused");
        return 1.0 + std::abs(c[0] - 2) + std::abs(c[1] - 20) / 10.0;
      },
      [](const std::vector<int>& c) { return c[0] == 1 && c[1] == 40; });
  EXPECT_EQ(timed.size(), 8u);  // 9 less the skipped one
  EXPECT_EQ(timed.front(), (std::vector<int>{1, 10}));
  EXPECT_EQ(timed.back(), (std::vector<int>{3, 40}));
  EXPECT_EQ(t.points.size(), 7u);
  EXPECT_EQ(t.refused, 1);
  ASSERT_NE(t.best(), nullptr);
  EXPECT_EQ(t.best()->configuration, (std::vector<int>{2, 20}));
  EXPECT_FALSE(t.seconds_at({3, 10}).has_value());
  EXPECT_DOUBLE_EQ(*t.seconds_at({2, 40}), 3.0);
  int steps = 0;
  EXPECT_EQ(replay_tuner(t, 100, &steps), (std::vector<int>{2, 20}));
  EXPECT_LT(steps, 100);  // converged on its own, within the budget
  replay_tuner(t, 2, &steps);
  EXPECT_EQ(steps, 2);  // the budget stops it
  EXPECT_THROW(exhaustive_search({{"empty", {}, 0, +1}}, [](const std::vector<int>&) { return 1.0; }), Error);
}

}  // namespace
}  // namespace hsparse

#include <filesystem>
#include <fstream>

#include "hsparse/generators/generators.hpp"
#include "hsparse/formats/footprint.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/tuning/fingerprint.hpp"
#include "hsparse/tuning/tuning_cache.hpp"

namespace hsparse {
namespace {

TEST(Fingerprint, StructureDecidesValuesDoNot) {
  auto a = io::load_matrix<double, std::int32_t>("fem:n=5,block=3");
  const auto fa = fingerprint(a);
  auto b = a;  // a copy: same structure, other arrays
  for (auto& v : b.values) v *= 2;
  const auto fb = fingerprint(b);
  EXPECT_TRUE(fa.same_structure(fb));
  EXPECT_FALSE(fa.same_arrays(fb));
  EXPECT_TRUE(fa.same_arrays(fingerprint(a)));
  EXPECT_EQ(fa.key(), fb.key());
  b.col_idx[b.col_idx.size() / 2] += 1;  // one column index changed (a small matrix: every index is hashed)
  EXPECT_FALSE(fa.same_structure(fingerprint(b)));
  const auto c = io::load_matrix<double, std::int32_t>("fem:n=5,block=2");
  EXPECT_FALSE(fa.same_structure(fingerprint(c)));
}

TEST(TuningCache, StoresFindsAndSurvivesADamagedFile) {
  const std::string path = ::testing::TempDir() + "/hsparse_tuning_cache_test.json";
  std::filesystem::remove(path);
  {
    TuningCache c(path);
    EXPECT_FALSE(c.find("k1").has_value());
    c.store("k1", {4, 8, 128});
    c.store("k2", {1, 2, 3});
  }
  TuningCache again(path);  // a second process
  EXPECT_EQ(again.find("k1"), (std::vector<int>{4, 8, 128}));
  EXPECT_EQ(again.find("k2"), (std::vector<int>{1, 2, 3}));
  std::ofstream(path) << "{\"entries\": {\"k1\": [1, 2";  // truncated
  TuningCache damaged(path);
  EXPECT_FALSE(damaged.find("k1").has_value());
  damaged.store("k3", {7});
  EXPECT_EQ(TuningCache(path).find("k3"), std::vector<int>{7});
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace hsparse

// ---- the advisor ----
#include "hsparse/tuning/advisor.hpp"
#include "hsparse/kernels/spmv_registry.hpp"
#include "hsparse/kernels/csr_vector_rows.hpp"

namespace hsparse {
namespace {

TEST(Advisor, RhsReuseAlphaFollowsTheColumnPattern) {
  const auto random = io::load_matrix<double, std::int32_t>("random:rows=200000,per_row=8");
  const auto stencil = io::load_matrix<double, std::int32_t>("stencil3d:n=60,points=27");
  const double small_cache = 256 * 1024;  // x (1.6 MB) does not fit
  EXPECT_GT(rhs_reuse_alpha(random, small_cache), 6.0);   // every entry a new 64-byte line: 8 values
  EXPECT_LT(rhs_reuse_alpha(stencil, small_cache), 1.0);  // neighbouring rows share lines
  const double big_cache = 1e9;                           // x cached: read once
  EXPECT_DOUBLE_EQ(rhs_reuse_alpha(random, big_cache), 200000.0 / static_cast<double>(random.nnz()));
}

// Long rows (hub rows of a circuit matrix) are counted whole: their random
// columns over x each take a line, which a sample of 64 stretches of 256
// rows would almost never see (4 hubs among 400000 rows).
TEST(Advisor, RhsReuseCountsLongRowsWhole) {
  const auto circuit = io::load_matrix<double, std::int32_t>("circuit:n=400000,dense_rows=4,dense_fraction=0.2");
  const double small_cache = 256 * 1024;  // x (3.2 MB) does not fit
  double hub_entries = 0, hub_lines = 0;
  const double mean = static_cast<double>(circuit.nnz()) / static_cast<double>(circuit.rows);
  for (std::int32_t r = 0; r < circuit.rows; ++r) {
    if (circuit.row_ptr[r + 1] - circuit.row_ptr[r] <= 256 * mean) continue;
    std::set<std::int32_t> lines;
    for (std::int32_t k = circuit.row_ptr[r]; k < circuit.row_ptr[r + 1]; ++k) lines.insert(circuit.col_idx[k] / 8);
    hub_entries += circuit.row_ptr[r + 1] - circuit.row_ptr[r];
    hub_lines += static_cast<double>(lines.size());
  }
  ASSERT_GT(hub_entries, 0.1 * static_cast<double>(circuit.nnz()));  // the hubs hold a tenth of the entries or more
  const RhsReuse reuse = rhs_reuse(circuit, small_cache);
  EXPECT_DOUBLE_EQ(reuse.long_entries, hub_entries);
  EXPECT_DOUBLE_EQ(reuse.long_values, 8 * hub_lines);
  EXPECT_GE(reuse.alpha * static_cast<double>(circuit.nnz()), reuse.long_values);
  EXPECT_GT(reuse.alpha, 0.5);  // the sample alone: about 0.2 (the short rows' neighbours share lines)
  // x cached: read once, long rows or not; their lines are still reported (HYB's tail reads them).
  const RhsReuse cached = rhs_reuse(circuit, 1e9);
  EXPECT_DOUBLE_EQ(cached.alpha, 400000.0 / static_cast<double>(circuit.nnz()));
  EXPECT_DOUBLE_EQ(cached.long_entries, hub_entries);
  EXPECT_DOUBLE_EQ(cached.long_values, 8 * hub_lines);
}

// HYB's tail holds the hub rows, so its predicted product pays their x
// lines at COO's gather rate (the tail's kernel) where x is larger than
// the cache: the same matrix with the hub rows' columns packed together
// (fewer lines) is predicted faster by at least that difference. Charged
// the matrix's mean x traffic instead, HYB was ranked ahead of CSR adaptive
// on circuit n = 1e7, where it ran 13% behind (H200).
TEST(Advisor, HybPaysItsLongRowsXLinesInTheTail) {
  const auto scattered = io::load_matrix<double, std::int32_t>("circuit:n=400000,dense_rows=4,dense_fraction=0.2");
  auto packed = scattered;
  const double mean = static_cast<double>(scattered.nnz()) / static_cast<double>(scattered.rows);
  for (std::int32_t r = 0; r < packed.rows; ++r) {
    if (packed.row_ptr[r + 1] - packed.row_ptr[r] <= 256 * mean) continue;
    for (std::int32_t k = packed.row_ptr[r]; k < packed.row_ptr[r + 1]; ++k) packed.col_idx[k] = k - packed.row_ptr[r];
  }
  MachineModel gpu;  // H200-like, with a cache x (3.2 MB) does not fit
  gpu.cache_bytes = 256 * 1024;
  gpu.resident_threads = 1024;  // every kernel hides its latency: the difference is the lines alone
  const auto hyb_seconds = [&](const Csr<double, std::int32_t>& a) {
    const Advice advice = advise(a, gpu, 1000, 0);
    const auto hyb = std::find_if(advice.ranked.begin(), advice.ranked.end(), [](const FormatPrediction& p) { return p.format == Format::hyb; });
    EXPECT_TRUE(hyb != advice.ranked.end() && hyb->possible);
    return hyb->spmv_seconds;
  };
  const double extra_values = rhs_reuse(scattered, gpu.cache_bytes).long_values - rhs_reuse(packed, gpu.cache_bytes).long_values;
  ASSERT_GT(extra_values, 0.25 * static_cast<double>(scattered.nnz()));  // the hubs: a tenth of the entries, 8 values a line
  const double gather = spmv_registration(Backend::cuda, Format::coo).model.gather_efficiency;
  EXPECT_GE(hyb_seconds(scattered) - hyb_seconds(packed), 0.99 * extra_values * sizeof(double) / (gpu.read_bytes_per_s * gather));
}

// HYB's setup on the GPU: a tail costs its extraction (kHybTailOnDevice),
// a matrix that fits the width does not.
TEST(Advisor, HybSetupChargesItsTail) {
  const SpmvKernelModel& hyb = spmv_registration(Backend::cuda, Format::hyb).model;
  ASSERT_NE(hyb.conversion_seconds_per_byte_for, nullptr);
  FormatFootprint no_tail, tail;
  tail.hyb_coo_entries = 1000;
  EXPECT_GT(hyb.conversion_seconds_per_byte_for(tail), 5 * hyb.conversion_seconds_per_byte_for(no_tail));
}

TEST(Advisor, PicksByTotalTimeOverTheProducts) {
  MachineModel gpu;  // H200-like, but a small cache and few threads, so these test matrices count as large
  gpu.cache_bytes = 256 * 1024;
  gpu.resident_threads = 16 * 1024;
  const auto stencil = io::load_matrix<double, std::int32_t>("stencil3d:n=60,points=27");
  const auto once = advise(stencil, gpu, 1);
  EXPECT_EQ(once.choice().format, Format::csr);  // one product: no conversion pays back
  const auto many = advise(stencil, gpu, 100000);
  EXPECT_TRUE(many.choice().format == Format::dia || many.choice().format == Format::ell) << to_string(many.choice().format);
  // Against the slowest format the advisor could run (the ranking ends with
  // the impossible ones, e.g. csr16-single without a value tolerance).
  const FormatPrediction* slowest = nullptr;
  for (const auto& p : once.ranked) if (p.possible) slowest = &p;
  ASSERT_NE(slowest, nullptr);
  EXPECT_GT(many.choice().predicted_gflops, slowest->predicted_gflops);
  const auto fem = io::load_matrix<double, std::int32_t>("fem:n=20,block=6");
  const auto f = advise(fem, gpu, 100000);
  EXPECT_EQ(f.choice().format, Format::bcsr);
  EXPECT_EQ(f.choice().block, 6);
  const auto random = io::load_matrix<double, std::int32_t>("random:rows=200000,per_row=8");
  for (const auto& p : advise(random, gpu, 100000).ranked) {
    if (p.format == Format::dia) EXPECT_FALSE(p.possible);  // refused, ranked last
  }
  EXPECT_FALSE(advise(random, gpu, 100000).ranked.back().possible);
}

// A conversion is taken only when predicted to gain more than 5% on the
// total; otherwise CSR, with the reason. Over a range of product counts the
// stencil's conversions go from not paying back, through the margin, to
// paying back: both outcomes must occur, and the rule must hold at each.
TEST(Advisor, ConvertsOnlyForMoreThanTheMargin) {
  MachineModel gpu;
  gpu.cache_bytes = 256 * 1024;
  gpu.resident_threads = 16 * 1024;
  const auto stencil = io::load_matrix<double, std::int32_t>("stencil3d:n=60,points=27");
  int kept_by_margin = 0, converted = 0;
  for (long long n = 1; n <= 100000; n = n * 5 / 4 + 1) {
    const Advice a = advise(stencil, gpu, n);
    const FormatPrediction* csr = nullptr;
    const FormatPrediction* best = nullptr;  // the fastest total of any possible format
    for (const auto& p : a.ranked) {
      if (!p.possible) continue;
      if (p.format == Format::csr && csr == nullptr) csr = &p;
      if (best == nullptr || p.total_seconds < best->total_seconds) best = &p;
    }
    ASSERT_NE(csr, nullptr);
    if (best->format != Format::csr && csr->total_seconds > best->total_seconds * (1 + kGpuConversionMargin)) {
      EXPECT_EQ(a.choice().format, best->format) << "N = " << n;
      ++converted;
    } else {
      EXPECT_EQ(a.choice().format, Format::csr) << "N = " << n;
      if (best->format != Format::csr) {
        EXPECT_NE(a.choice().why.find("within 3%"), std::string::npos) << "N = " << n << ": " << a.choice().why;
        ++kept_by_margin;
      }
    }
  }
  EXPECT_GT(kept_by_margin, 0);
  EXPECT_GT(converted, 0);
  // The CPU keeps the least total (its model underpredicts SELL's gain).
  MachineModel cpu;
  cpu.backend = "cpu";
  cpu.cache_bytes = 256 * 1024;
  for (long long n : {1LL, 100LL, 1000LL, 100000LL}) {
    const Advice a = advise(stencil, cpu, n);
    for (const auto& p : a.ranked) {
      if (p.possible) EXPECT_LE(a.choice().total_seconds, p.total_seconds) << "N = " << n << ": " << to_string(p.format);
    }
  }
}

// A kernel limited by its instructions keeps its bytes per SM cycle: on a
// card with less bandwidth and the same SMs it reaches a larger share of
// it, up to its memory-bound efficiency (issue 37: CSR adaptive at 0.83 of
// the H200's bandwidth, 0.95-0.99 of the H100's).
TEST(Advisor, SmBoundKernelsReachMoreOfASlowerMemory) {
  MachineModel h200;  // the defaults: 4.5 TB/s, 132 SMs x 1.98 GHz
  MachineModel slower = h200;
  slower.read_bytes_per_s = h200.read_bytes_per_s / 1.5;
  const SpmvKernelModel& csr = spmv_registration(Backend::cuda, Format::csr).model;
  ASSERT_NE(csr.sm_bound, nullptr);
  const double on_h200 = kernel_efficiency(h200, Format::csr, 1), on_slower = kernel_efficiency(slower, Format::csr, 1);
  EXPECT_LT(on_h200, csr.efficiency(1));
  EXPECT_NEAR(on_h200, csr.sm_bound(1) * h200.sm_cycles_per_s / h200.read_bytes_per_s, 1e-12);
  EXPECT_GT(on_slower, on_h200);
  EXPECT_LE(on_slower, csr.efficiency(1));
  // Fewer SMs, same bandwidth: a smaller share.
  MachineModel fewer_sms = h200;
  fewer_sms.sm_cycles_per_s = h200.sm_cycles_per_s / 2;
  EXPECT_NEAR(kernel_efficiency(fewer_sms, Format::csr, 1), on_h200 / 2, 1e-12);
  // No bound: ELL on the GPU, every CPU kernel.
  EXPECT_DOUBLE_EQ(kernel_efficiency(slower, Format::ell, 1), spmv_registration(Backend::cuda, Format::ell).model.efficiency(1));
  MachineModel cpu = machine_shape("cpu");
  EXPECT_EQ(cpu.sm_cycles_per_s, 0);
  EXPECT_EQ(cpu.simd_width, 8);
  for (Format f : all_formats()) {
    EXPECT_DOUBLE_EQ(kernel_efficiency(cpu, f, 2), spmv_registration(Backend::cpu, f).model.efficiency(2)) << to_string(f);
  }
}

// The CPU: SELL and CSR stream alike, SELL's SIMD gathers are faster
// (backends/openmp/plans/csr.cpp). So where x stays in the cache CSR
// keeps the matrix (no conversion to pay back), and where rows gather
// scattered columns from an x larger than the cache SELL is taken.
TEST(Advisor, CpuSellOnlyWhereItsGathersPay) {
  MachineModel cpu = machine_shape("cpu");
  cpu.read_bytes_per_s = 20e9;
  cpu.cache_bytes = 1 << 20;  // a quarter holds the stencil's x (216 KB), not the random matrix's (1.6 MB)
  EXPECT_EQ(advise(io::load_matrix<double, std::int32_t>("stencil3d:n=30,points=27"), cpu, 1000).choice().format, Format::csr);
  EXPECT_EQ(advise(io::load_matrix<double, std::int32_t>("random:per_row=10,rows=200000"), cpu, 1000).choice().format, Format::sell);
}

// The CSR family's kernel on the GPU (kernels/csr_vector_rows.hpp): the
// vector kernel on rows of even length where its time beats adaptive's with
// adaptive's preprocessing: CSR on the H200 (adaptive bound by the SMs), not
// CSR on the H100 beyond a few products, CSR16 and csr16-single on both;
// adaptive on short or uneven rows.
TEST(Advisor, CsrVectorOnEvenRowsWhereItBeatsAdaptiveWithItsPreprocessing) {
  MachineModel h200;
  h200.read_bytes_per_s = 4.62e12;  // measured by the bench
  MachineModel h100 = h200;
  h100.read_bytes_per_s = 3.08e12;
  const auto kernel_of = [](const Csr<double, std::int32_t>& a, const MachineModel& m, Format format = Format::csr, long long products = 1000) {
    for (const auto& p : advise(a, m, products, 1e-6).ranked) {
      if (p.format == format && p.kernel != "panels") return p.kernel;
    }
    return std::string("none");
  };
  const auto csr_kernel = [&](const Csr<double, std::int32_t>& a, const MachineModel& m) { return kernel_of(a, m); };
  const auto fem = io::load_matrix<double, std::int32_t>("fem:block=3,n=20");  // 73 a row, spread 0.18
  EXPECT_EQ(csr_kernel(fem, h200), "vector");
  EXPECT_EQ(kernel_of(fem, h200, Format::csr, 1000000), "vector");  // faster per product: at any count
  EXPECT_EQ(csr_kernel(fem, h100), "adaptive");
  const auto banded = io::load_matrix<double, std::int32_t>("banded:bandwidth=16,n=30000");  // 33 a row
  EXPECT_EQ(csr_kernel(banded, h200), "vector");
  // Short even rows: a tie per product on the H200 (adaptive's bound 0.83
  // against the vector's 0.81), so adaptive's preprocessing decides: the
  // vector kernel over a thousand products, adaptive over a million.
  const auto stencil = io::load_matrix<double, std::int32_t>("stencil3d:n=30,points=27");  // 25 a row
  const auto short_banded = io::load_matrix<double, std::int32_t>("banded:bandwidth=6,n=30000");  // 13 a row
  for (const auto* a : {&stencil, &short_banded}) {
    EXPECT_EQ(csr_kernel(*a, h200), "vector");
    EXPECT_EQ(kernel_of(*a, h200, Format::csr, 1000000), "adaptive");
    EXPECT_EQ(kernel_of(*a, h100, Format::csr, 1000000), "adaptive");
  }
  // CSR16 and csr16-single: their adaptive kernels are slower per product
  // on the H200, so the vector kernel at any count.
  for (const auto* a : {&fem, &stencil, &short_banded}) {
    for (Format f : {Format::csr16, Format::csr16_single}) {
      EXPECT_EQ(kernel_of(*a, h200, f, 1000000), "vector") << to_string(f);
    }
  }
  // On the H100 CSR adaptive streams ahead of the vector kernel (above:
  // adaptive from a thousand products), but CSR16's and csr16-single's
  // adaptive kernels were measured behind their vector ones there too.
  for (Format f : {Format::csr16, Format::csr16_single}) EXPECT_EQ(kernel_of(fem, h100, f, 1000000), "vector") << to_string(f);
  // Over a few products CSR adaptive's preprocessing is not repaid on the H100 either.
  EXPECT_EQ(kernel_of(fem, h100, Format::csr, 10), "vector");
  // Setup: adaptive's row blocks counted, the vector kernel's none; CSR16's
  // device conversion where no row is wide, the host's where one is.
  const auto prediction = [](const Csr<double, std::int32_t>& a, const MachineModel& m, Format format, long long products) {
    for (const auto& p : advise(a, m, products, 1e-6).ranked) {
      if (p.format == format && p.kernel != "panels") return p;
    }
    return FormatPrediction{};
  };
  const FormatPrediction adaptive = prediction(stencil, h200, Format::csr, 1000000);
  ASSERT_EQ(adaptive.kernel, "adaptive");
  EXPECT_NEAR(adaptive.conversion_seconds, kCsrAdaptivePreprocessSecondsPerByte * adaptive.matrix_bytes, 1e-3 * adaptive.conversion_seconds);
  EXPECT_GT(adaptive.conversion_seconds, 0);
  EXPECT_EQ(prediction(stencil, h200, Format::csr, 1000).conversion_seconds, 0);  // the vector kernel
  const auto narrow = io::load_matrix<double, std::int32_t>("banded:bandwidth=6,n=70000");
  auto wide = narrow;  // row 0 spans 2^16 columns and more
  wide.col_idx.insert(wide.col_idx.begin() + wide.row_ptr[1], wide.cols - 1);
  wide.values.insert(wide.values.begin() + wide.row_ptr[1], 1.0);
  for (std::size_t r = 1; r < wide.row_ptr.size(); ++r) ++wide.row_ptr[r];
  ASSERT_NO_THROW(wide.validate());
  for (Format f : {Format::csr16, Format::csr16_single}) {
    const FormatPrediction on_device = prediction(narrow, h200, f, 1000), on_host = prediction(wide, h200, f, 1000);
    EXPECT_GT(on_host.conversion_seconds / on_host.matrix_bytes, 50 * on_device.conversion_seconds / on_device.matrix_bytes) << to_string(f);
  }
  // Complex csr16-single is rounded on the host.
  Csr<std::complex<double>, std::int32_t> complex_banded;
  complex_banded.rows = short_banded.rows;
  complex_banded.cols = short_banded.cols;
  complex_banded.row_ptr = short_banded.row_ptr;
  complex_banded.col_idx = short_banded.col_idx;
  complex_banded.values.assign(short_banded.values.begin(), short_banded.values.end());
  const auto complex_setup = [&](Format format) {
    for (const auto& p : advise(complex_banded, h200, 1000, 1e-6).ranked) {
      if (p.format == format) return p.conversion_seconds / p.matrix_bytes;
    }
    return 0.0;
  };
  EXPECT_GT(complex_setup(Format::csr16_single), 50 * complex_setup(Format::csr16));
  // Rows shorter than the regime's: adaptive.
  const auto very_short = io::load_matrix<double, std::int32_t>("banded:bandwidth=2,n=30000");  // 5 a row
  ASSERT_LT(row_length_statistics(very_short).mean_length, kCsrVectorMinMeanRow);
  EXPECT_EQ(csr_kernel(very_short, h200), "adaptive");
  EXPECT_EQ(kernel_of(very_short, h200, Format::csr16), "adaptive");
  // Uneven: rows of 8 and 120 entries in turn (mean 64, spread 0.88), near the diagonal.
  Csr<double, std::int32_t> uneven;
  uneven.rows = uneven.cols = 30000;
  for (std::int32_t r = 0; r < uneven.rows; ++r) {
    const std::int32_t length = r % 2 ? 120 : 8, first = std::max(0, std::min(r - length / 2, uneven.cols - length));
    for (std::int32_t k = 0; k < length; ++k) {
      uneven.col_idx.push_back(first + k);
      uneven.values.push_back(1.0);
    }
    uneven.row_ptr.push_back(static_cast<std::int32_t>(uneven.col_idx.size()));
  }
  ASSERT_GT(row_length_statistics(uneven).mean_length, kCsrVectorMinMeanRow);
  EXPECT_EQ(csr_kernel(uneven, h200), "adaptive");
  MachineModel cpu = h200;
  cpu.backend = "cpu";  // the CPU has no such rule: its CSR kernel stays the registration's default
  EXPECT_EQ(csr_kernel(fem, cpu), spmv_registration(Backend::cpu, Format::csr).kernels.front().name);
  // The regime's edges.
  RowStatistics rows;
  rows.mean_length = kCsrVectorMinMeanRow;
  rows.coefficient_of_variation = kCsrVectorMaxRowSpread;
  EXPECT_TRUE(csr_vector_suits(rows));
  rows.mean_length = kCsrVectorMinMeanRow - 0.1;
  EXPECT_FALSE(csr_vector_suits(rows));
  rows.mean_length = kCsrVectorMinMeanRow;
  rows.coefficient_of_variation = kCsrVectorMaxRowSpread + 0.01;
  EXPECT_FALSE(csr_vector_suits(rows));
}

}  // namespace
}  // namespace hsparse

// ---- the CPU handle ----
#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/dense/dense_matrix.hpp"
#include "hsparse/tuning/spmv_handle.hpp"
#include "support/test_support.hpp"

namespace hsparse {
namespace {

TEST(CpuHandle, TuningProductsAreCorrectAndTheCacheIsUsed) {
  const std::string cache = ::testing::TempDir() + "/hsparse_cpu_handle_cache.json";
  std::filesystem::remove(cache);
  const auto a = io::load_matrix<double, std::int32_t>("powerlaw:rows=20000");
  const auto x = test::test_vector<double>(static_cast<std::size_t>(a.cols), 3);
  const auto y0 = test::test_vector<double>(static_cast<std::size_t>(a.rows), 4);
  HandleOptions o;
  o.format = Format::sell;
  o.cache_path = cache;
  SpmvHandle<double, std::int32_t> h(make_executor(Backend::cpu), a, o);
  EXPECT_TRUE(h.matches(a));
  EXPECT_EQ(h.origin(), "tuning");
  int calls = 0;
  for (; calls < 60 && h.tuning(); ++calls) {
    std::vector<double> y = y0;
    h.apply(0.5, x, -1.0, y);
    const auto c = check_spmv_result<double, std::int32_t>(a, x, 0.5, -1.0, y0, y);
    ASSERT_TRUE(c.passed) << "call " << calls << " (" << h.description() << "): " << c.message;
  }
  EXPECT_FALSE(h.tuning()) << "not converged in 60 calls";
  EXPECT_LE(calls, 40);  // max_tuning_calls
  EXPECT_EQ(h.origin(), "tuned");
  SpmvHandle<double, std::int32_t> again(make_executor(Backend::cpu), a, o);
  EXPECT_EQ(again.origin(), "cache");
  auto layout = [](const std::string& d) { return d.substr(0, d.find('/')); };  // "sell-C-sigma"; the SIMD kernel is timed anew
  EXPECT_EQ(layout(again.description()), layout(h.description()));
  std::vector<double> y(static_cast<std::size_t>(a.rows));
  again.apply(1.0, x, 0.0, y);
  EXPECT_TRUE((check_spmv_result<double, std::int32_t>(a, x, 1.0, 0.0, {}, y).passed));
  const auto b = a;  // same structure, other arrays: the handle is not for it
  EXPECT_FALSE(h.matches(b));
  std::filesystem::remove(cache);
}

// Block products (SpMM) through a handle, tuning or not, in the advisor's
// format and in SELL (which has its own SpMM kernel): each column is checked
// as a product of its own; Y is poisoned for beta = 0.
TEST(CpuHandle, BlockProductsMatchTheReferenceColumnByColumn) {
  const auto a = io::load_matrix<double, std::int32_t>("powerlaw:rows=5000");
  const ExecutorPtr cpu = make_executor(Backend::cpu);
  const long long k = 5;
  const auto xh = test::test_vector<double>(static_cast<std::size_t>(a.cols * k), 12);
  const DenseMatrix<double> x(cpu, a.cols, k, std::span<const double>(xh));
  for (const bool sell : {false, true}) {
    HandleOptions o;
    o.use_cache = false;
    if (sell) o.format = Format::sell;
    SpmvHandle<double, std::int32_t> h(cpu, a, o);
    // The stored matrix: at least the values, and SELL's padding beyond CSR's bytes.
    EXPECT_GE(h.matrix_bytes(), a.values.size() * sizeof(double)) << h.description();
    if (sell) EXPECT_GE(h.matrix_bytes(), a.values.size() * (sizeof(double) + sizeof(std::int32_t))) << h.description();
    for (int round = 0; round < 3; ++round) {  // while tuning and after single products moved it on
      const std::vector<double> nan(static_cast<std::size_t>(a.rows * k), std::numeric_limits<double>::quiet_NaN());
      DenseMatrix<double> y(cpu, a.rows, k, std::span<const double>(nan));
      if (round == 2) {
        h.apply(2.0, x.view(), 0.0, y.view());  // the views' overload (device arrays from Python)
      } else {
        h.apply(2.0, x, 0.0, y);
      }
      const auto yh = y.to_host();
      for (long long c = 0; c < k; ++c) {
        const std::span<const double> xc(xh.data() + c * a.cols, static_cast<std::size_t>(a.cols));
        const std::span<const double> yc(yh.data() + c * a.rows, static_cast<std::size_t>(a.rows));
        const auto check = check_spmv_result<double, std::int32_t>(a, xc, 2.0, 0.0, {}, yc);
        ASSERT_TRUE(check.passed) << h.description() << " column " << c << ": " << check.message;
      }
      std::vector<double> y1(static_cast<std::size_t>(a.rows));
      h.apply(1.0, std::span<const double>(xh.data(), static_cast<std::size_t>(a.cols)), 0.0, y1);  // a tuning step
    }
    DenseMatrix<double> wrong(cpu, a.rows + 1, k);
    EXPECT_THROW(h.apply(1.0, x, 0.0, wrong), Error);
  }
}

TEST(CpuHandle, RealMatricesThroughTheTuningHandle) {
  const auto dir = test::shared_matrix_dir();
  if (!dir) GTEST_SKIP() << "skipped: shared matrices folder not found (set HSPARSE_MATRICES)";
  for (const char* name : {"bcsstk16", "cage10", "1138_bus"}) {
    const auto a = io::load_matrix<double, std::int32_t>(*dir + "/" + name + ".mtx.gz");
    const auto x = test::test_vector<double>(static_cast<std::size_t>(a.cols), 11);
    for (const bool sell : {true, false}) {
      HandleOptions o;
      o.use_cache = false;
      if (sell) o.format = Format::sell;  // tuned over the products
      SpmvHandle<double, std::int32_t> h(make_executor(Backend::cpu), a, o);
      for (int call = 0; call < 45; ++call) {
        std::vector<double> y(static_cast<std::size_t>(a.rows), std::numeric_limits<double>::quiet_NaN());
        h.apply(1.0, x, 0.0, y);
        const auto c = check_spmv_result<double, std::int32_t>(a, x, 1.0, 0.0, {}, y);
        ASSERT_TRUE(c.passed) << name << " call " << call << " (" << h.description() << "): " << c.message;
      }
      EXPECT_FALSE(h.tuning()) << name;
    }
  }
}

TEST(CpuHandle, TheAdvisorPicksTheFormatWhenNoneIsGiven) {
  const auto fem = io::load_matrix<double, std::int32_t>("fem:n=12,block=6");
  HandleOptions o;
  o.spmv_count = 100000;
  o.use_cache = false;
  SpmvHandle<double, std::int32_t> h(make_executor(Backend::cpu), fem, o);
  EXPECT_EQ(h.origin(), "advisor");
  EXPECT_EQ(h.format(), Format::bcsr);
  const auto x = test::test_vector<double>(static_cast<std::size_t>(fem.cols), 8);
  std::vector<double> y(static_cast<std::size_t>(fem.rows));
  h.apply(1.0, x, 0.0, y);
  EXPECT_TRUE((check_spmv_result<double, std::int32_t>(fem, x, 1.0, 0.0, {}, y).passed));
}

// SELL is advised at the sigma its bytes were counted at, and the plan runs
// it there: on a matrix with hub rows the CPU's default sigma (256) pads a
// hub's chunk neighbours to its length, sorting all rows does not.
TEST(Advisor, SellRunsAtTheSigmaItsBytesWereCountedAt) {
  const auto a = io::load_matrix<double, std::int32_t>("circuit:n=30000");
  const MachineModel m = machine_shape("cpu");
  const Advice advice = advise(a, m, 1000);
  const FormatPrediction* sell = nullptr;
  for (const auto& p : advice.ranked) {
    if (p.format == Format::sell) sell = &p;
  }
  ASSERT_NE(sell, nullptr);
  std::size_t least = std::numeric_limits<std::size_t>::max();
  for (std::int64_t sigma : {std::int64_t{1}, std::int64_t{256}, std::int64_t{4096}, static_cast<std::int64_t>(a.rows)}) {
    least = std::min(least, sell_occupancy(a, m.simd_width, sigma).bytes);
  }
  EXPECT_LE(static_cast<double>(sell_occupancy(a, m.simd_width, sell->sigma).bytes), 1.01 * static_cast<double>(least)) << "sigma " << sell->sigma;
  EXPECT_LT(least, sell_occupancy(a, m.simd_width, 256).bytes) << "the hub rows should pad at sigma 256";
  const SpmvOptions o = prediction_options(*sell);
  EXPECT_EQ(o.format, Format::sell);
  EXPECT_EQ(o.layout.sigma, sell->sigma);
  const SpmvPlan<double, std::int32_t> plan(make_executor(Backend::cpu), a, o);
  EXPECT_NE(plan.description().find("-" + std::to_string(sell->sigma) + "/"), std::string::npos) << plan.description();
  const auto x = test::test_vector<double>(static_cast<std::size_t>(a.cols), 9);
  std::vector<double> y(static_cast<std::size_t>(a.rows), std::nan(""));
  plan.apply(1.0, std::span<const double>(x), 0.0, std::span<double>(y));
  EXPECT_TRUE((check_spmv_result<double, std::int32_t>(a, x, 1.0, 0.0, {}, y).passed));
  // Past 262144 rows the CPU sorts in windows, never the whole matrix
  // (advisor.cpp, kCpuSellMaxSortRows: a whole sort ran 1.3-1.6x slower);
  // the GPU's scope still reaches every row.
  const auto big = io::load_matrix<double, std::int32_t>("circuit:n=600000");
  const auto sell_sigma = [&](const MachineModel& shape) {
    for (const auto& p : advise(big, shape, 1000).ranked) {
      if (p.format == Format::sell) return p.sigma;
    }
    return std::int64_t{-1};
  };
  EXPECT_EQ(sell_sigma(m), 262144) << "the hub rows pad less the wider the window";
  EXPECT_EQ(sell_sigma(machine_shape("cuda")), big.rows);
  // Rows of equal length: no sorting, whatever scope ties for the fewest bytes.
  const auto random = io::load_matrix<double, std::int32_t>("random:per_row=10,rows=20000");
  for (const auto& p : advise(random, m, 1000).ranked) {
    if (p.format == Format::sell) EXPECT_EQ(p.sigma, 1);
  }
}

// The machine model keeps the highest read bandwidth it is offered, in the
// process and in the tuning cache: a figure measured under load (the first
// auto of a fresh machine, beside the tests) gives way to the bench's idle
// one, and a lower figure never replaces a higher. In a child process with
// its own cache file: the model is process-wide.
TEST(MachineModel, KeepsTheHighestReadBandwidthItIsOffered) {
  const auto cache = std::filesystem::temp_directory_path() / ("hsparse-machine-" + std::to_string(::getpid()) + ".json");
  EXPECT_EXIT(
      {
        ::setenv("HSPARSE_TUNING_CACHE", cache.c_str(), 1);
        const double measured = measured_machine("cpu").read_bytes_per_s;  // measured here, and stored
        bool ok = measured > 0;
        remember_read_bandwidth("cpu", measured * 100, 32.0 * (1 << 20));
        ok = ok && std::abs(measured_machine("cpu").read_bytes_per_s / (measured * 100) - 1) < 1e-3;
        remember_read_bandwidth("cpu", measured * 10, 32.0 * (1 << 20));  // lower: ignored
        ok = ok && std::abs(measured_machine("cpu").read_bytes_per_s / (measured * 100) - 1) < 1e-3;
        std::ifstream in(cache);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        // The cache holds the higher figure, in MB/s.
        ok = ok && text.find(std::to_string(static_cast<int>(std::min(measured * 100 * 1e-6, 2e9)))) != std::string::npos;
        std::exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
  std::filesystem::remove(cache);
}

}  // namespace
}  // namespace hsparse
