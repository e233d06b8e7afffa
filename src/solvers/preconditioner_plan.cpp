// PreconditionerPlan (solvers/preconditioner.hpp): an SpMV plan of A and the
// solvers' own KrylovOps, whose precondition() is M^-1 for every kind.
#include "hsparse/solvers/preconditioner.hpp"

#include <optional>

#include "hsparse/core/array.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "krylov_ops.hpp"
#include "krylov_solve_with.hpp"
#include "preconditioner_op.hpp"

namespace hsparse {

template <class V, class I>
struct PreconditionerPlan<V, I>::State {
  SpmvPlan<V, I> plan;
  std::optional<detail::KrylovOps<V, SpmvPlan<V, I>>> ops;
  std::int64_t n = 0;
  State(ExecutorPtr ex, const Csr<V, I>& a) : plan(std::move(ex), a, {}), n(a.rows) {}
};

template <class V, class I>
PreconditionerPlan<V, I>::PreconditionerPlan(ExecutorPtr ex, const Csr<V, I>& a, const SolverOptions& o) {
  if (a.rows != a.cols) throw Error(ErrorCode::invalid_argument, "a preconditioner needs a square matrix, not " + std::to_string(a.rows) + " x " + std::to_string(a.cols));
  if (o.preconditioner == Preconditioner::none) throw Error(ErrorCode::invalid_argument, "PreconditionerPlan: the preconditioner is none; name one");
  detail::check_preconditioner_options(o);
  s_ = std::make_unique<State>(std::move(ex), a);
  const Preconditioner p = o.preconditioner;
  const bool diagonal = p == Preconditioner::jacobi || p == Preconditioner::chebyshev;
  s_->ops.emplace(s_->plan, static_cast<std::size_t>(a.rows), diagonal ? inverse_diagonal(a) : std::vector<V>{},
                  diagonal ? nullptr : detail::make_from_matrix(s_->plan.executor(), a, o));
  if (p == Preconditioner::chebyshev) s_->ops->use_chebyshev(o.chebyshev_degree, detail::kChebyshevLanczosSteps);
}

template <class V, class I>
PreconditionerPlan<V, I>::~PreconditionerPlan() = default;
template <class V, class I>
PreconditionerPlan<V, I>::PreconditionerPlan(PreconditionerPlan&&) noexcept = default;
template <class V, class I>
PreconditionerPlan<V, I>& PreconditionerPlan<V, I>::operator=(PreconditionerPlan&&) noexcept = default;

template <class V, class I>
void PreconditionerPlan<V, I>::apply(const V* r, V* z) const {
  s_->ops->precondition(r, z);
}

template <class V, class I>
void PreconditionerPlan<V, I>::apply(std::span<const V> r, std::span<V> z) const {
  const auto n = static_cast<std::size_t>(s_->n);
  if (r.size() != n || z.size() != n) {
    throw Error(ErrorCode::invalid_argument, "PreconditionerPlan::apply: r has " + std::to_string(r.size()) + " and z " + std::to_string(z.size()) +
                                                 " entries for " + std::to_string(n) + " rows");
  }
  const ExecutorPtr& ex = s_->plan.executor();
  const Array<V> rv(ex, r);
  Array<V> zv(ex, n);
  apply(rv.data(), zv.data());
  ex->copy_to_host(z.data(), zv.data(), n * sizeof(V));
}

template <class V, class I>
std::string PreconditionerPlan<V, I>::description() const { return s_->ops->preconditioner_description(); }
template <class V, class I>
std::int64_t PreconditionerPlan<V, I>::rows() const { return s_->n; }
template <class V, class I>
const ExecutorPtr& PreconditionerPlan<V, I>::executor() const { return s_->plan.executor(); }

#define HSPARSE_INSTANTIATE(V, I) template class PreconditionerPlan<V, I>;
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
