#pragma once
/// @file
/// The Krylov solvers of solvers/krylov.hpp on a distributed matrix
/// (distributed/distributed_spmv.hpp): the same algorithms, with the rank's
/// entries as the vectors, the distributed product as the operator and
/// every inner product summed over the ranks (docs/distributed.md). CG and
/// GMRES take two and 2(j+1)+1 all-reduces per iteration; pipelined CG
/// sends its iteration's four dots in one. Collective: every rank calls it
/// with its own entries of b and x, and every rank gets the same status,
/// iteration count and residual history.
#include "hsparse/distributed/distributed_spmv.hpp"
#include "hsparse/solvers/krylov.hpp"

namespace hsparse {

/// Solves A x = b from the x given, b and x this rank's entries (Arrays on
/// the operator's executor, op.rows() of each). A must be square with the
/// same row and column partition (checked). Jacobi takes the diagonal the
/// operator kept; a zero or missing diagonal entry on any rank fails every
/// rank, naming the global row. Real value types.
template <class V, class I>
SolverResult solve(const distributed::DistributedSpmv<V, I>& op, const Array<V>& b, Array<V>& x, const SolverOptions& options);

}  // namespace hsparse
