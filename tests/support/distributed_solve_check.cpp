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
  auto options = [&](KrylovMethod method, Preconditioner pre) {
    SolverOptions o;
    o.method = method;
    o.preconditioner = pre;
    o.tolerance = tol;
    o.restart = 40;
    o.max_iterations = 2000;
    return o;
  };
  // ||x - x_serial|| / ||x_serial|| over all ranks, x this rank's part.
  auto solution_error = [&](const Array<double>& xv, const std::vector<double>& xs) {
    const std::vector<double> x = xv.to_host();
    double sums[2] = {0, 0};
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double s = xs[static_cast<std::size_t>(part.begin(me)) + i];
      sums[0] += (x[i] - s) * (x[i] - s);
      sums[1] += s * s;
    }
    comm->allreduce_sum(sums, 2);
    return std::sqrt(sums[0] / sums[1]);
  };
  for (bool device_sums : on_device) {
    d.set_reduces_on_device(device_sums);
    for (KrylovMethod method : {KrylovMethod::cg, KrylovMethod::pipelined_cg, KrylovMethod::pipelined_cg_gv, KrylovMethod::gmres}) {
      for (Preconditioner pre : {Preconditioner::none, Preconditioner::jacobi}) {
        const SolverOptions o = options(method, pre);
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
        EXPECT_LE(solution_error(xv, xs), 2 * kappa * tol) << what;
      }
    }
  }
  // The preconditioners built from each rank's diagonal block (block Jacobi
  // over the ranks), Chebyshev, and the BiCGStabs: iterations differ from
  // one rank's (the blocks cut couplings), the solution may not.
  for (KrylovMethod method : {KrylovMethod::cg, KrylovMethod::gmres, KrylovMethod::bicgstab, KrylovMethod::pipelined_bicgstab}) {
    for (Preconditioner pre : {Preconditioner::none, Preconditioner::block_jacobi, Preconditioner::chebyshev, Preconditioner::ilu0, Preconditioner::ic0}) {
      const SolverOptions o = options(method, pre);
      const std::string what = std::string(to_string(method)) + "/" + to_string(pre) + ", rank " + std::to_string(me) + " of " + std::to_string(comm->size());
      std::vector<double> xs(b.size(), 0.0);
      solve(a, whole, std::span<const double>(b), std::span<double>(xs), o);
      const Array<double> bv(ex, std::span<const double>(owned_entries<double>(b, part, me)));
      Array<double> xv(ex, static_cast<std::size_t>(part.size(me)));
      const SolverResult r = solve(d, bv, xv, o);
      EXPECT_EQ(r.status, SolverStatus::converged) << what << ": " << r.message;
      if (pre == Preconditioner::ilu0 || pre == Preconditioner::ic0) EXPECT_NE(r.preconditioner.find("each rank's diagonal block"), std::string::npos) << what;
      EXPECT_LE(solution_error(xv, xs), 2 * kappa * tol) << what;
    }
  }
  // A rank whose block has a zero pivot fails every rank with its message.
  if (comm->size() > 1) {
    Csr<double, std::int64_t> mine = row_block(a, part.begin(me), part.begin(me) + part.size(me));
    if (me == comm->size() - 1 && mine.rows > 0) {
      for (auto k = mine.row_ptr[0]; k < mine.row_ptr[1]; ++k) {
        if (mine.col_idx[static_cast<std::size_t>(k)] == part.begin(me)) mine.values[static_cast<std::size_t>(k)] = 0.0;  // its first diagonal entry
      }
    }
    const DistributedSpmv<double, std::int32_t> dz(comm, ex, mine, part, part, csr);
    SolverOptions o;
    o.method = KrylovMethod::gmres;
    o.preconditioner = Preconditioner::ilu0;
    const Array<double> bv(ex, std::span<const double>(owned_entries<double>(b, part, me)));
    Array<double> xv(ex, static_cast<std::size_t>(part.size(me)));
    try {
      solve(dz, bv, xv, o);
      ADD_FAILURE() << "a zero pivot on the last rank was accepted, rank " << me;
    } catch (const Error& e) {
      // The failing rank names the pivot; the others name the failing rank.
      const std::string want = me == comm->size() - 1 ? "pivot" : "rank " + std::to_string(comm->size() - 1) + " failed";
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << "rank " << me << ": " << e.what();
    }
  }
}

}  // namespace hsparse::test
