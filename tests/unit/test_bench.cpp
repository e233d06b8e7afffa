// The benchmark's model (spmv_model.hpp) and its derived comparisons
// (speedups, conversion break-even), on numbers worked out by hand.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bench/bench.hpp"
#include "hsparse/performance/spmv_model.hpp"

namespace hsparse {
namespace {

TEST(SpmvModel, CodeBalanceMatchesTheGhostPaperForCsrInDouble) {
  // Eq. (8), double values and int32 indices, N_nzr = 10, x read once per
  // nonzero (alpha = 1): (12 + 8 + 16/10) / 2 = 10.8 bytes per flop, where
  // CSR's 12 bytes per nonzero are counted here as its stored bytes.
  const std::size_t nnz = 1000;
  EXPECT_DOUBLE_EQ(code_balance(12.0 * nnz, nnz, 100, 8, 1.0), 10.8);
  // SELL with chunk occupancy beta = 0.5 stores twice the entries: (24 + 8 + 1.6) / 2.
  EXPECT_DOUBLE_EQ(code_balance(24.0 * nnz, nnz, 100, 8, 1.0), 16.8);
}

TEST(SpmvModel, AlphaFromAMeasurementInvertsTheCodeBalance) {
  const double bytes = 12e6, bandwidth = 1e11;
  const std::size_t nnz = 1000000;
  for (double alpha : {0.1, 0.5, 1.0, 3.0}) {
    const double flops = bandwidth / code_balance(bytes, nnz, 100000, 8, alpha);  // eq. (10)
    EXPECT_NEAR(estimate_alpha(bytes, nnz, 100000, 8, flops, bandwidth), alpha, 1e-12) << alpha;
  }
}

TEST(SpmvModel, TrafficFormulas) {
  // Reguly eq. (4) and eq. (2) for 10 rows x 10 cols, 50 nonzeros, double/int32.
  EXPECT_DOUBLE_EQ(minimum_spmv_bytes(10, 10, 50, 8, 4), 50 * 12 + 10 * 12 + 10 * 8);
  EXPECT_DOUBLE_EQ(effective_spmv_bytes(10, 50, 8, 4), 50 * 20 + 10 * 12);
  EXPECT_DOUBLE_EQ(format_minimum_bytes(1000, 10, 20, 8), 1000 + 30 * 8);
}

bench::Result timed(const std::string& library, const std::string& format, double seconds, double setup, double gflops) {
  bench::Result r;
  r.library = library;
  r.format = format;
  r.time.median_s = seconds;
  r.setup_s = setup;
  r.gflops = gflops;
  return r;
}

TEST(BenchComparisons, SpeedupsAndBreakEvenAgainstTheFastestCsr) {
  std::vector<bench::Result> rs = {
      timed("cusparse", "csr", 2.0e-3, 0.10, 100),  // the fastest CSR: the reference
      timed("hsparse", "csr", 2.5e-3, 0.08, 80),
      timed("cusparse", "sell", 1.8e-3, 0.30, 111),
      timed("hsparse", "dia", 1.0e-3, 0.60, 200),  // 0.5 s more setup, 1 ms saved per product: 500
      timed("hsparse", "ell", 3.0e-3, 0.50, 67),   // slower than CSR: never pays back
  };
  rs.push_back(timed("hsparse", "coo", 1.0e-3, 0.0, 200));
  rs.back().status = "refused";
  bench::derive_comparisons(rs);
  EXPECT_TRUE(rs[0].csr_reference);
  EXPECT_FALSE(rs[1].csr_reference);
  EXPECT_DOUBLE_EQ(*rs[3].speedup_vs_baseline_csr, 2.0);
  EXPECT_DOUBLE_EQ(*rs[3].speedup_vs_baseline_best, 200.0 / 111);
  EXPECT_NEAR(*rs[3].breakeven_spmvs, 500, 1e-9);
  EXPECT_FALSE(rs[4].breakeven_spmvs.has_value());
  EXPECT_FALSE(rs[1].breakeven_spmvs.has_value());  // CSR converts nothing
  EXPECT_FALSE(rs[5].speedup_vs_baseline_csr.has_value());  // not timed: no figures
  EXPECT_EQ(bench::breakeven_text(rs[3]), "500");
  EXPECT_EQ(bench::breakeven_text(rs[4]), "never");
  EXPECT_EQ(bench::breakeven_text(rs[1]), "-");
  EXPECT_EQ(bench::breakeven_text(rs[5]), "not measured");
}

// The report's files from a run whose first row is "auto" (which carries
// its choice's time) and whose others are not: every CSV line has the
// header's columns, and the JSON reads back. (The CSV took its columns from
// the first row and read each row's by them: a column the others lacked
// crashed the H200's bench after its last matrix.)
TEST(BenchReport, EveryCsvRowHasTheHeadersColumnsWhateverTheFirstRowCarries) {
  bench::Report r;
  r.env.backend = "cpu";
  r.matrices.push_back({"stencil2d:n=10", 100, 100, 460, 5520, 0.1, 5, true, 0});
  auto automatic = timed("hsparse", "csr", 1e-5, 0.001, 92);
  automatic.matrix = "stencil2d:n=10";
  automatic.kernel = "auto: csr/static";
  automatic.automatic = true;
  automatic.choice_s = 0.002;
  auto plain = timed("hsparse", "ell", 2e-5, 0.002, 46);
  plain.matrix = "stencil2d:n=10";
  r.results = {automatic, plain};
  const auto dir = (std::filesystem::temp_directory_path() / ("hsparse-bench-report-" + std::to_string(::getpid()))).string();
  bench::write_report(r, dir);
  std::ifstream csv(dir + "/results.csv");
  std::string line;
  std::vector<std::size_t> commas;
  while (std::getline(csv, line)) commas.push_back(static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')));
  ASSERT_EQ(commas.size(), 3u);  // the header and two rows
  EXPECT_EQ(commas[1], commas[0]);
  EXPECT_EQ(commas[2], commas[0]);
  const auto back = bench::read_json(dir + "/results.json");
  ASSERT_EQ(back.results.size(), 2u);
  EXPECT_DOUBLE_EQ(back.results[0].choice_s, 0.002);
  EXPECT_DOUBLE_EQ(back.results[1].choice_s, 0.0);
  std::filesystem::remove_all(dir);
}

TEST(BenchComparisons, ASetupNoLongerThanTheFastestCsrPaysBackAtOnce) {
  // The fastest CSR kernel is the reference, whatever its own set-up; a
  // faster format converting in less time pays back from the first product.
  std::vector<bench::Result> rs = {
      timed("hsparse", "csr", 2.0e-3, 0.20, 100),  // fastest CSR, slow set-up
      timed("hsparse", "csr", 2.5e-3, 0.01, 80),   // a slower CSR with a cheap set-up
      timed("hsparse", "sell", 1.5e-3, 0.05, 133),
  };
  bench::derive_comparisons(rs);
  EXPECT_TRUE(rs[0].csr_reference);
  EXPECT_EQ(bench::breakeven_text(rs[2]), "at once");
}

TEST(BenchComparisons, WithoutACsrKernelBreakEvenIsNotMeasured) {
  std::vector<bench::Result> rs = {timed("hsparse", "sell", 1.5e-3, 0.05, 133)};
  bench::derive_comparisons(rs);
  EXPECT_EQ(bench::breakeven_text(rs[0]), "not measured");
}

TEST(BenchStatus, ARefusalIsSaidOnceAndInFull) {
  bench::Result r;
  r.status = "refused";
  r.message = "DIA refused: 791113 diagonals x 894785 rows = 707876045705 slots for 5801725 nonzeros (fill 122011.3 > limit 3)";
  EXPECT_EQ(bench::status_text(r), r.message);
  r.message = "ELL would store 38983098095 entries for 5801725 nonzeros (width 43567, fill 6719.2 > limit 20)";
  EXPECT_EQ(bench::status_text(r), "refused: " + r.message);
}

}  // namespace
}  // namespace hsparse
