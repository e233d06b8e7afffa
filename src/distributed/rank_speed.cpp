// Each rank's measured SpMV speed (distributed/rank_speed.hpp).
#include "hsparse/distributed/rank_speed.hpp"

#include "hsparse/core/array.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/plans/spmv_plan.hpp"

namespace hsparse::distributed {

std::vector<double> rank_speeds(const Communicator& comm, const ExecutorPtr& ex, const SpmvOptions& options) {
  double speed = 0;
  on_every_rank(comm, [&] {
    const int n = ex->backend() == Backend::cpu ? 48 : 128;
    const auto a = generators::stencil_3d<double, std::int32_t>(n, n, n, 27);
    const SpmvPlan<double, std::int32_t> plan(ex, a, options);
    const Array<double> x(ex, static_cast<std::size_t>(a.cols));
    Array<double> y(ex, static_cast<std::size_t>(a.rows));
    const TimingSummary t = time_for([&] { plan.apply(1.0, x, 0.0, y); }, 0.2, 5, [&] { ex->synchronize(); });
    speed = static_cast<double>(a.nnz()) / t.median_s;
  });
  std::vector<double> all(static_cast<std::size_t>(comm.size()), 0.0);
  all[static_cast<std::size_t>(comm.rank())] = speed;
  comm.allreduce_sum(all.data(), all.size());
  return all;
}

}  // namespace hsparse::distributed
