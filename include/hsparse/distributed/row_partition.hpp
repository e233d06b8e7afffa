#pragma once
/// @file
/// How the rows (and, for y = A x, the entries of y and x) of a distributed
/// matrix are cut over the ranks: contiguous blocks, rank r owning rows
/// [offsets[r], offsets[r+1]). Contiguous blocks keep each rank's rows and
/// vector entries in one piece, as PETSc's and Ginkgo's distributed
/// matrices do; a graph partitioner's permutation (METIS, Scotch) is applied
/// to the matrix before it is cut, not to the cut itself.
#include <cstdint>
#include <span>
#include <vector>

namespace hsparse::distributed {

/// Contiguous blocks of rows over `ranks()` ranks.
struct RowPartition {
  /// ranks + 1 nondecreasing offsets, from 0 to the global row count.
  std::vector<std::int64_t> offsets{0};
  /// Number of ranks.
  int ranks() const { return static_cast<int>(offsets.size()) - 1; }
  /// Global rows (the last offset).
  std::int64_t rows() const { return offsets.back(); }
  /// First global row of `rank`.
  std::int64_t begin(int rank) const { return offsets[static_cast<std::size_t>(rank)]; }
  /// Rows `rank` owns.
  std::int64_t size(int rank) const { return offsets[static_cast<std::size_t>(rank) + 1] - offsets[static_cast<std::size_t>(rank)]; }
  /// The rank owning global row `row` (0 <= row < rows(); a rank owning no
  /// rows is never returned). Binary search: O(log ranks).
  int owner(std::int64_t row) const;
  /// Error(invalid_argument) unless the offsets start at 0, never decrease
  /// and there is at least one rank.
  void validate() const;
};

/// `rows` cut into `ranks` blocks whose sizes differ by at most one, the
/// larger first (PETSc's PETSC_DECIDE split). Error(invalid_argument) for
/// ranks < 1 or rows < 0.
RowPartition contiguous_rows(std::int64_t rows, int ranks);

/// Contiguous blocks with rank r's share of the nonzeros proportional to
/// weights[r] (a rank's measured SpMV speed, so that a CPU rank and GPU
/// ranks can share one matrix, GHOST's heterogeneous mode; all equal:
/// balanced nonzeros). row_ptr is the global CSR row pointer (rows + 1
/// entries) or any nondecreasing prefix sum of per-row work. Each cut
/// falls on the row boundary nearest its target. Error(invalid_argument)
/// for an empty or negative weight list, a weight sum of zero, or a
/// row_ptr that decreases.
RowPartition weighted_rows(std::span<const std::int64_t> row_ptr, std::span<const double> weights);

}  // namespace hsparse::distributed
