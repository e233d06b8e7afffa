// Where world_communicator() chooses between MPI and one rank
// (core/communicator.hpp): the one file outside backends/mpi that knows
// whether this build has MPI, as executor_factory.cpp is for CUDA.
#include "hsparse/core/communicator.hpp"
#include "hsparse/core/error.hpp"

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

CommunicatorPtr mpi_communicator(std::int64_t fortran_handle) {
#ifdef HSPARSE_HAVE_MPI
  return mpi::from_fortran(fortran_handle);
#else
  (void)fortran_handle;
  throw Error(ErrorCode::unsupported, "an MPI communicator was given, but this hsparse was built without MPI");
#endif
}

}  // namespace hsparse
