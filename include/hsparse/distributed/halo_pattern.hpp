#pragma once
/// @file
/// The communication pattern of y = A x over ranks, computed once at setup
/// (docs/distributed.md): which entries of its own x each rank sends to
/// whom, and where the ghost entries it receives go. Built from every
/// rank's HaloSplit with one all-to-all of counts and one exchange of the
/// ghost columns' global indices.
#include <cstdint>
#include <vector>

#include "hsparse/core/communicator.hpp"
#include "hsparse/distributed/row_partition.hpp"

namespace hsparse::distributed {

/// One rank's side of the halo exchange.
struct HaloPattern {
  /// The ranks this rank sends to, increasing, and for each, the local
  /// indices (into this rank's owned x) of the entries it sends, in the
  /// order the receiver stores them.
  std::vector<int> send_ranks;
  std::vector<std::vector<std::int64_t>> send_indices;
  /// The ranks this rank receives from, increasing, and where each one's
  /// entries start in x_ghost (recv_offsets[k] .. recv_offsets[k+1]).
  std::vector<int> recv_ranks;
  std::vector<std::int64_t> recv_offsets{0};
  /// Entries sent and received per product.
  std::int64_t send_volume() const;
  std::int64_t recv_volume() const { return recv_offsets.back(); }
};

/// Collective: every rank passes its ghost columns and offsets
/// (HaloSplit::ghost_columns / ghost_offsets, grouped by owner). Each rank
/// learns what the others need of it. Error(communication) on every rank
/// when any rank's request is inconsistent (a column that the rank asked
/// does not own), naming it.
HaloPattern halo_pattern(const Communicator& comm, const RowPartition& columns, const std::vector<std::int64_t>& ghost_columns,
                         const std::vector<std::int64_t>& ghost_offsets);

}  // namespace hsparse::distributed
