// The Krylov solvers on a distributed matrix (solvers/distributed_krylov.hpp):
// krylov_solve_with.hpp's one solve, whose KrylovOps sums every dot over
// the operator's ranks.
#include "hsparse/solvers/distributed_krylov.hpp"

#include <string>

#include "hsparse/core/types.hpp"
#include "krylov_solve_with.hpp"
#include "preconditioner_op.hpp"

namespace hsparse {

namespace {

// M^-1 of each rank's diagonal block, said so in its description.
template <class V>
class RankBlocks final : public detail::PreconditionerOp<V> {
 public:
  explicit RankBlocks(detail::PreconditionerPtr<V> inner) : inner_(std::move(inner)) {}
  void apply(const V* r, V* z) const override { inner_->apply(r, z); }
  std::string description() const override { return "on each rank's diagonal block (block Jacobi over the ranks): " + inner_->description(); }

 private:
  detail::PreconditionerPtr<V> inner_;
};

}  // namespace

template <class V, class I>
SolverResult solve(const distributed::DistributedSpmv<V, I>& op, const Array<V>& b, Array<V>& x, const SolverOptions& o) {
  const Communicator& comm = *op.communicator();
  // Local checks, agreed before the first collective of the solve.
  std::string problem;
  if (op.row_partition().offsets != op.column_partition().offsets) {
    problem = "a distributed Krylov solve needs a square matrix whose rows and columns are cut alike (" + std::to_string(op.global_rows()) + " x " +
              std::to_string(op.global_cols()) + ")";
  } else if (b.size() != static_cast<std::size_t>(op.rows()) || x.size() != static_cast<std::size_t>(op.rows())) {
    problem = "b has " + std::to_string(b.size()) + " and x " + std::to_string(x.size()) + " entries; this rank owns " + std::to_string(op.rows()) + " rows";
  } else {
    for (const Array<V>* v : {&b, static_cast<const Array<V>*>(&x)}) {
      if (v->size() > 0 && v->executor()->backend() != op.backend()) problem = "b and x must be on the operator's executor (" + op.executor()->description() + ")";
    }
  }
  std::vector<V> dinv;
  const bool diagonal = o.preconditioner == Preconditioner::jacobi || o.preconditioner == Preconditioner::chebyshev;
  if (problem.empty() && diagonal) {
    const std::int64_t first = op.row_partition().begin(comm.rank());
    for (std::size_t i = 0; i < op.diagonal().size() && problem.empty(); ++i) {
      if (op.diagonal()[i] == V(0)) problem = "Jacobi: row " + std::to_string(first + static_cast<std::int64_t>(i)) + " has no nonzero diagonal entry";
      dinv.push_back(V(1) / op.diagonal()[i]);
    }
  }
  agree_on_failure(comm, problem);
  // Block Jacobi, ILU(0) and IC(0) apply to each rank's diagonal block
  // (PETSc's bjacobi): no communication in M^-1, at the price of the
  // couplings between ranks, which the Krylov method has to make up.
  detail::PreconditionerSource<V> source;
  source.inverse_diagonal = [&] { return dinv; };
  // Built here, so that a rank whose block fails (a zero pivot) tells the
  // others before the solve's first collective (on_every_rank).
  const Preconditioner pre = o.preconditioner;
  detail::PreconditionerPtr<V> built;
  if (const Csr<V, I>* block = op.local_block();
      block && (pre == Preconditioner::block_jacobi || pre == Preconditioner::ilu0 || pre == Preconditioner::ic0)) {
    on_every_rank(comm, [&] {
      detail::check_preconditioner_options(o);
      built = std::make_unique<RankBlocks<V>>(detail::make_from_matrix(op.executor(), *block, o));
    });
    source.from_matrix = [&built](const SolverOptions&) { return std::move(built); };
  }
  return detail::solve_with(op, source, b, x, o);
}

#define HSPARSE_INSTANTIATE(V, I) \
  template SolverResult solve(const distributed::DistributedSpmv<V, I>&, const Array<V>&, Array<V>&, const SolverOptions&);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
