#pragma once
/// @file
/// y = alpha A x + beta y with A's rows, x and y cut over the ranks of a
/// communicator (docs/distributed.md). Each rank holds its rows as two SpMV
/// plans on its executor: the local part (the columns it owns) and the
/// remote part (the ghost columns other ranks own), each in any registered
/// format, "auto" by default so that the advisor chooses per part. The
/// halo pattern is computed once, at construction.
///
/// A product (GHOST's task mode, Kreutzer et al., section 4.2), overlapped:
///   1. gather the entries of x the neighbours need (kernels/gather.hpp);
///   2. start the exchange (receives and sends);
///   3. y = alpha local x_owned + beta y, while the halo is in flight;
///   4. wait;
///   5. y += alpha remote x_ghost.
/// Sequential mode waits before step 3, so that the saving of the overlap
/// is measured, not assumed. On GPU ranks the halo travels by one of three
/// transports (HaloTransport), by default the fastest measured at setup.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "hsparse/core/array.hpp"
#include "hsparse/core/communicator.hpp"
#include "hsparse/core/executor.hpp"
#include "hsparse/distributed/halo_pattern.hpp"
#include "hsparse/distributed/row_partition.hpp"
#include "hsparse/formats/csr.hpp"
#include "hsparse/plans/spmv_plan.hpp"

namespace hsparse::distributed {

/// How a GPU rank's halo travels (docs/distributed.md, "Transports"); a
/// CPU rank's is in host memory and takes MPI directly (host).
enum class HaloTransport {
  automatic,   ///< every transport available on all ranks timed at setup, the fastest kept (host on CPU ranks)
  host,        ///< through host memory: device to host, MPI, host to device
  device_mpi,  ///< MPI on device memory (a CUDA-aware MPI, asked at run time)
  nccl,        ///< NCCL send/receive on a stream of its own, no host wait (built where NCCL is found)
};
/// "automatic", "host", "device-mpi", "nccl".
const char* to_string(HaloTransport t);
/// The inverse of to_string; Error(invalid_argument) naming the valid values.
HaloTransport parse_halo_transport(const std::string& name);

/// How a DistributedSpmv is built and run.
struct DistributedSpmvOptions {
  /// The local part's format and kernel. Default: format "auto" (the
  /// advisor chooses on this rank's part, plans/spmv_plan.hpp).
  SpmvOptions local = auto_format();
  /// The remote part's. Default "auto" too: the remote part is usually
  /// short and irregular (few columns, many empty rows), unlike the local.
  SpmvOptions remote = auto_format();
  /// Overlap the halo exchange with the local product (true), or wait for
  /// the halo before computing anything (false: the measured baseline).
  bool overlap = true;
  /// How the halo travels between GPU ranks.
  HaloTransport transport = HaloTransport::automatic;
  /// Time the phases of every product into times() (on a GPU this adds a
  /// synchronisation after the local product, so leave it off when timing
  /// the product as a whole).
  bool profile = false;
  /// Keep this rank's diagonal block (its rows and its own columns) on the
  /// host, for the solvers' preconditioners built from a matrix: block
  /// Jacobi, ILU(0) and IC(0) applied to each rank's block (PETSc's
  /// bjacobi). false saves the block's host memory; those preconditioners
  /// are then refused.
  bool keep_local_block = true;

  /// SpmvOptions with format "auto".
  static SpmvOptions auto_format() {
    SpmvOptions o;
    o.format.reset();
    return o;
  }
};

/// The phases of the products since construction or reset_times(), in
/// seconds summed over the products (DistributedSpmvOptions::profile).
struct DistributedSpmvTimes {
  long long products = 0;  ///< products timed
  double pack = 0;         ///< gathering the send buffers (and, on a GPU, copying them to the host)
  double local = 0;        ///< the local part's product
  double wait = 0;         ///< waiting for the halo after the local product (overlapped) or before it
  double unpack = 0;       ///< on a GPU, copying the received halo to the device
  double remote = 0;       ///< the remote part's product
  double total = 0;        ///< whole products
};

template <class V, class I>
/// One rank's share of a distributed matrix, ready for products.
///
/// Construction and apply() are collective: every rank of the communicator
/// makes the same calls in the same order. A failure on one rank during
/// construction (a part that does not fit the index type, a format that
/// refuses its part, memory) throws Error on every rank (agree_on_failure),
/// so no rank is left waiting in a collective. The partitions must be the
/// same on every rank (checked).
///
/// Threads: apply() uses the object's halo buffers, so one product at a
/// time per object.
class DistributedSpmv {
 public:
  /// `rows`: this rank's rows, row_partition.size(rank) of them, with global
  /// 64-bit column indices (rows.cols == column_partition.rows()). x is cut
  /// by `column_partition` (equal to the row partition for a square matrix
  /// whose y and x share a layout, as a Krylov solver needs).
  DistributedSpmv(CommunicatorPtr comm, ExecutorPtr ex, const Csr<V, std::int64_t>& rows, RowPartition row_partition, RowPartition column_partition,
                  const DistributedSpmvOptions& options = {});
  ~DistributedSpmv();
  DistributedSpmv(DistributedSpmv&&) noexcept;
  DistributedSpmv& operator=(DistributedSpmv&&) noexcept;

