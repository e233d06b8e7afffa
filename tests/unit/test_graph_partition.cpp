// The graph cut of a distributed matrix (distributed/graph_partition.hpp):
// METIS's parts as a renumbering, the symmetric permutation, and the cost
// of a cut.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "hsparse/core/error.hpp"
#include "hsparse/distributed/graph_partition.hpp"
#include "hsparse/generators/generators.hpp"
#include "support/test_support.hpp"

namespace hsparse::distributed {
namespace {

std::vector<std::int64_t> shuffled(std::int64_t n, unsigned seed) {
  std::vector<std::int64_t> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  std::shuffle(p.begin(), p.end(), std::mt19937(seed));
  return p;
}

TEST(GraphPartition, PermuteSymmetricRenumbersRowsAndColumnsAlike) {
  const auto a = test::from_triplets(4, 4, {{0, 0, 1.0}, {0, 3, 2.0}, {1, 2, 3.0}, {2, 1, 4.0}, {3, 0, 5.0}, {3, 3, 6.0}});
  const std::vector<std::int64_t> order{3, 1, 0, 2};
  const auto b = permute_symmetric(a, order);
  b.validate();
  const auto da = test::to_dense(a), db = test::to_dense(b);
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t j = 0; j < 4; ++j) EXPECT_EQ(db[i * 4 + j], da[static_cast<std::size_t>(order[i]) * 4 + static_cast<std::size_t>(order[j])]) << i << "," << j;
  }
  EXPECT_THROW(permute_symmetric(a, {0, 1, 1, 2}), Error);  // not a permutation
  EXPECT_THROW(permute_symmetric(a, {0, 1, 2}), Error);     // too short
}

TEST(GraphPartition, CutCostCountsCutNonzerosAndDistinctGhosts) {
  // Rows 0-1 on rank 0, 2-3 on rank 1: entries (0,2), (0,3), (1,2) and (3,0) cross.
  const auto a = test::from_triplets(4, 4, {{0, 0, 1.0}, {0, 2, 1.0}, {0, 3, 1.0}, {1, 2, 1.0}, {2, 2, 1.0}, {3, 0, 1.0}});
  RowPartition p;
  p.offsets = {0, 2, 4};
  const CutCost c = cut_cost(a, p);
  EXPECT_EQ(c.cut_nonzeros, 4);
  EXPECT_EQ(c.halo_volume, 3);  // rank 0 needs x2, x3; rank 1 needs x0
}

TEST(GraphPartition, MetisFindsTheStructureAScrambledStencilHides) {
  const auto grid = generators::stencil_2d<double, std::int64_t>(40, 40, 5);
  if (!built_with_metis()) {
    EXPECT_THROW(metis_cut(grid, 4), Error);
    GTEST_SKIP() << "skipped: this hsparse was built without METIS (libmetis-dev)";
  }
  // The stencil's rows in a random order: a contiguous cut then needs most
  // columns of every other rank; the graph cut finds the grid again.
  const auto scrambled = permute_symmetric(grid, shuffled(grid.rows, 7));
  for (int parts : {1, 2, 4, 7}) {
    const GraphCut cut = metis_cut(scrambled, parts);
    ASSERT_EQ(cut.partition.ranks(), parts);
    ASSERT_EQ(cut.partition.rows(), scrambled.rows);
    std::vector<std::int64_t> sorted = cut.order;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size(); ++i) ASSERT_EQ(sorted[i], static_cast<std::int64_t>(i)) << "order is not a permutation";
    const auto renumbered = permute_symmetric(scrambled, cut.order);
    const CutCost graph = cut_cost(renumbered, cut.partition);
    const CutCost contiguous = cut_cost(scrambled, contiguous_rows(scrambled.rows, parts));
    if (parts == 1) {
      EXPECT_EQ(graph.halo_volume, 0);
      continue;
    }
    // A 40 x 40 grid in `parts` pieces has a boundary of a few hundred points at most.
    EXPECT_LT(graph.halo_volume, contiguous.halo_volume / 4) << parts << " parts: " << graph.halo_volume << " against " << contiguous.halo_volume;
    // Balanced by nonzeros within METIS's default 3% (and a row's rounding).
    for (int r = 0; r < parts; ++r) {
      const auto nnz = renumbered.row_ptr[static_cast<std::size_t>(cut.partition.begin(r) + cut.partition.size(r))] -
                       renumbered.row_ptr[static_cast<std::size_t>(cut.partition.begin(r))];
      EXPECT_LT(static_cast<double>(nnz), 1.06 * static_cast<double>(renumbered.nnz()) / parts) << "part " << r << " of " << parts;
    }
  }
  EXPECT_THROW(metis_cut(generators::random_uniform<double, std::int64_t>(5, 6, 2, 1), 2), Error);  // not square
}

}  // namespace
}  // namespace hsparse::distributed
