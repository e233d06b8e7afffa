// Each rank's executor (distributed/rank_executor.hpp).
#include "hsparse/distributed/rank_executor.hpp"

#include <algorithm>
#include <cstdlib>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/plans/backend_choice.hpp"

namespace hsparse::distributed {

namespace {

int local_rank(const Communicator& comm) {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}) {
    if (const char* v = std::getenv(name)) return std::atoi(v);
  }
  return comm.rank();
}

}  // namespace

ExecutorPtr rank_executor(const Communicator& comm, const std::string& choice) {
  ExecutorPtr ex;
  on_every_rank(comm, [&] {
    ex = resolve_backend(choice) == Backend::cuda ? cuda::make_cuda_executor(local_rank(comm) % std::max(1, cuda::device_count()))
                                                  : make_executor(Backend::cpu);
  });
  return ex;
}

}  // namespace hsparse::distributed
