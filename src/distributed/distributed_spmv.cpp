// The distributed product (distributed/distributed_spmv.hpp): setup splits
// the rank's rows, agrees the pattern and builds the two plans; a product
// packs, exchanges and multiplies in GHOST's task order.
#include "hsparse/distributed/distributed_spmv.hpp"

#include <complex>
#include <cstring>
#include <functional>
#include <optional>

#include "hsparse/backends/cuda/gather.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/distributed/halo_split.hpp"
#include "hsparse/kernels/gather.hpp"
#include "halo_exchange.hpp"

namespace hsparse::distributed {

const char* to_string(HaloTransport t) {
  switch (t) {
    case HaloTransport::automatic: return "automatic";
    case HaloTransport::host: return "host";
    case HaloTransport::device_mpi: return "device-mpi";
    case HaloTransport::nccl: return "nccl";
  }
  return "?";
}

HaloTransport parse_halo_transport(const std::string& name) {
  for (HaloTransport t : {HaloTransport::automatic, HaloTransport::host, HaloTransport::device_mpi, HaloTransport::nccl}) {
    if (name == to_string(t)) return t;
  }
  throw Error(ErrorCode::invalid_argument, "halo transport '" + name + "': valid values are automatic, host, device-mpi and nccl");
}

namespace {

// FNV-1a over the offsets, kept to 62 bits so that it and its negation
// both fit an int64 all-reduce of maxima.
std::int64_t fingerprint(const RowPartition& p) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::int64_t v : p.offsets) {
    for (int b = 0; b < 8; ++b) {
      h ^= (static_cast<std::uint64_t>(v) >> (8 * b)) & 0xffu;
      h *= 1099511628211ull;
    }
  }
  return static_cast<std::int64_t>(h & ((1ull << 62) - 1));
}

}  // namespace

template <class V, class I>
struct DistributedSpmv<V, I>::State {
  CommunicatorPtr comm;
  ExecutorPtr ex;
  RowPartition row_partition, column_partition;
  HaloPattern pattern;
  std::optional<SpmvPlan<V, I>> local, remote;
  std::optional<Csr<V, I>> local_block;  // keep_local_block
  std::vector<V> diagonal;
  bool overlap = true, profile = false, cpu = true;
  DistributedSpmvTimes times;
  I rows = 0, cols = 0;
  std::optional<detail::HaloExchange<V>> halo;
  std::vector<std::pair<HaloTransport, double>> measured;
  bool reduce_on_device = false;
  std::pair<double, double> reduction_times{0, 0};
  // The remote part, when stored for its non-empty rows only: their rows
  // in y, and its products before they are added there.
  Array<std::int64_t> remote_rows;
  Array<V> remote_y;
  bool remote_compressed = false;

