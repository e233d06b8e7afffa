#include "support/spmv_plan_check.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/core/types.hpp"
#include "support/test_support.hpp"

namespace hsparse::test {

template <class V, class I>
PlanRun check_plan(const ExecutorPtr& ex, const Csr<V, I>& a, const SpmvOptions& options, const std::string& matrix, bool with_beta) {
  PlanRun run;
  std::optional<SpmvPlan<V, I>> plan;
  try {
    plan.emplace(ex, a, options);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::invalid_argument && e.code() != ErrorCode::unsupported) throw;
    run.refusal = e.code();
    run.reason = e.what();
    return run;
  }
  run.built = true;
  run.description = plan->description();
  const auto x = test_vector<V>(static_cast<std::size_t>(a.cols), 41);
  const auto y0 = test_vector<V>(static_cast<std::size_t>(a.rows), 42);
  const Array<V> dx(ex, std::span<const V>(x));
  const V nan(std::numeric_limits<real_type_t<V>>::quiet_NaN());
  std::vector<std::pair<V, V>> scalars = {{V(1), V(0)}};
  if (with_beta) scalars.push_back({V(-0.5), V(2)});
  for (const auto& [alpha, beta] : scalars) {
    const std::vector<V> start = beta == V(0) ? std::vector<V>(y0.size(), nan) : y0;
    Array<V> dy(ex, std::span<const V>(start));
    plan->apply(alpha, dx, beta, dy);
    const auto y = dy.to_host();  // waits for the executor
    const auto c = check_spmv_result<V, I>(a, x, alpha, beta, y0, y, format_traits(plan->format()).value_rounding);
    EXPECT_TRUE(c.passed) << matrix << " " << plan->description() << " on " << to_string(ex->backend()) << " (" << type_name<V>() << ", "
                          << type_name<I>() << ", beta " << (beta == V(0) ? "0, y poisoned with NaN" : "2") << "): " << c.message;
  }
  return run;
}

#define HSPARSE_INSTANTIATE(V, I) \
  template PlanRun check_plan(const ExecutorPtr&, const Csr<V, I>&, const SpmvOptions&, const std::string&, bool);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::test
