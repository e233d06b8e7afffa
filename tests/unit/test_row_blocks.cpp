// CSR-Adaptive's work blocks (kernels/row_blocks.hpp): whatever the row
// lengths, the blocks cover every row once, tile the nonzeros in order,
// respect the budgets, and number the pieces of split rows contiguously.
#include <gtest/gtest.h>

#include "hsparse/core/error.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/kernels/row_blocks.hpp"
#include "support/test_support.hpp"

namespace hsparse {
namespace {

void check_blocks(const std::vector<std::int64_t>& row_ptr, long long block_nnz, long long piece_nnz, long long max_rows,
                  const std::string& name) {
  const RowBlocks b = adaptive_row_blocks(std::span<const std::int64_t>(row_ptr), block_nnz, piece_nnz, max_rows);
  const long long rows = static_cast<long long>(row_ptr.size()) - 1;
  ASSERT_EQ(b.blocks.size() % 4, 0u) << name;
  long long next_row = 0, next_nnz = 0, next_slot = 0;
  std::size_t long_row = 0;
  for (std::size_t i = 0; i < b.blocks.size(); i += 4) {
    const long long r0 = b.blocks[i], r1 = b.blocks[i + 1], k0 = b.blocks[i + 2], k1 = b.blocks[i + 3];
    ASSERT_EQ(k0, next_nnz) << name << " block " << i / 4 << ": the nonzeros must be tiled in order";
    ASSERT_LE(k0, k1) << name;
    next_nnz = k1;
    if (r1 < 0) {  // a piece of a split row
      ASSERT_LE(k1 - k0, piece_nnz) << name;
      const long long length = row_ptr[static_cast<std::size_t>(r0) + 1] - row_ptr[static_cast<std::size_t>(r0)];
      const long long pieces = (length + piece_nnz - 1) / piece_nnz;
      ASSERT_LE(k1 - k0, length / pieces + 1) << name << ": a row's pieces are of equal length";
      ASSERT_GE(k1 - k0, length / pieces) << name << ": a row's pieces are of equal length";
      const long long slot = -r1 - 1;
      ASSERT_EQ(slot, next_slot) << name << ": slots numbered in order";
      ++next_slot;
      ASSERT_LT(long_row * 3 + 2, b.long_rows.size()) << name;
      const long long lr = b.long_rows[long_row * 3], first = b.long_rows[long_row * 3 + 1], end = b.long_rows[long_row * 3 + 2];
      ASSERT_EQ(r0, lr) << name;
      ASSERT_TRUE(slot >= first && slot < end) << name;
      if (slot + 1 == end) {  // the row's last piece ends the row
        ASSERT_EQ(k1, row_ptr[static_cast<std::size_t>(lr) + 1]) << name;
        ASSERT_EQ(r0, next_row) << name;
        ++next_row;
        ++long_row;
      }
      continue;
    }
    ASSERT_EQ(r0, next_row) << name << ": rows covered once, in order";
    ASSERT_GT(r1, r0) << name;
    ASSERT_EQ(k0, row_ptr[static_cast<std::size_t>(r0)]) << name;
    ASSERT_EQ(k1, row_ptr[static_cast<std::size_t>(r1)]) << name;
    if (r1 - r0 > 1) {  // a run of short rows: both budgets hold
      ASSERT_LE(k1 - k0, block_nnz) << name;
      ASSERT_LE(r1 - r0, max_rows) << name;
    } else {
      ASSERT_LE(k1 - k0, piece_nnz) << name << ": a single row beyond piece_nnz must be split";
    }
    next_row = r1;
  }
  EXPECT_EQ(next_row, rows) << name;
  EXPECT_EQ(next_nnz, rows >= 0 && !row_ptr.empty() ? row_ptr.back() : 0) << name;
  EXPECT_EQ(next_slot, b.slots) << name;
  EXPECT_EQ(long_row * 3, b.long_rows.size()) << name;
}

TEST(RowBlocks, CoverEveryRowAndTileTheNonzeros) {
  for (const auto& [name, m] : test::edge_case_matrices()) {
    std::vector<std::int64_t> rp(m.row_ptr.begin(), m.row_ptr.end());
    if (rp.empty()) rp.push_back(0);
    check_blocks(rp, 2048, 16384, 512, name);
    check_blocks(rp, 2048, 2048, 512, name + " (pieces of a block)");
    check_blocks(rp, 2048, 4096, 512, name + " (the GPU's budgets)");
    check_blocks(rp, 8, 32, 4, name + " (tiny budgets)");  // forces every kind of block on small matrices
  }
  const auto p = io::load_matrix<double, std::int64_t>("powerlaw:rows=30000,long_rows=3,long_fraction=0.5");
  check_blocks(std::vector<std::int64_t>(p.row_ptr.begin(), p.row_ptr.end()), 2048, 16384, 512, "powerlaw");
}

// The kernel's lanes per row of a run, and which rows its second phase takes.
TEST(RowBlocks, RunWidthFillsTheBlock) {
  EXPECT_EQ(adaptive_run_width(1, 256), 32);
  EXPECT_EQ(adaptive_run_width(8, 256), 32);
  EXPECT_EQ(adaptive_run_width(9, 256), 16);
  EXPECT_EQ(adaptive_run_width(75, 256), 2);  // the 27-point stencil's runs: 2048 / 27 rows
  EXPECT_EQ(adaptive_run_width(129, 256), 1);
  EXPECT_EQ(adaptive_run_width(512, 256), 1);
  EXPECT_FALSE(adaptive_second_phase_row(64, 2, 32));
  EXPECT_TRUE(adaptive_second_phase_row(65, 2, 32));
  EXPECT_FALSE(adaptive_second_phase_row(100000, 32, 32));  // a warp already
}

// Runs with a row past 32 entries a lane are found, wherever the run is;
// rows alone in their block (one row, or pieces) never count.
TEST(RowBlocks, FindRunsHoldingSecondPhaseRows) {
  auto holds = [](const std::vector<std::int64_t>& lengths) {
    std::vector<std::int64_t> rp{0};
    for (auto l : lengths) rp.push_back(rp.back() + l);
    const std::span<const std::int64_t> row_ptr(rp);
    return runs_hold_second_phase_rows(adaptive_row_blocks(row_ptr, 2048, 4096, 512), row_ptr, 256, 32);
  };
  std::vector<std::int64_t> short_rows(3000, 2);
  EXPECT_FALSE(holds(short_rows));
  auto with_long = short_rows;
  with_long[2500] = 600;  // a run of ~700 rows, one lane each: 600 > 32
  EXPECT_TRUE(holds(with_long));
  auto stencil_like = std::vector<std::int64_t>(5000, 27);  // runs of 75 rows, 2 lanes each: 27 <= 64
  EXPECT_FALSE(holds(stencil_like));
  stencil_like[4000] = 65;  // 65 > 64 in its run of 2-lane rows
  EXPECT_TRUE(holds(stencil_like));
  std::vector<std::int64_t> alone = {2, 2, 5000, 2, 2};  // the 5000-entry row is cut into pieces, blocks of its own
  EXPECT_FALSE(holds(alone));
  std::vector<std::int64_t> block_row = {3000, 2000};  // each fills a block of its own (one row)
  EXPECT_FALSE(holds(block_row));
  EXPECT_FALSE(holds({}));
  // The scan runs in parallel over the blocks: one such row in the first
  // block, or in one of the last of ~2700, is found whichever thread reads
  // it (the very last block holds 50 rows, 4 lanes each: 65 stays there).
  auto many = std::vector<std::int64_t>(200000, 27);
  EXPECT_FALSE(holds(many));
  many.front() = 65;
  EXPECT_TRUE(holds(many));
  many.front() = 27;
  many[many.size() - 100] = 65;
  EXPECT_TRUE(holds(many));
  many[many.size() - 100] = 27;
  many.back() = 65;
  EXPECT_FALSE(holds(many));
  // The real thing: a power law's long rows sit in runs of short ones.
  const auto p = io::load_matrix<double, std::int32_t>("powerlaw:rows=30000,long_rows=3,long_fraction=0.5");
  const std::span<const std::int32_t> prp(p.row_ptr);
  EXPECT_TRUE(runs_hold_second_phase_rows(adaptive_row_blocks(prp, 2048, 4096, 512), prp, 256, 32));
}

TEST(RowBlocks, BadBudgetsAreErrors) {
  const std::vector<std::int32_t> rp = {0, 1, 2};
  EXPECT_THROW(adaptive_row_blocks(std::span<const std::int32_t>(rp), 0, 16, 4), Error);
  EXPECT_THROW(adaptive_row_blocks(std::span<const std::int32_t>(rp), 32, 16, 4), Error);
  EXPECT_THROW(adaptive_row_blocks(std::span<const std::int32_t>(rp), 8, 16, 0), Error);
}

}  // namespace
}  // namespace hsparse