  // Seconds per exchange with the transport in use, the slowest rank's.
  double time_exchange(const V* x) {
    return time_collective([&] { exchange(x); });
  }
  // After a switch of transport: with NCCL, a solver's sum of four doubles
  // timed both ways, the faster kept (reduces_on_device in the header says why).
  void choose_reduction() {
    reduce_on_device = false;
    reduction_times = {0, 0};
    if (cpu || halo->transport() != HaloTransport::nccl) return;
    Array<double> sums(ex, 4);
    std::vector<double> host(4);
    const double device_s = time_collective([&] { halo->allreduce_sum_on_device(sums.data(), 4); });
    const double host_s = time_collective([&] {
      ex->copy_to_host(host.data(), sums.data(), 4 * sizeof(double));
      comm->allreduce_sum(host.data(), 4);
      ex->copy_from_host(sums.data(), host.data(), 4 * sizeof(double));
    });
    reduction_times = {device_s, host_s};
    reduce_on_device = device_s < host_s;
  }
  // Seconds per call of a collective `step`, the slowest rank's.
  template <class Step>
  double time_collective(const Step& step) {
    for (int i = 0; i < 3; ++i) step();
    ex->synchronize();
    std::int64_t barrier = 0;
    comm->allreduce_max(&barrier, 1);
    constexpr int kTimes = 20;
    Stopwatch w;
    for (int i = 0; i < kTimes; ++i) step();
    ex->synchronize();
    std::int64_t ns = static_cast<std::int64_t>(w.seconds() * 1e9);
    comm->allreduce_max(&ns, 1);
    return static_cast<double>(ns) * 1e-9 / kTimes;
  }
  void exchange(const V* x) {
    halo->start(x);
    halo->wait();
    halo->unpack();
  }
  // y += alpha remote x_ghost.
  void add_remote(V alpha, V* y) {
    if (!remote) return;
    if (!remote_compressed) return remote->apply(alpha, halo->ghosts(), V(1), y);
    remote->apply(alpha, halo->ghosts(), V(0), remote_y.data());
    const std::size_t n = remote_y.size();
    if (cpu) {
      openmp::scatter_add<V>(std::span<const V>(remote_y.data(), n), std::span<const std::int64_t>(remote_rows.data(), n),
                             std::span<V>(y, static_cast<std::size_t>(rows)));
    } else {
      cuda::scatter_add<V>(cuda_executor(*ex, "a distributed product"), static_cast<long long>(n), remote_y.data(), remote_rows.data(), y);
    }
  }
};

