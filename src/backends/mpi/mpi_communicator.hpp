#pragma once
// The MPI communicator (core/communicator.hpp), in builds with MPI only.
#include <cstdint>

#include "hsparse/core/communicator.hpp"

namespace hsparse::mpi {

// Whether an MPI launcher (mpirun, srun) started this process, or MPI is
// already initialised (mpi4py).
bool launched_or_initialised();
// A duplicate of MPI_COMM_WORLD, so that hsparse's messages never meet the
// caller's and its errors come back as return codes (MPI_ERRORS_RETURN)
// rather than aborting the job. Initialises MPI if nobody has, and
// finalises it at exit then. Collective on its first call.
CommunicatorPtr world();
// hsparse's own duplicate of the caller's communicator, given by its
// Fortran handle (MPI_Comm_c2f; mpi4py's Comm.py2f()), freed with it.
CommunicatorPtr from_fortran(std::int64_t handle);

}  // namespace hsparse::mpi
