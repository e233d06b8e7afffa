// One rank's halo exchange (halo_exchange.hpp).
#include "halo_exchange.hpp"

#include <unistd.h>

#include <complex>
#include <cstdint>

#include "hsparse/backends/cuda/gather.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/kernels/gather.hpp"

namespace hsparse::distributed::detail {

template <class V>
HaloExchange<V>::HaloExchange(CommunicatorPtr comm, ExecutorPtr ex, const HaloPattern& p, std::size_t owned)
    : comm_(std::move(comm)), ex_(std::move(ex)), cpu_(ex_->backend() == Backend::cpu), owned_(owned) {
  std::vector<std::int64_t> indices;
  for (std::size_t k = 0; k < p.send_ranks.size(); ++k) {
    send_ranks_.push_back(p.send_ranks[k]);
    send_offsets_.push_back(indices.size());
    indices.insert(indices.end(), p.send_indices[k].begin(), p.send_indices[k].end());
  }
  send_offsets_.push_back(indices.size());
  for (std::size_t k = 0; k < p.recv_ranks.size(); ++k) {
    recv_ranks_.push_back(p.recv_ranks[k]);
    recv_offsets_.push_back(static_cast<std::size_t>(p.recv_offsets[k]));
  }
  recv_offsets_.push_back(static_cast<std::size_t>(p.recv_volume()));
  on_every_rank(*comm_, [&] {
    send_indices_ = Array<std::int64_t>(ex_, std::span<const std::int64_t>(indices));
    send_buffer_ = Array<V>(ex_, indices.size());
    ghosts_ = Array<V>(ex_, static_cast<std::size_t>(p.recv_volume()));
    if (!cpu_) {
      send_host_.resize(indices.size());
      ghosts_host_.resize(static_cast<std::size_t>(p.recv_volume()));
    }
  });
  // Device transports: for GPU ranks only, and only where every rank can.
  std::int64_t not_device_mpi = comm_->takes_device_memory() ? 0 : 1, cpu_rank = cpu_ ? 1 : 0;
  std::int64_t flags[2] = {not_device_mpi, cpu_rank};
  comm_->allreduce_max(flags, 2);
  available_ = {HaloTransport::host};
  device_mpi_ = flags[0] == 0 && flags[1] == 0;
  if (device_mpi_) available_.push_back(HaloTransport::device_mpi);
  nccl_gpus_distinct_ = flags[1] == 0 && gpus_distinct();
  if (flags[1] == 0 && cuda::built_with_nccl() && comm_->size() > 1 && nccl_gpus_distinct_) available_.push_back(HaloTransport::nccl);
}

// Whether no two ranks on one host share a GPU (NCCL refuses that):
// each rank's (host name hash, device) in a slot of its own, summed.
template <class V>
bool HaloExchange<V>::gpus_distinct() const {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  std::uint64_t h = 1469598103934665603ull;
  for (const char* p = name; *p; ++p) h = (h ^ static_cast<unsigned char>(*p)) * 1099511628211ull;
  const auto ranks = static_cast<std::size_t>(comm_->size()), me = static_cast<std::size_t>(comm_->rank());
  std::vector<double> ids(2 * ranks, 0.0);
  ids[2 * me] = static_cast<double>(h & ((1ull << 52) - 1));  // exact in a double
  ids[2 * me + 1] = cuda_executor(*ex_, "the NCCL halo").device();
  comm_->allreduce_sum(ids.data(), ids.size());
  for (std::size_t a = 0; a < ranks; ++a) {
    for (std::size_t b = a + 1; b < ranks; ++b) {
      if (ids[2 * a] == ids[2 * b] && ids[2 * a + 1] == ids[2 * b + 1]) return false;
    }
  }
  return true;
}

template <class V>
std::string HaloExchange<V>::why_not(HaloTransport t) const {
  if (t == HaloTransport::host) return "";
  if (cpu_) return "a CPU rank's halo is in host memory already";
  if (t == HaloTransport::device_mpi) return device_mpi_ ? "" : "the MPI library does not take device memory (not CUDA-aware) on every rank";
  if (t == HaloTransport::nccl) {
    if (!cuda::built_with_nccl()) return "this hsparse was built without NCCL";
    if (comm_->size() == 1) return "one rank has no halo";
    if (!nccl_gpus_distinct_) return "two ranks share a GPU (NCCL takes one rank per GPU)";
  }
  return "";
}

template <class V>
void HaloExchange<V>::use(HaloTransport t) {
  if (t == HaloTransport::automatic) throw Error(ErrorCode::invalid_argument, "HaloExchange::use: a transport, not automatic");
  bool ok = false;
  for (HaloTransport a : available_) ok = ok || a == t;
  if (!ok) throw Error(ErrorCode::invalid_argument, std::string("the halo transport ") + to_string(t) + " is not available: " + why_not(t));
  if (t == HaloTransport::nccl && !nccl_) nccl_ = std::make_unique<cuda::NcclHalo>(*comm_, cuda_executor(*ex_, "the NCCL halo"));
  transport_ = t;
}

template <class V>
std::vector<CommMessage> HaloExchange<V>::messages(V* base, const std::vector<int>& ranks, const std::vector<std::size_t>& offsets) const {
  std::vector<CommMessage> list;
  for (std::size_t k = 0; k < ranks.size(); ++k) list.push_back({ranks[k], base + offsets[k], (offsets[k + 1] - offsets[k]) * sizeof(V)});
  return list;
}

template <class V>
void HaloExchange<V>::start(const V* x) {
  const std::size_t n = send_buffer_.size();
  if (cpu_) {
    if (n > 0) {
      openmp::gather<V>(std::span<const V>(x, owned_), std::span<const std::int64_t>(send_indices_.data(), n), std::span<V>(send_buffer_.data(), n));
    }
    pending_ = comm_->start_exchange(messages(send_buffer_.data(), send_ranks_, send_offsets_), messages(ghosts_.data(), recv_ranks_, recv_offsets_));
    return;
  }
  const cuda::Executor& gpu = cuda_executor(*ex_, "a distributed product");
  cuda::gather<V>(gpu, static_cast<long long>(n), x, send_indices_.data(), send_buffer_.data());
  switch (transport_) {
    case HaloTransport::host:
      if (n > 0) ex_->copy_to_host(send_host_.data(), send_buffer_.data(), n * sizeof(V));
      pending_ = comm_->start_exchange(messages(send_host_.data(), send_ranks_, send_offsets_), messages(ghosts_host_.data(), recv_ranks_, recv_offsets_));
      break;
    case HaloTransport::device_mpi:
      ex_->synchronize();  // the packed entries are complete before MPI reads them
      pending_ = comm_->start_exchange(messages(send_buffer_.data(), send_ranks_, send_offsets_), messages(ghosts_.data(), recv_ranks_, recv_offsets_));
      break;
    case HaloTransport::nccl:
      nccl_->start(messages(send_buffer_.data(), send_ranks_, send_offsets_), messages(ghosts_.data(), recv_ranks_, recv_offsets_));
      break;
    case HaloTransport::automatic: break;  // never the transport in use
  }
}

template <class V>
void HaloExchange<V>::wait() {
  if (transport_ == HaloTransport::nccl) return nccl_->finish();
  if (pending_) pending_->wait();
  pending_.reset();
}

template <class V>
void HaloExchange<V>::allreduce_sum_on_device(double* values, std::size_t n) {
  if (transport_ != HaloTransport::nccl || !nccl_) throw Error(ErrorCode::invalid_argument, "a device all-reduce needs the nccl transport in use");
  nccl_->allreduce_sum(values, n);
}

template <class V>
void HaloExchange<V>::unpack() {
  if (!cpu_ && transport_ == HaloTransport::host && ghosts_.size() > 0) {
    ex_->copy_from_host(ghosts_.data(), ghosts_host_.data(), ghosts_.size() * sizeof(V));
  }
}

template class HaloExchange<float>;
template class HaloExchange<double>;
template class HaloExchange<std::complex<float>>;
template class HaloExchange<std::complex<double>>;

}  // namespace hsparse::distributed::detail