template <class V, class I>
DistributedSpmv<V, I>::DistributedSpmv(CommunicatorPtr comm, ExecutorPtr ex, const Csr<V, std::int64_t>& rows, RowPartition row_partition,
                                       RowPartition column_partition, const DistributedSpmvOptions& options)
    : s_(std::make_unique<State>()) {
  if (!comm || !ex) throw Error(ErrorCode::invalid_argument, "DistributedSpmv needs a communicator and an executor (null given)");
  State& s = *s_;
  s.comm = std::move(comm);
  s.ex = std::move(ex);
  s.row_partition = std::move(row_partition);
  s.column_partition = std::move(column_partition);
  s.overlap = options.overlap;
  s.profile = options.profile;
  s.cpu = s.ex->backend() == Backend::cpu;
  const Communicator& c = *s.comm;
  const int me = c.rank();
  // Each rank's own arguments, then whether the ranks agree, before any
  // collective that depends on them.
  on_every_rank(c, [&] {
    s.row_partition.validate();
    s.column_partition.validate();
    if (s.row_partition.ranks() != c.size() || s.column_partition.ranks() != c.size()) {
      throw Error(ErrorCode::invalid_argument, "the partitions have " + std::to_string(s.row_partition.ranks()) + " and " +
                                                   std::to_string(s.column_partition.ranks()) + " ranks, the communicator " + std::to_string(c.size()));
    }
    if (rows.rows != s.row_partition.size(me) || rows.cols != s.column_partition.rows()) {
      throw Error(ErrorCode::invalid_argument, "its rows are " + std::to_string(rows.rows) + " x " + std::to_string(rows.cols) + "; the partitions give it " +
                                                   std::to_string(s.row_partition.size(me)) + " rows of " + std::to_string(s.column_partition.rows()) +
                                                   " columns");
    }
  });
  std::int64_t same[4] = {fingerprint(s.row_partition), -fingerprint(s.row_partition), fingerprint(s.column_partition), -fingerprint(s.column_partition)};
  const std::int64_t mine[4] = {same[0], same[1], same[2], same[3]};
  c.allreduce_max(same, 4);
  if (same[0] != mine[0] || same[1] != mine[1] || same[2] != mine[2] || same[3] != mine[3]) {
    throw Error(ErrorCode::invalid_argument, "DistributedSpmv: the ranks were given different row or column partitions (rank " + std::to_string(me) +
                                                 " of " + std::to_string(c.size()) + ")");
  }

  std::optional<HaloSplit<V, I>> split;
  on_every_rank(c, [&] { split = split_by_owner<V, I>(rows, s.column_partition, me); });
  s.pattern = halo_pattern(c, s.column_partition, split->ghost_columns, split->ghost_offsets);
  s.rows = split->local.rows;
  s.cols = split->local.cols;
  on_every_rank(c, [&] {
    s.local.emplace(s.ex, split->local, options.local);
    if (options.keep_local_block) s.local_block = split->local;
    if (split->remote.cols > 0) {
      // The remote part keeps its non-empty rows only when they are fewer
      // than half: a product over all rows reads and writes every entry of
      // y (and every row pointer) for the few rows that touch a ghost,
      // while the compressed one adds its results with one scatter (PETSc
      // keeps its off-diagonal block in compressed rows for the same reason).
      const Csr<V, I>& r = split->remote;
      std::vector<std::int64_t> nonempty;
      for (I i = 0; i < r.rows; ++i) {
        if (r.row_ptr[static_cast<std::size_t>(i) + 1] > r.row_ptr[static_cast<std::size_t>(i)]) nonempty.push_back(i);
      }
      s.remote_compressed = 2 * nonempty.size() < static_cast<std::size_t>(r.rows);
      if (s.remote_compressed) {
        Csr<V, I> compressed;
        compressed.rows = static_cast<I>(nonempty.size());
        compressed.cols = r.cols;  // row_ptr starts as {0}
        for (std::int64_t i : nonempty) {
          const auto b = r.row_ptr[static_cast<std::size_t>(i)], e = r.row_ptr[static_cast<std::size_t>(i) + 1];
          compressed.col_idx.insert(compressed.col_idx.end(), r.col_idx.begin() + b, r.col_idx.begin() + e);
          compressed.values.insert(compressed.values.end(), r.values.begin() + b, r.values.begin() + e);
          compressed.row_ptr.push_back(static_cast<I>(compressed.col_idx.size()));
        }
        s.remote.emplace(s.ex, compressed, options.remote);
        s.remote_rows = Array<std::int64_t>(s.ex, std::span<const std::int64_t>(nonempty));
        s.remote_y = Array<V>(s.ex, nonempty.size());
      } else {
        s.remote.emplace(s.ex, r, options.remote);
      }
    }
    // Jacobi's diagonal: the entries whose global column is the global row.
    s.diagonal.assign(static_cast<std::size_t>(rows.rows), V(0));
    const std::int64_t first = s.row_partition.begin(me);
    for (std::int64_t i = 0; i < rows.rows; ++i) {
      for (auto k = rows.row_ptr[static_cast<std::size_t>(i)]; k < rows.row_ptr[static_cast<std::size_t>(i) + 1]; ++k) {
        if (rows.col_idx[static_cast<std::size_t>(k)] == first + i) s.diagonal[static_cast<std::size_t>(i)] += rows.values[static_cast<std::size_t>(k)];
      }
    }
  });
  s.halo.emplace(s.comm, s.ex, s.pattern, static_cast<std::size_t>(s.cols));
  if (options.transport != HaloTransport::automatic) {
    on_every_rank(c, [&] { s.halo->use(options.transport); });
    s.choose_reduction();
  } else if (s.halo->available().size() > 1) {
    // Each transport every rank has, timed on this pattern; the fastest stays.
    Array<V> x(s.ex, static_cast<std::size_t>(s.cols));
    for (HaloTransport t : s.halo->available()) {
      s.halo->use(t);
      s.measured.emplace_back(t, s.time_exchange(x.data()));
    }
    auto best = s.measured.front();
    for (const auto& m : s.measured) best = m.second < best.second ? m : best;
    s.halo->use(best.first);
    s.choose_reduction();
  }
}

template <class V, class I>
DistributedSpmv<V, I>::~DistributedSpmv() = default;
template <class V, class I>
DistributedSpmv<V, I>::DistributedSpmv(DistributedSpmv&&) noexcept = default;
template <class V, class I>
DistributedSpmv<V, I>& DistributedSpmv<V, I>::operator=(DistributedSpmv&&) noexcept = default;

