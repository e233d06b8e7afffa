#pragma once
/// @file
/// A rank's rows of a distributed matrix, split for y = A x with x
/// distributed like the columns: the local part (the columns this rank
/// owns, numbered from its first one) and the remote part (the columns
/// other ranks own, the "ghost" or halo entries of x, numbered in the
/// order they arrive). The product is then
///   y = local * x_owned + remote * x_ghost,
/// and only x_ghost travels between ranks (the communication pattern,
/// computed once at setup). This is PETSc's MPIAIJ diagonal/off-diagonal
/// split and GHOST's local/remote split for its task mode (Kreutzer et al.,
/// GHOST, section 4.2): the local product runs while the halo is in flight.
#include <cstdint>
#include <vector>

#include "hsparse/distributed/row_partition.hpp"
#include "hsparse/formats/csr.hpp"

namespace hsparse::distributed {

/// One rank's two parts and the halo it needs.
template <class V, class I>
struct HaloSplit {
  /// Owned rows x owned columns; column c is global column
  /// columns.begin(rank) + c.
  Csr<V, I> local;
  /// Owned rows x ghost columns; column g is global column ghost_columns[g].
  Csr<V, I> remote;
  /// The global index of each ghost column, grouped by owning rank (ranks in
  /// order), increasing within a rank: each owner sends one contiguous piece.
  std::vector<std::int64_t> ghost_columns;
  /// ranks + 1 offsets into ghost_columns: rank r's ghosts are
  /// [ghost_offsets[r], ghost_offsets[r+1]) (empty for this rank itself).
  std::vector<std::int64_t> ghost_offsets;
};

/// Rows [begin, end) of a matrix whose columns are global: what a rank
/// keeps of a matrix every rank read or generated whole. Error(invalid_argument)
/// unless 0 <= begin <= end <= a.rows.
template <class V>
Csr<V, std::int64_t> row_block(const Csr<V, std::int64_t>& a, std::int64_t begin, std::int64_t end);

/// Splits `rows`, this rank's rows with global column indices (rows.cols is
/// the global column count, equal to columns.rows()), by the column
/// partition `columns` (for a square matrix, the row partition). The entry
/// order within each row is kept; explicit zeros are kept. Error:
/// invalid_argument when the column counts disagree or `rank` is not in
/// the partition; invalid_matrix when `rows` fails validation; overflow
/// when a part does not fit the index type I.
template <class V, class I>
HaloSplit<V, I> split_by_owner(const Csr<V, std::int64_t>& rows, const RowPartition& columns, int rank);

}  // namespace hsparse::distributed
