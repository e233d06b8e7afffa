#pragma once
// One rank's halo exchange for DistributedSpmv (distributed_spmv.hpp): the
// buffers fixed at setup, and the transports a GPU rank can use
// (docs/distributed.md, "Transports"):
//   host        the packed entries copied to host memory, MPI between hosts,
//               the received ones copied back (a CPU rank's only one);
//   device_mpi  MPI on device memory, where the MPI is CUDA-aware;
//   nccl        NCCL send/receive on a stream of its own, ordered against
//               the executor's stream by events (no host wait).
#include <memory>
#include <vector>

#include "hsparse/backends/cuda/nccl_halo.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/core/communicator.hpp"
#include "hsparse/distributed/distributed_spmv.hpp"
#include "hsparse/distributed/halo_pattern.hpp"

namespace hsparse::distributed::detail {

template <class V>
class HaloExchange {
 public:
  // Collective (whether every rank's MPI takes device memory is agreed).
  // `owned`: the entries of x this rank owns.
  HaloExchange(CommunicatorPtr comm, ExecutorPtr ex, const HaloPattern& pattern, std::size_t owned);
  // The transports every rank can use, host first.
  const std::vector<HaloTransport>& available() const { return available_; }
  // Switches transport; collective the first time NCCL is chosen (it joins
  // NCCL then). Error(invalid_argument) for one not available, saying why.
  void use(HaloTransport t);
  HaloTransport transport() const { return transport_; }
  // Packs this rank's entries of x the others need and starts sending them
  // and receiving the ghosts.
  void start(const V* x);
  // Waits for the ghosts (host: MPI's wait; nccl: the executor's stream waits).
  void wait();
  // On a GPU with the host transport, copies the ghosts to the device.
  void unpack();
  const V* ghosts() const { return ghosts_.data(); }
  std::size_t ghost_count() const { return ghosts_.size(); }
  // Sums `values` (device memory) over the ranks on the executor's stream,
  // through NCCL; only with the nccl transport in use (Error otherwise).
  void allreduce_sum_on_device(double* values, std::size_t n);
  // Why a transport is missing from available(), in words.
  std::string why_not(HaloTransport t) const;

 private:
  CommunicatorPtr comm_;
  ExecutorPtr ex_;
  bool cpu_;
  std::size_t owned_;
  HaloTransport transport_ = HaloTransport::host;
  std::vector<HaloTransport> available_;
  bool device_mpi_ = false, nccl_gpus_distinct_ = false;
  Array<std::int64_t> send_indices_;
  Array<V> send_buffer_, ghosts_;
  std::vector<V> send_host_, ghosts_host_;  // a GPU's host staging
  // Per neighbour: where its piece starts in the send buffer and the ghosts.
  std::vector<int> send_ranks_, recv_ranks_;
  std::vector<std::size_t> send_offsets_, recv_offsets_;
  std::unique_ptr<CommExchange> pending_;
  std::unique_ptr<cuda::NcclHalo> nccl_;

  bool gpus_distinct() const;
  std::vector<CommMessage> messages(V* base, const std::vector<int>& ranks, const std::vector<std::size_t>& offsets) const;
};

}  // namespace hsparse::distributed::detail
