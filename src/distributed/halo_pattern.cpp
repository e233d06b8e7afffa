// The halo exchange's pattern (distributed/halo_pattern.hpp).
#include "hsparse/distributed/halo_pattern.hpp"

#include <string>

#include "hsparse/core/error.hpp"

namespace hsparse::distributed {

std::int64_t HaloPattern::send_volume() const {
  std::int64_t n = 0;
  for (const auto& s : send_indices) n += static_cast<std::int64_t>(s.size());
  return n;
}

HaloPattern halo_pattern(const Communicator& comm, const RowPartition& columns, const std::vector<std::int64_t>& ghost_columns,
                         const std::vector<std::int64_t>& ghost_offsets) {
  const int ranks = comm.size(), me = comm.rank();
  // Checked on every rank before the first collective: a wrong argument on
  // one rank must not leave the others waiting in the all-to-all.
  std::string problem;
  if (columns.ranks() != ranks) {
    problem = "the column partition has " + std::to_string(columns.ranks()) + " ranks, the communicator " + std::to_string(ranks);
  } else if (ghost_offsets.size() != static_cast<std::size_t>(ranks) + 1 || ghost_offsets.back() != static_cast<std::int64_t>(ghost_columns.size())) {
    problem = "the ghost offsets do not cover the ghost columns (" + std::to_string(ghost_offsets.size()) + " offsets for " +
              std::to_string(ranks) + " ranks)";
  } else if (ghost_offsets[static_cast<std::size_t>(me) + 1] != ghost_offsets[static_cast<std::size_t>(me)]) {
    problem = "its ghost columns list " + std::to_string(ghost_offsets[static_cast<std::size_t>(me) + 1] - ghost_offsets[static_cast<std::size_t>(me)]) +
              " of its own columns";
  }
  agree_on_failure(comm, problem);

  HaloPattern p;
  std::vector<std::int64_t> asked(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    asked[static_cast<std::size_t>(r)] = ghost_offsets[static_cast<std::size_t>(r) + 1] - ghost_offsets[static_cast<std::size_t>(r)];
    if (asked[static_cast<std::size_t>(r)] > 0) {
      p.recv_ranks.push_back(r);
      p.recv_offsets.push_back(ghost_offsets[static_cast<std::size_t>(r) + 1]);
    }
  }
  const std::vector<std::int64_t> wanted = comm.alltoall(asked);  // wanted[q]: entries rank q needs from me
  // Each rank sends the global indices it needs to their owners.
  std::vector<CommMessage> sends, receives;
  for (int r : p.recv_ranks) {
    const auto begin = ghost_offsets[static_cast<std::size_t>(r)];
    sends.push_back({r, const_cast<std::int64_t*>(ghost_columns.data() + begin), static_cast<std::size_t>(asked[static_cast<std::size_t>(r)]) * sizeof(std::int64_t)});
  }
  for (int q = 0; q < ranks; ++q) {
    if (wanted[static_cast<std::size_t>(q)] == 0) continue;
    p.send_ranks.push_back(q);
    p.send_indices.emplace_back(static_cast<std::size_t>(wanted[static_cast<std::size_t>(q)]));
  }
  for (std::size_t k = 0; k < p.send_ranks.size(); ++k) {
    receives.push_back({p.send_ranks[k], p.send_indices[k].data(), p.send_indices[k].size() * sizeof(std::int64_t)});
  }
  comm.start_exchange(sends, receives)->wait();
  // Global to local, each checked against what this rank owns.
  const std::int64_t first = columns.begin(me), owned = columns.size(me);
  problem.clear();
  for (std::size_t k = 0; k < p.send_ranks.size() && problem.empty(); ++k) {
    for (std::int64_t& c : p.send_indices[k]) {
      if (c < first || c >= first + owned) {
        problem = "rank " + std::to_string(p.send_ranks[k]) + " asked rank " + std::to_string(me) + " for column " + std::to_string(c) +
                  ", which it does not own (" + std::to_string(first) + ".." + std::to_string(first + owned - 1) + ")";
        break;
      }
      c -= first;
    }
  }
  agree_on_failure(comm, problem);
  return p;
}

}  // namespace hsparse::distributed
