#pragma once
/// @file
/// A graph partitioner's cut of a square matrix's rows (METIS 5 from
/// Debian, found at configure time), to shrink the halo: the rows are
/// renumbered so that each part is one contiguous block, and the cut stays
/// contiguous (docs/distributed.md, "Rows and x are cut the same way").
#include <cstdint>
#include <vector>

#include "hsparse/distributed/row_partition.hpp"
#include "hsparse/formats/csr.hpp"

namespace hsparse::distributed {

/// Whether this hsparse was built with METIS.
bool built_with_metis() noexcept;

/// The parts of a graph cut, as a renumbering.
struct GraphCut {
  /// New row i is old row order[i]: rows grouped by part, in their old
  /// order within a part.
  std::vector<std::int64_t> order;
  /// Part r holds the new rows [offsets[r], offsets[r+1]).
  RowPartition partition;
};

/// METIS's k-way cut (METIS_PartGraphKway, balancing nonzeros) of the graph
/// of A + A^T without the diagonal, into `parts` parts (a part may be empty).
/// Error: invalid_argument for a matrix that is not square or parts < 1;
/// overflow for a graph beyond METIS's 32-bit indices; unsupported without
/// METIS in this build.
template <class V>
GraphCut metis_cut(const Csr<V, std::int64_t>& a, int parts);

/// B(i, j) = A(order[i], order[j]): rows and columns renumbered alike, the
/// entries of a row sorted by their new column. `order` must be a
/// permutation of the rows (checked).
template <class V>
Csr<V, std::int64_t> permute_symmetric(const Csr<V, std::int64_t>& a, const std::vector<std::int64_t>& order);

/// What a cut costs in communication: the nonzeros whose row and column
/// lie in different parts, and the halo volume (each rank's distinct ghost
/// columns, summed: the entries of x sent per product).
struct CutCost {
  std::int64_t cut_nonzeros = 0;
  std::int64_t halo_volume = 0;
};
template <class V>
CutCost cut_cost(const Csr<V, std::int64_t>& a, const RowPartition& partition);

}  // namespace hsparse::distributed
