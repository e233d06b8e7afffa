// hsparse spmv and solve on several ranks (distributed_cli.hpp).
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include "default_vector.hpp"
#include "distributed_cli.hpp"
#include "distributed_setup.hpp"
#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/core/communicator.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/distributed/distributed_spmv.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/solvers/distributed_krylov.hpp"
#include "terminal_progress.hpp"

namespace hsparse::tool {

using distributed::DistributedSpmv;
using distributed::RankRows;
using distributed::RowPartition;

bool several_ranks() { return world_communicator()->size() > 1; }

namespace {

template <class V>
int spmv_on_ranks(const DistributedRun& run, int repetitions, double min_time_s, bool check, const std::string& out_file) {
  const CommunicatorPtr comm = world_communicator();
  const Communicator& c = *comm;
  const ExecutorPtr ex = distributed::rank_executor(c, run.backend);
  Renumbering renumbering;
  const RankRows<V> rows = load_rows<V>(c, run, ex, &renumbering);
  const RowPartition columns = rows.global_cols == rows.partition.rows() ? rows.partition : distributed::contiguous_rows(rows.global_cols, c.size());
  Stopwatch setup;
  DistributedSpmv<V, std::int32_t> d(comm, ex, rows.rows, rows.partition, columns, part_options(run, 1000));
  const double setup_s = setup.seconds();
  const int me = c.rank();
  // x in the file's numbering (a graph cut renumbered the rows and, alike, the columns).
  const std::vector<V> x = default_entries<V>(static_cast<std::size_t>(columns.size(me)), static_cast<std::size_t>(columns.begin(me)), renumbering);
  const Array<V> xv(ex, std::span<const V>(x));
  Array<V> yv(ex, static_cast<std::size_t>(d.rows()));
  if (me == 0) {
    std::printf("%s: %lld x %lld, %s, on %d ranks (%s), rows cut by %s\n", run.source.c_str(), static_cast<long long>(d.global_rows()),
                static_cast<long long>(d.global_cols()), type_name<V>(), c.size(), c.description().c_str(),
                generators::is_generator_spec(run.source) ? (run.cut == "speed" ? "speed (each rank generated its own)" : "rows (each rank generated its own)")
                : run.cut == "graph"                     ? "METIS's graph cut (rank 0 read the file; rows renumbered, x and y in the file's order)"
                                                          : (run.cut + " (rank 0 read the file)").c_str());
  }
  std::printf("%s: %s\n", ex->description().c_str(), d.description().c_str());
  std::fflush(stdout);
  print_layout(c, d, rows);
  // The time of a product is the slowest rank's: each rank times the same
  // count of products, and the maximum is taken.
  const auto timed = [&](bool overlap) {
    d.set_overlap(overlap);
    d.apply(V(1), xv, V(0), yv);
    ex->synchronize();
    double seconds = 0;
    int count = 0;
    do {
      Stopwatch w;
      for (int i = 0; i < repetitions; ++i) d.apply(V(1), xv, V(0), yv);
      ex->synchronize();
      std::int64_t ns = static_cast<std::int64_t>(w.seconds() * 1e9);
      c.allreduce_max(&ns, 1);
      seconds += static_cast<double>(ns) * 1e-9;
      count += repetitions;
    } while (seconds < min_time_s);
    return seconds / count;
  };
  const double overlapped = timed(true), sequential = timed(false);
  // Phases, on a separate run with profiling (synchronised after each phase).
  d.set_overlap(true);
  d.set_profile(true);
  d.reset_times();
  for (int i = 0; i < repetitions; ++i) d.apply(V(1), xv, V(0), yv);
  const auto& t = d.times();
  const double n = std::max<long long>(1, t.products);
  const std::vector<double> phases = per_rank(c, {t.pack / n, t.local / n, t.wait / n, t.unpack / n, t.remote / n, t.total / n});
  double nnz = static_cast<double>(rows.rows.nnz());
  c.allreduce_sum(&nnz, 1);
  if (me == 0) {
    std::printf("phases   (overlapped, synchronised after each; us per product)\n");
    for (int r = 0; r < c.size(); ++r) {
      const double* a = &phases[static_cast<std::size_t>(r) * 6];
      std::printf("rank %-3d pack %8.1f  local %8.1f  halo wait %8.1f  unpack %8.1f  remote %8.1f  total %8.1f\n", r, a[0] * 1e6, a[1] * 1e6,
                  a[2] * 1e6, a[3] * 1e6, a[4] * 1e6, a[5] * 1e6);
    }
    std::printf("spmv     overlapped %.3f ms, sequential %.3f ms (overlap saves %.1f%%), %.2f GFLOP/s; setup %.3f s\n", overlapped * 1e3,
                sequential * 1e3, 100.0 * (sequential - overlapped) / sequential, 2.0 * nnz / overlapped * 1e-9, setup_s);
  }
  // y on rank 0, for --check and --out.
  int status = 0;
  if (check || !out_file.empty()) {
    d.set_profile(false);
    d.apply(V(1), xv, V(0), yv);
    const std::vector<V> y = gather_on_root<V>(c, rows.partition, yv.to_host(), renumbering);  // the file's order
    if (me == 0 && check) {
      if (generators::is_generator_spec(run.source)) {
        std::printf("check    skipped: the serial reference needs the whole matrix on one rank; give the matrix as a file (hsparse convert SPEC FILE.hsp)\n");
      } else {
        const auto a = io::load_matrix<V, std::int64_t>(run.source);
        const std::vector<V> xall = default_x<V>(static_cast<std::size_t>(a.cols));
        const SpmvCheck r = check_spmv_result<V, std::int64_t>(a, xall, V(1), V(0), {}, y, 0.0);
        std::printf("check    against the serial double-precision reference: %s (relative error %.3g, worst row at %.3g of its bound)\n",
                    r.passed ? "PASSED" : "FAILED", r.relative_error, r.worst_bound_ratio);
        if (!r.passed) status = 1;
      }
    }
    if (me == 0 && !out_file.empty()) io::write_matrix_market_vector<V>(out_file, y);
  }
  std::int64_t worst = status;
  c.allreduce_max(&worst, 1);
  return static_cast<int>(worst);
}

template <class V>
int solve_on_ranks(const DistributedRun& run, const SolverOptions& options, const std::string& out_file) {
  const CommunicatorPtr comm = world_communicator();
  const Communicator& c = *comm;
  const int me = c.rank();
  const ExecutorPtr ex = distributed::rank_executor(c, run.backend);
  Renumbering renumbering;
  const RankRows<V> rows = load_rows<V>(c, run, ex, &renumbering);
  if (rows.global_cols != rows.partition.rows()) {
    throw Error(ErrorCode::invalid_argument, run.source + ": a solve needs a square matrix, not " + std::to_string(rows.partition.rows()) + " x " +
                                                 std::to_string(rows.global_cols));
  }
  DistributedSpmv<V, std::int32_t> d(comm, ex, rows.rows, rows.partition, rows.partition,
                                     part_options(run, std::max(1, std::min(options.max_iterations, 1000))));
  const std::size_t n = static_cast<std::size_t>(d.rows()), first = static_cast<std::size_t>(rows.partition.begin(me));
  // b = A x*, x* the default vector, so that the error in x is known too.
  const std::vector<V> xstar = default_entries<V>(n, first, renumbering);
  const Array<V> xs(ex, std::span<const V>(xstar));
  Array<V> b(ex, n), x(ex, n);
  d.apply(V(1), xs, V(0), b);
  SolverOptions o = options;
  if (me != 0) o.progress = nullptr;
  if (me == 0) {
    std::printf("%s: %lld x %lld, %s, on %d ranks (%s)\n", run.source.c_str(), static_cast<long long>(d.global_rows()),
                static_cast<long long>(d.global_cols()), type_name<V>(), c.size(), c.description().c_str());
  }
  std::fflush(stdout);
  print_layout(c, d, rows);
  const SolverResult r = solve(d, b, x, o);
  if (o.progress) std::fprintf(stderr, "\r\033[K");
  // The true residual ||b - A x|| / ||b|| and the error, summed over the ranks.
  Array<V> ax(ex, n);
  d.apply(V(1), x, V(0), ax);
  const std::vector<V> xh = x.to_host(), axh = ax.to_host(), bh = b.to_host();
  double sums[4] = {0, 0, 0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    sums[0] += std::norm(bh[i] - axh[i]);
    sums[1] += std::norm(bh[i]);
    sums[2] += std::norm(xh[i] - xstar[i]);
    sums[3] += std::norm(xstar[i]);
  }
  c.allreduce_sum(sums, 4);
  if (me == 0) {
    std::printf("solver      %s, preconditioner %s, operator %s (rank 0)\n", to_string(o.method), to_string(o.preconditioner), d.local_plan().description().c_str());
    if (!r.preconditioner.empty()) std::printf("M^-1        %s (rank 0's)\n", r.preconditioner.c_str());
    std::printf("status      %s: %s\n", to_string(r.status), r.message.c_str());
    std::printf("iterations  %d\n", r.iterations);
    std::printf("time        setup %.3f ms, iterations %.3f ms, %.2f us per iteration (rank 0's clock)\n", r.setup_seconds * 1e3, r.seconds * 1e3,
                r.iterations > 0 ? r.seconds / r.iterations * 1e6 : 0.0);
    std::printf("residual    solver %.3e, true ||b - Ax||/||b|| %.3e (tolerance %.1e)\n", r.relative_residual,
                sums[1] > 0 ? std::sqrt(sums[0] / sums[1]) : 0.0, o.tolerance);
    std::printf("error       ||x - x*||/||x*|| %.3e (b = A x*)\n", sums[3] > 0 ? std::sqrt(sums[2] / sums[3]) : 0.0);
  }
  if (!out_file.empty()) {
    const std::vector<V> all = gather_on_root<V>(c, rows.partition, xh, renumbering);  // the file's order
    if (me == 0) io::write_matrix_market_vector<V>(out_file, all);
  }
  return r.converged() ? 0 : 1;
}

}  // namespace

int distributed_spmv(const DistributedRun& run, int repetitions, double min_time_s, bool check, const std::string& out_file) {
  return with_value_type(run, [&](auto v) { return spmv_on_ranks<decltype(v)>(run, repetitions, min_time_s, check, out_file); });
}

int distributed_solve(const DistributedRun& run, const SolverOptions& options, const std::string& out_file) {
  return with_value_type(run, [&](auto v) {
    using V = decltype(v);
    if constexpr (is_complex_v<V>) {
      throw Error(ErrorCode::unsupported, "hsparse solve: complex matrices are not supported (CG and GMRES here are real)");
      return 1;
    } else {
      return solve_on_ranks<V>(run, options, out_file);
    }
  });
}

}  // namespace hsparse::tool
