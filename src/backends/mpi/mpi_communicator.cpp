// The MPI communicator (backends/mpi/mpi_communicator.hpp): MPI from the
// system (OpenMPI on Debian); hsparse writes no transport of its own.
#include "mpi_communicator.hpp"

// The C API only: hsparse uses no MPI C++ bindings (deprecated since MPI-2.2).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
// Open MPI's extensions declare MPIX_Query_cuda_support where it was built with CUDA.
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <climits>
#include <cstdlib>
#include <mutex>

#include "hsparse/core/error.hpp"

namespace hsparse::mpi {

namespace {

// Messages of hsparse's exchanges carry this tag on hsparse's own communicator.
constexpr int kExchangeTag = 4853;

void check(int status, const char* call) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(status, text, &length);
  throw Error(ErrorCode::communication, std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

// MPI's counts are int: a longer message or reduction is refused, not cut.
int mpi_count(std::size_t n) {
  if (n > static_cast<std::size_t>(INT_MAX)) {
    throw Error(ErrorCode::overflow, "MPI count of " + std::to_string(n) + " elements: more than one MPI call takes (2^31 - 1)");
  }
  return static_cast<int>(n);
}

class MpiExchange final : public CommExchange {
 public:
  explicit MpiExchange(std::vector<MPI_Request> requests) : requests_(std::move(requests)) {}
  ~MpiExchange() override {
    if (!requests_.empty()) MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);  // no throw here
  }
  void wait() override {
    std::vector<MPI_Request> requests;
    requests.swap(requests_);
    check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }

 private:
  std::vector<MPI_Request> requests_;
};

class MpiCommunicator final : public Communicator {
 public:
  // `free_at_end`: the communicator is hsparse's own duplicate of a
  // caller's, freed with this object (unless MPI has finalised already).
  explicit MpiCommunicator(MPI_Comm comm, bool free_at_end = false) : comm_(comm), free_at_end_(free_at_end) {
    check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    library_ = std::string(version, static_cast<std::size_t>(length));
    library_ = library_.substr(0, library_.find_first_of(",\n"));
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  ~MpiCommunicator() override {
    int finalised = 0;
    MPI_Finalized(&finalised);
    if (free_at_end_ && !finalised) MPI_Comm_free(&comm_);
  }
  MpiCommunicator(const MpiCommunicator&) = delete;
  MpiCommunicator& operator=(const MpiCommunicator&) = delete;
  std::string description() const override {
    return "MPI: rank " + std::to_string(rank_) + " of " + std::to_string(size_) + " (" + library_ + ")";
  }
  void allreduce_sum(double* values, std::size_t n) const override {
    check(MPI_Allreduce(MPI_IN_PLACE, values, mpi_count(n), MPI_DOUBLE, MPI_SUM, comm_), "MPI_Allreduce");
  }
  void allreduce_max(std::int64_t* values, std::size_t n) const override {
    check(MPI_Allreduce(MPI_IN_PLACE, values, mpi_count(n), MPI_INT64_T, MPI_MAX, comm_), "MPI_Allreduce");
  }
  std::vector<std::int64_t> alltoall(const std::vector<std::int64_t>& to_each) const override {
    if (to_each.size() != static_cast<std::size_t>(size_)) {
      throw Error(ErrorCode::invalid_argument, "alltoall on " + std::to_string(size_) + " ranks: " + std::to_string(to_each.size()) + " values given");
    }
    std::vector<std::int64_t> from_each(to_each.size());
    check(MPI_Alltoall(to_each.data(), 1, MPI_INT64_T, from_each.data(), 1, MPI_INT64_T, comm_), "MPI_Alltoall");
    return from_each;
  }
  std::unique_ptr<CommExchange> start_allreduce_sum(double* values, std::size_t n) const override {
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Iallreduce(MPI_IN_PLACE, values, mpi_count(n), MPI_DOUBLE, MPI_SUM, comm_, &request), "MPI_Iallreduce");
    return std::make_unique<MpiExchange>(std::vector<MPI_Request>{request});
  }
  // Open MPI answers at run time whether its CUDA support is there (a build
  // with CUDA may run on a library without); other MPIs: not assumed.
  bool takes_device_memory() const override {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    return MPIX_Query_cuda_support() == 1;
#else
    return false;
#endif
  }
  std::unique_ptr<CommExchange> start_exchange(const std::vector<CommMessage>& sends, const std::vector<CommMessage>& receives) const override {
    for (const auto* list : {&sends, &receives}) {
      for (const CommMessage& m : *list) {
        if (m.peer < 0 || m.peer >= size_) {
          throw Error(ErrorCode::invalid_argument, "exchange: peer " + std::to_string(m.peer) + " is not one of the " + std::to_string(size_) + " ranks");
        }
      }
    }
    std::vector<MPI_Request> requests(receives.size() + sends.size(), MPI_REQUEST_NULL);
    // Receives first, so that no send waits for its buffer to be known.
    for (std::size_t i = 0; i < receives.size(); ++i) {
      check(MPI_Irecv(receives[i].data, mpi_count(receives[i].bytes), MPI_BYTE, receives[i].peer, kExchangeTag, comm_, &requests[i]), "MPI_Irecv");
    }
    for (std::size_t i = 0; i < sends.size(); ++i) {
      check(MPI_Isend(sends[i].data, mpi_count(sends[i].bytes), MPI_BYTE, sends[i].peer, kExchangeTag, comm_, &requests[receives.size() + i]),
            "MPI_Isend");
    }
    return std::make_unique<MpiExchange>(std::move(requests));
  }