  /// y = alpha A x + beta y (beta == 0: y not read): x this rank's cols()
  /// entries, y its rows(), in the executor's memory. Collective.
  void apply(V alpha, const V* x, V beta, V* y) const;
  /// The same on Arrays of the executor (sizes checked).
  void apply(V alpha, const Array<V>& x, V beta, Array<V>& y) const;

  /// Whether products overlap the halo with the local part.
  bool overlapped() const;
  /// Switches between the overlapped and the sequential product (both use
  /// the same plans and pattern). Not collective, but every rank should
  /// agree, or the timings mean little.
  void set_overlap(bool overlap);
  /// The transport in use, those every rank can use, and (automatic on GPU
  /// ranks) the seconds per exchange measured for each at setup, the
  /// slowest rank's; why one is not available, in words.
  HaloTransport transport() const;
  const std::vector<HaloTransport>& available_transports() const;
  const std::vector<std::pair<HaloTransport, double>>& measured_transports() const;
  std::string transport_unavailable(HaloTransport t) const;
  /// Switches the transport (one of available_transports()). Collective:
  /// the first switch to NCCL joins every rank to an NCCL communicator.
  void set_transport(HaloTransport t);
  /// Whether a solver's sums over the ranks stay on the device (NCCL's
  /// all-reduce on GPU ranks with the nccl transport) rather than going
  /// through the host (a copy each way around an MPI all-reduce), and that
  /// sum: `values` (n doubles in the executor's memory) in place, ordered on
  /// the executor's stream. Collective. device_allreduce_sum throws
  /// Error(invalid_argument) where the transport is not nccl.
  /// Which is faster depends on the machine: NCCL's all-reduce of a few
  /// doubles against two copies around MPI's (on 1-4 H200s the device's
  /// took 9-11 us, the host's 15-18 us: docs/results/2026-11-28-distributed-h200x4),
  /// and MPI's grows with the ranks differently from NCCL's. So each switch
  /// to NCCL times both, the slowest rank's, and keeps the faster.
  bool reduces_on_device() const;
  void device_allreduce_sum(double* values, std::size_t n) const;
  /// Chooses the path (true: on the device; needs the nccl transport, else
  /// Error(invalid_argument)). Not collective, but every rank must agree.
  void set_reduces_on_device(bool on_device);
  /// Seconds per sum of four doubles measured at the last switch to NCCL:
  /// {on the device, through the host}; {0, 0} where not measured.
  std::pair<double, double> reduction_times() const;
  /// Times the phases of each product from now on (DistributedSpmvOptions::profile).
  void set_profile(bool profile);
  /// The phase times so far, and their reset.
  const DistributedSpmvTimes& times() const;
  void reset_times();

  /// This rank's rows (entries of y) and owned columns (entries of x).
  I rows() const;
  I cols() const;
  /// The global sizes.
  std::int64_t global_rows() const;
  std::int64_t global_cols() const;
  const ExecutorPtr& executor() const;
  Backend backend() const;
  const CommunicatorPtr& communicator() const;
  const RowPartition& row_partition() const;
  const RowPartition& column_partition() const;
  /// Who sends which entries of x to whom, computed at construction.
  const HaloPattern& pattern() const;
  /// The two plans: local always; remote null when the rank has no ghosts.
  /// The remote plan holds only the rows that touch a ghost when they are
  /// fewer than half of the rank's rows (its results are then added to y
  /// by a scatter, kernels/gather.hpp), else every row.
  const SpmvPlan<V, I>& local_plan() const;
  const SpmvPlan<V, I>* remote_plan() const;
  /// This rank's diagonal entries A(g, g) for its rows g (0 where absent),
  /// for Jacobi; the matrix must be square with equal partitions.
  const std::vector<V>& diagonal() const;
  /// This rank's diagonal block (rows() x cols(), local column indices) on
  /// the host, or null where DistributedSpmvOptions::keep_local_block was false.
  const Csr<V, I>* local_block() const;
  /// "local csr/adaptive (n rows, nnz), remote coo (...), halo ..." in one line.
  std::string description() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

/// Cuts `x` (one global vector, the same on every rank) to this rank's
/// entries under `partition`: what a rank passes as its x when the whole
/// vector is at hand.
template <class V>
std::vector<V> owned_entries(std::span<const V> x, const RowPartition& partition, int rank);

}  // namespace hsparse::distributed
