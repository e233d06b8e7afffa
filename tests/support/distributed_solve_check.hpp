#pragma once
// The distributed Krylov solvers' checks, written once for ranks under
// mpirun (tests/mpi/) and ranks as threads (tests/unit/). Collective.
#include "hsparse/core/communicator.hpp"
#include "hsparse/core/executor.hpp"

namespace hsparse::test {

// CG, both pipelined CGs and GMRES, with and without Jacobi, on a 2D Poisson
// problem cut over comm's ranks, against the one-rank solve of the whole
// matrix on the same executor: the same status, iterations within one
// (the dots are summed in another order), and solutions within 2 kappa tol
// of each other (both are within kappa tol of the exact one; kappa < 400
// for the 30 x 30 grid).
void expect_distributed_solves_match(const CommunicatorPtr& comm, const ExecutorPtr& ex);

}  // namespace hsparse::test
