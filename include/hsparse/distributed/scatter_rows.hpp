#pragma once
/// @file
/// A matrix that one rank read, cut into row blocks and sent to the ranks
/// that own them: how `mpirun -np P hsparse spmv|solve FILE` distributes a
/// Matrix Market or .hsp file (docs/distributed.md, "Input"). The root alone
/// reads the file and parses it, so the other ranks never hold the whole
/// matrix; the root holds it once, while it sends.
#include <cstdint>
#include <vector>

#include "hsparse/core/communicator.hpp"
#include "hsparse/distributed/row_partition.hpp"
#include "hsparse/formats/csr.hpp"

namespace hsparse::distributed {

/// How the rows are cut over the ranks.
enum class RowCut {
  rows,      ///< equal numbers of rows (contiguous_rows, PETSc's default)
  nonzeros,  ///< equal numbers of nonzeros (weighted_rows with equal weights)
};

/// A rank's rows and the partition they come from.
template <class V>
struct RankRows {
  RowPartition partition;      ///< the row partition, the same on every rank
  std::int64_t global_cols = 0;
  Csr<V, std::int64_t> rows;   ///< this rank's rows, global column indices
};

/// Collective. `root` passes the whole matrix in `whole` (the other ranks'
/// `whole` is ignored, pass an empty one); every rank gets its rows under
/// the cut. `weights` (the root's are used; empty: all equal) give rank r a
/// share of the nonzeros proportional to weights[r] (RowCut::nonzeros only:
/// a rank's measured speed, rank_speed.hpp). The root's failure to cut (an
/// invalid matrix, bad weights) fails every rank. Messages are split into
/// pieces of at most 1 GiB (MPI counts are int).
template <class V>
RankRows<V> scatter_rows(const Communicator& comm, const Csr<V, std::int64_t>& whole, RowCut cut, int root = 0,
                         const std::vector<double>& weights = {});

/// The same under a partition the root chose (a graph cut's, say; the
/// other ranks' `partition` is ignored). Error(invalid_argument) on every
/// rank when it does not cover the root's rows over the communicator's ranks.
template <class V>
RankRows<V> scatter_rows(const Communicator& comm, const Csr<V, std::int64_t>& whole, const RowPartition& partition, int root = 0);

}  // namespace hsparse::distributed
