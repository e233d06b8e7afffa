// Where world_communicator() chooses between MPI and one rank
// (core/communicator.hpp): the one file outside backends/mpi that knows
// whether this build has MPI, as executor_factory.cpp is for CUDA.
#include "hsparse/core/communicator.hpp"

#ifdef HSPARSE_HAVE_MPI
#include "mpi/mpi_communicator.hpp"
#endif

namespace hsparse {

bool built_with_mpi() noexcept {
#ifdef HSPARSE_HAVE_MPI
  return true;
#else
  return false;
#endif
}

CommunicatorPtr world_communicator() {
#ifdef HSPARSE_HAVE_MPI
  if (mpi::launched_or_initialised()) return mpi::world();
#endif
  return self_communicator();
}

}  // namespace hsparse
