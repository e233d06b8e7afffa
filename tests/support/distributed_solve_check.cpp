// The distributed Krylov solvers' checks (distributed_solve_check.hpp).
#include "distributed_solve_check.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "hsparse/core/error.hpp"
#include "hsparse/distributed/halo_split.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/solvers/distributed_krylov.hpp"
#include "test_support.hpp"

namespace hsparse::test {

void expect_distributed_solves_match(const CommunicatorPtr& comm, const ExecutorPtr& ex) {
  using namespace distributed;
  const int me = comm->rank();
  const auto a = generators::stencil_2d<double, std::int64_t>(30, 30, 5);
  const double kappa = 400, tol = 1e-10;
  const RowPartition part = contiguous_rows(a.rows, comm->size());
  const std::vector<double> b = test_vector<double>(static_cast<std::size_t>(a.rows), 5);
  DistributedSpmvOptions csr;
  csr.local = csr.remote = SpmvOptions{};
  DistributedSpmv<double, std::int32_t> d(comm, ex, row_block(a, part.begin(me), part.begin(me) + part.size(me)), part, part, csr);
  // GPU ranks with NCCL: the solvers' sums both on the device and through the host.
  std::vector<bool> on_device = {false};
  if (d.transport() == HaloTransport::nccl) {
    on_device.push_back(true);
  } else {
    EXPECT_THROW(d.set_reduces_on_device(true), Error) << "sums on the device without NCCL";
  }
  const SpmvPlan<double, std::int64_t> whole(ex, a, {});
  for (bool device_sums : on_device) {
    d.set_reduces_on_device(device_sums);
    for (KrylovMethod method : {KrylovMethod::cg, KrylovMethod::pipelined_cg, KrylovMethod::pipelined_cg_gv, KrylovMethod::gmres}) {
      for (Preconditioner pre : {Preconditioner::none, Preconditioner::jacobi}) {
        SolverOptions o;
        o.method = method;
        o.preconditioner = pre;
        o.tolerance = tol;
        o.restart = 40;
        o.max_iterations = 2000;
        const std::string what = std::string(to_string(method)) + "/" + to_string(pre) + ", rank " + std::to_string(me) + " of " + std::to_string(comm->size()) +
                                 (device_sums ? ", sums on the device" : "");
        std::vector<double> xs(b.size(), 0.0);
        const SolverResult serial = solve(a, whole, std::span<const double>(b), std::span<double>(xs), o);
        const Array<double> bv(ex, std::span<const double>(owned_entries<double>(b, part, me)));
        Array<double> xv(ex, static_cast<std::size_t>(part.size(me)));
        const SolverResult r = solve(d, bv, xv, o);
        EXPECT_EQ(r.status, serial.status) << what << ": " << r.message;
        EXPECT_LE(std::abs(r.iterations - serial.iterations), 1) << what;
        EXPECT_EQ(r.history.size(), static_cast<std::size_t>(r.iterations) + 1) << what;
        const std::vector<double> x = xv.to_host();
        double diff = 0, norm = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
          const double s = xs[static_cast<std::size_t>(part.begin(me)) + i];
          diff += (x[i] - s) * (x[i] - s);
          norm += s * s;
        }
        double sums[2] = {diff, norm};
        comm->allreduce_sum(sums, 2);
        EXPECT_LE(std::sqrt(sums[0] / sums[1]), 2 * kappa * tol) << what;
      }
    }
  }
}

}  // namespace hsparse::test
