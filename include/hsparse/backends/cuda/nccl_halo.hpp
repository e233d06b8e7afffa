#pragma once
// The halo exchange between GPU ranks through NCCL's point-to-point calls
// (ncclSend / ncclRecv in one group), on a stream of its own, ordered
// against the executor's stream by events: the local product runs while the
// halo travels, and no host waits anywhere (docs/distributed.md,
// "Transports"). NCCL is found at configure time (the GPU machines have it;
// the build machine and CI do not): without it, built_with_nccl() is false
// and making one throws Error(unsupported).
#include <memory>
#include <string>
#include <vector>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/communicator.hpp"

namespace hsparse::cuda {

/// Whether this hsparse was built with NCCL.
bool built_with_nccl() noexcept;

/// One rank's NCCL communicator for halo exchanges, on `ex`'s device.
class NcclHalo {
 public:
  /// Collective over `comm`: rank 0's NCCL id reaches every rank through
  /// `comm`, then every rank joins (ncclCommInitRank).
  NcclHalo(const Communicator& comm, const Executor& ex);
  ~NcclHalo();
  NcclHalo(const NcclHalo&) = delete;
  NcclHalo& operator=(const NcclHalo&) = delete;
  /// Queues the sends and receives (device memory) on the halo's stream,
  /// after the work queued so far on the executor's stream.
  void start(const std::vector<CommMessage>& sends, const std::vector<CommMessage>& receives);
  /// The executor's stream waits for the exchange (on the device).
  void finish();
  /// `values` (device memory, n doubles) summed over the ranks in place,
  /// ordered after the executor's stream's work so far and before its next
  /// (ncclAllReduce on the halo's stream, so that one stream issues every
  /// NCCL call of the communicator): a Krylov method's dots without a host
  /// round trip.
  void allreduce_sum(double* values, std::size_t n);
  /// "NCCL 2.28.3".
  std::string version() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace hsparse::cuda