 private:
  MPI_Comm comm_;
  bool free_at_end_ = false;
  int rank_ = 0, size_ = 1;
  std::string library_;
};

bool we_initialised = false;

void finalise_at_exit() {
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (we_initialised && !finalised) MPI_Finalize();
}

}  // namespace

bool launched_or_initialised() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (initialised) return true;
  // Open MPI's mpirun, PMI (MPICH, Slurm's srun) and PMIx launchers.
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"}) {
    if (std::getenv(variable) != nullptr) return true;
  }
  return false;
}

CommunicatorPtr from_fortran(std::int64_t handle) {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  if (!initialised || finalised) {
    throw Error(ErrorCode::communication, "an MPI communicator handle was given, but MPI is not running (initialise it first, e.g. import mpi4py.MPI)");
  }
  if (handle < INT_MIN || handle > INT_MAX) throw Error(ErrorCode::invalid_argument, "MPI communicator handle " + std::to_string(handle) + " is not a Fortran handle");
  const MPI_Comm given = MPI_Comm_f2c(static_cast<MPI_Fint>(handle));
  if (given == MPI_COMM_NULL) throw Error(ErrorCode::invalid_argument, "the MPI communicator handle names MPI_COMM_NULL");
  MPI_Comm own = MPI_COMM_NULL;
  check(MPI_Comm_dup(given, &own), "MPI_Comm_dup");
  check(MPI_Comm_set_errhandler(own, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  return std::make_shared<MpiCommunicator>(own, true);
}

CommunicatorPtr world() {
  static std::once_flag once;
  static CommunicatorPtr comm;
  std::call_once(once, [] {
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (!initialised) {
      // Funneled: only the thread that made the communicator calls MPI; the
      // OpenMP threads inside a rank's kernels never do.
      int provided = 0;
      check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
      we_initialised = true;
      std::atexit(finalise_at_exit);
    }
    MPI_Comm own = MPI_COMM_NULL;
    check(MPI_Comm_dup(MPI_COMM_WORLD, &own), "MPI_Comm_dup");
    check(MPI_Comm_set_errhandler(own, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    comm = std::make_shared<MpiCommunicator>(own);
  });
  return comm;
}

}  // namespace hsparse::mpi
