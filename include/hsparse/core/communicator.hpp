#pragma once
/// @file
/// The ranks a distributed operation runs on (docs/distributed.md). A
/// communicator sits beside the executor: the executor says where a rank's
/// data lives and its kernels run, the communicator how the ranks talk. It
/// wraps MPI where hsparse was built with it (`built_with_mpi()`); hsparse
/// writes no transport of its own. A one-rank communicator needs no MPI.
///
/// Every call except rank(), size() and description() is collective or
/// paired: all ranks (or both peers) make it, in the same order.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace hsparse {

/// One piece of a point-to-point exchange: `bytes` at `data` (host memory)
/// to or from rank `peer`.
struct CommMessage {
  int peer = 0;          ///< the other rank
  void* data = nullptr;  ///< the buffer (read for a send, written for a receive)
  std::size_t bytes = 0; ///< its length
};

/// An exchange under way (Communicator::start_exchange). wait() completes
/// it; until then the buffers belong to the exchange. The destructor waits
/// too, reporting nothing: call wait() to see errors.
class CommExchange {
 public:
  virtual ~CommExchange() = default;
  /// Returns when every send and receive of the exchange is complete;
  /// Error(communication) when one failed.
  virtual void wait() = 0;
};

/// How ranks talk: held through CommunicatorPtr, immutable, one per group of
/// ranks.
class Communicator {
 public:
  virtual ~Communicator() = default;
  /// This process's rank, 0 <= rank() < size().
  virtual int rank() const = 0;
  /// The number of ranks.
  virtual int size() const = 0;
  /// "self (1 rank)", or "MPI: rank 2 of 4 (Open MPI v4.1.4)".
  virtual std::string description() const = 0;
  /// The elementwise sum of `values` over every rank, in place (each rank
  /// passes the same n).
  virtual void allreduce_sum(double* values, std::size_t n) const = 0;
  /// The elementwise maximum of `values` over every rank, in place.
  virtual void allreduce_max(std::int64_t* values, std::size_t n) const = 0;
  /// One value to each rank (to_each[r] goes to rank r, size() values), one
  /// from each: the result's [r] came from rank r.
  virtual std::vector<std::int64_t> alltoall(const std::vector<std::int64_t>& to_each) const = 0;
  /// Starts the sends and receives; each pair of ranks must post matching
  /// lengths, and the messages between one pair arrive in the order posted.
  /// Error(invalid_argument) for a peer outside the ranks.
  virtual std::unique_ptr<CommExchange> start_exchange(const std::vector<CommMessage>& sends, const std::vector<CommMessage>& receives) const = 0;
  /// Starts the elementwise sum of `values` over every rank, in place: the
  /// sums are there after the returned exchange's wait(), and `values` must
  /// not be touched before (MPI_Iallreduce: a pipelined Krylov method's
  /// reduction travels while the rank multiplies). This default sums at
  /// once (allreduce_sum) and returns a finished exchange.
  virtual std::unique_ptr<CommExchange> start_allreduce_sum(double* values, std::size_t n) const;
  /// Whether start_exchange takes GPU device memory (a CUDA-aware MPI, asked
  /// at run time): then a GPU rank's halo can travel without host copies.
  virtual bool takes_device_memory() const { return false; }
};

/// How communicators are held: shared and immutable.
using CommunicatorPtr = std::shared_ptr<const Communicator>;

/// One rank, no MPI.
CommunicatorPtr self_communicator();

/// All the processes the job started: MPI_COMM_WORLD when hsparse was built
/// with MPI and the process was started by an MPI launcher (mpirun, srun);
/// else self_communicator(). Initialises MPI on first use if nothing else
/// has (and finalises it at exit); an MPI the caller initialised (mpi4py)
/// is used as it is.
CommunicatorPtr world_communicator();

/// A communicator over the ranks of an MPI communicator the caller made
/// (mpi4py's, a library's), given by its Fortran handle (MPI_Comm_c2f in C;
/// `comm.py2f()` in mpi4py): hsparse works on its own duplicate, so its
/// messages never meet the caller's. MPI must be running.
/// Error(unsupported) without MPI in this build, Error(communication) when
/// MPI is not initialised.
CommunicatorPtr mpi_communicator(std::int64_t fortran_handle);

/// Whether this hsparse was built with MPI.
bool built_with_mpi() noexcept;

/// A step that may fail on some ranks ends with this on every rank, before
/// the next collective: `local_error` is this rank's message, or empty if
/// it succeeded. If any rank failed, every rank throws Error(communication)
/// (a failing rank its own message, with its rank); none is left waiting.
void agree_on_failure(const Communicator& comm, const std::string& local_error);

/// Runs `step` on this rank, then agree_on_failure with the message of
/// whatever it threw (empty if nothing): every rank throws if any step
/// failed, so that no rank waits in a collective for one that gave up.
void on_every_rank(const Communicator& comm, const std::function<void()>& step);

}  // namespace hsparse