template <class V, class I>
void DistributedSpmv<V, I>::apply(V alpha, const V* x, V beta, V* y) const {
  State& s = *s_;
  Stopwatch whole, phase;
  auto lap = [&](double& into) {
    if (!s.profile) return;
    into += phase.seconds();
    phase.restart();
  };
  s.halo->start(x);
  lap(s.times.pack);
  auto finish_halo = [&] {
    s.halo->wait();
    if (s.profile) s.ex->synchronize();  // NCCL's wait is the stream's
    lap(s.times.wait);
    s.halo->unpack();
    lap(s.times.unpack);
  };
  if (!s.overlap) finish_halo();
  s.local->apply(alpha, x, beta, y);
  if (s.profile) s.ex->synchronize();
  lap(s.times.local);
  if (s.overlap) finish_halo();
  s.add_remote(alpha, y);
  if (s.profile) {
    s.ex->synchronize();
    lap(s.times.remote);
    s.times.total += whole.seconds();
    ++s.times.products;
  }
}

template <class V, class I>
void DistributedSpmv<V, I>::apply(V alpha, const Array<V>& x, V beta, Array<V>& y) const {
  if (x.size() != static_cast<std::size_t>(cols()) || y.size() != static_cast<std::size_t>(rows())) {
    throw Error(ErrorCode::invalid_argument, "distributed product on rank " + std::to_string(s_->comm->rank()) + ": x has " + std::to_string(x.size()) +
                                                 " entries and y " + std::to_string(y.size()) + "; the rank owns " + std::to_string(cols()) +
                                                 " columns and " + std::to_string(rows()) + " rows");
  }
  apply(alpha, x.data(), beta, y.data());
}

template <class V, class I>
bool DistributedSpmv<V, I>::overlapped() const { return s_->overlap; }
template <class V, class I>
HaloTransport DistributedSpmv<V, I>::transport() const { return s_->halo->transport(); }
template <class V, class I>
const std::vector<HaloTransport>& DistributedSpmv<V, I>::available_transports() const { return s_->halo->available(); }
template <class V, class I>
const std::vector<std::pair<HaloTransport, double>>& DistributedSpmv<V, I>::measured_transports() const { return s_->measured; }
template <class V, class I>
std::string DistributedSpmv<V, I>::transport_unavailable(HaloTransport t) const { return s_->halo->why_not(t); }
template <class V, class I>
void DistributedSpmv<V, I>::set_transport(HaloTransport t) {
  s_->halo->use(t);
  s_->choose_reduction();
}
template <class V, class I>
bool DistributedSpmv<V, I>::reduces_on_device() const { return s_->reduce_on_device; }
template <class V, class I>
void DistributedSpmv<V, I>::set_reduces_on_device(bool on_device) {
  if (on_device && (s_->cpu || s_->halo->transport() != HaloTransport::nccl)) {
    throw Error(ErrorCode::invalid_argument, "set_reduces_on_device: sums stay on the device only on GPU ranks with the nccl transport");
  }
  s_->reduce_on_device = on_device;
}
template <class V, class I>
std::pair<double, double> DistributedSpmv<V, I>::reduction_times() const { return s_->reduction_times; }
template <class V, class I>
void DistributedSpmv<V, I>::device_allreduce_sum(double* values, std::size_t n) const { s_->halo->allreduce_sum_on_device(values, n); }
template <class V, class I>
void DistributedSpmv<V, I>::set_overlap(bool overlap) { s_->overlap = overlap; }
template <class V, class I>
void DistributedSpmv<V, I>::set_profile(bool profile) { s_->profile = profile; }
template <class V, class I>
const DistributedSpmvTimes& DistributedSpmv<V, I>::times() const { return s_->times; }
template <class V, class I>
void DistributedSpmv<V, I>::reset_times() { s_->times = {}; }
template <class V, class I>
I DistributedSpmv<V, I>::rows() const { return s_->rows; }
template <class V, class I>
I DistributedSpmv<V, I>::cols() const { return s_->cols; }
template <class V, class I>
std::int64_t DistributedSpmv<V, I>::global_rows() const { return s_->row_partition.rows(); }
template <class V, class I>
std::int64_t DistributedSpmv<V, I>::global_cols() const { return s_->column_partition.rows(); }
template <class V, class I>
const ExecutorPtr& DistributedSpmv<V, I>::executor() const { return s_->ex; }
template <class V, class I>
Backend DistributedSpmv<V, I>::backend() const { return s_->ex->backend(); }
template <class V, class I>
const CommunicatorPtr& DistributedSpmv<V, I>::communicator() const { return s_->comm; }
template <class V, class I>
const RowPartition& DistributedSpmv<V, I>::row_partition() const { return s_->row_partition; }
template <class V, class I>
const RowPartition& DistributedSpmv<V, I>::column_partition() const { return s_->column_partition; }
template <class V, class I>
const HaloPattern& DistributedSpmv<V, I>::pattern() const { return s_->pattern; }
template <class V, class I>
const SpmvPlan<V, I>& DistributedSpmv<V, I>::local_plan() const { return *s_->local; }
template <class V, class I>
const SpmvPlan<V, I>* DistributedSpmv<V, I>::remote_plan() const { return s_->remote ? &*s_->remote : nullptr; }
template <class V, class I>
const std::vector<V>& DistributedSpmv<V, I>::diagonal() const { return s_->diagonal; }
template <class V, class I>
const Csr<V, I>* DistributedSpmv<V, I>::local_block() const { return s_->local_block ? &*s_->local_block : nullptr; }

