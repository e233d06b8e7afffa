// The host facts that size work (core/host_system.hpp), the one timing
// helper's warm-up, and the value check behind CG's symmetry refusal.
#include <gtest/gtest.h>

#include <sched.h>

#include "hsparse/analysis/matrix_analysis.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/host_system.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/generators/generators.hpp"

namespace hsparse {
namespace {

TEST(HostTopology, CoresAreThisProcesssAffinity) {
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  EXPECT_EQ(host_topology().cores, CPU_COUNT(&set));
}

TEST(HostTopology, CachesArePlausibleForTheseCores) {
  const HostTopology& t = host_topology();
  ASSERT_FALSE(t.caches.empty()) << "no cache found by " << t.source;
  int previous = 0;
  for (const auto& c : t.caches) {
    EXPECT_GT(c.level, previous);
    previous = c.level;
    EXPECT_GT(c.instances, 0);
    // The cap: never more than 16 MiB per core an instance serves, so a VM
    // reporting its host's 384-508 MiB L3 cannot size the work.
    EXPECT_LE(c.bytes, kMaxCacheBytesPerCore * static_cast<std::size_t>(c.instances) * static_cast<std::size_t>(std::max(1, t.cores)));
    if (c.capped) EXPECT_FALSE(t.note.empty());
  }
  EXPECT_EQ(last_level_cache_bytes(), t.caches.back().bytes);
  EXPECT_LE(last_level_cache_bytes(), kMaxCacheBytesPerCore * static_cast<std::size_t>(t.cores) * 8);
}

TEST(HostMemory, AvailableIsBelowTotalAndTheBudgetIsHalf) {
  const HostMemory m = host_memory();
  EXPECT_GT(m.available, 0u);
  EXPECT_LE(m.available, m.total);
  EXPECT_FALSE(m.source.empty());
  const double budget = static_cast<double>(host_memory_budget());
  EXPECT_NEAR(budget, kHostMemoryFraction * static_cast<double>(host_memory().available), 0.05 * budget + (64 << 20));
}

TEST(HostMemory, AnAllocationOverTheBudgetIsRefusedNamingSizes) {
  EXPECT_NO_THROW(require_host_memory(1 << 20, "a small thing"));
  try {
    require_host_memory(std::size_t{1} << 50, "a petabyte");
    FAIL() << "a petabyte was allowed";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::out_of_memory);
    const std::string m = e.what();
    EXPECT_NE(m.find("a petabyte needs 1048576.00 GiB of host memory"), std::string::npos) << m;
    EXPECT_NE(m.find("is available"), std::string::npos) << m;
  }
}

TEST(HostMemory, AGeneratorOverTheBudgetIsRefusedBeforeItAllocates) {
  // 10^12 rows: the row counts alone would take 8 TB.
  try {
    generators::generate<double, std::int64_t>("stencil3d:n=10000");
    FAIL() << "the generator ran";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::out_of_memory);
    EXPECT_NE(std::string(e.what()).find("generator spec 'stencil3d:n=10000'"), std::string::npos) << e.what();
  }
}

TEST(FormatBytes, UnitsAreReadable) {
  EXPECT_EQ(format_bytes(512), "512 bytes");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(32.0 * (1 << 20)), "32.0 MiB");
  EXPECT_EQ(format_bytes(1.5 * (1 << 30)), "1.50 GiB");
}

TEST(TimeFor, WarmsUpThenFillsTheMinimumTime) {
  int calls = 0;
  const auto t = time_for([&] { ++calls; }, 0.001, 7);
  EXPECT_GE(t.repetitions, 7);
  EXPECT_GT(calls, t.repetitions);  // at least one warm-up run beyond the timed ones
  // A run that cannot take less than 2 ms: no run is timed shorter, and the
  // warm-up still comes first (how many runs fit is the machine's business).
  int slow_calls = 0;
  const auto s = time_for([&] { ++slow_calls; Stopwatch w; while (w.seconds() < 0.002) {} }, 0.02, 2);
  EXPECT_GE(s.repetitions, 2);
  EXPECT_GT(slow_calls, s.repetitions);
  EXPECT_GE(s.min_s, 0.002);
}

TEST(SymmetryDefect, ZeroForSymmetricValuesAndNamesTheWorstPair) {
  const auto sym = generators::generate<double, std::int32_t>("stencil2d:n=6");
  EXPECT_EQ(symmetry_defect(sym).relative, 0.0);
  Csr<double, std::int32_t> a;  // [4 1; -1 4]: symmetric structure, not values
  a.rows = a.cols = 2;
  a.row_ptr = {0, 2, 4};
  a.col_idx = {0, 1, 0, 1};
  a.values = {4, 1, -1, 4};
  const auto d = symmetry_defect(a);
  EXPECT_NEAR(d.relative, std::sqrt(8.0 / 34.0), 1e-15);
  EXPECT_EQ(d.row + d.col, 1);
  EXPECT_EQ(std::abs(d.a_ij - d.a_ji), 2.0);
  Csr<double, std::int32_t> b = a;  // an entry on one side only
  b.row_ptr = {0, 2, 3};
  b.col_idx = {0, 1, 1};
  b.values = {4, 1, 4};
  EXPECT_NEAR(symmetry_defect(b).relative, std::sqrt(2.0 / 33.0), 1e-15);
}

}  // namespace
}  // namespace hsparse