template <class V, class I>
std::string DistributedSpmv<V, I>::description() const {
  const State& s = *s_;
  std::string d = "rank " + std::to_string(s.comm->rank()) + " of " + std::to_string(s.comm->size()) + ": local " + s.local->description() + " (" +
                  std::to_string(s.rows) + " x " + std::to_string(s.cols) + ")";
  d += s.remote ? ", remote " + s.remote->description() + " (" + std::to_string(s.remote->rows()) + (s.remote_compressed ? " non-empty rows" : "") + " x " +
                      std::to_string(s.remote->cols()) + ")"
                : ", no remote part";
  d += ", halo: sends " + std::to_string(s.pattern.send_volume()) + " entries to " + std::to_string(s.pattern.send_ranks.size()) + " ranks, receives " +
       std::to_string(s.pattern.recv_volume()) + " from " + std::to_string(s.pattern.recv_ranks.size());
  if (!s.cpu) d += std::string(", transport ") + to_string(s.halo->transport());
  if (!s.cpu && s.halo->transport() == HaloTransport::nccl) d += s.reduce_on_device ? ", sums on the device" : ", sums through the host";
  return d + (s.overlap ? ", overlapped" : ", sequential");
}

template <class V>
std::vector<V> owned_entries(std::span<const V> x, const RowPartition& partition, int rank) {
  partition.validate();
  if (rank < 0 || rank >= partition.ranks() || static_cast<std::int64_t>(x.size()) != partition.rows()) {
    throw Error(ErrorCode::invalid_argument, "owned_entries: a vector of " + std::to_string(x.size()) + " entries, a partition of " +
                                                 std::to_string(partition.rows()) + " over " + std::to_string(partition.ranks()) + " ranks, rank " +
                                                 std::to_string(rank));
  }
  const auto first = x.begin() + partition.begin(rank);
  return std::vector<V>(first, first + partition.size(rank));
}

#define HSPARSE_INSTANTIATE(V, I) template class DistributedSpmv<V, I>;
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE
#define HSPARSE_INSTANTIATE(V) template std::vector<V> owned_entries(std::span<const V>, const RowPartition&, int);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::distributed
