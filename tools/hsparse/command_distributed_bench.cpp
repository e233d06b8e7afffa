// hsparse bench on several ranks (distributed_cli.hpp): the distributed
// product and CG against one rank and against PETSc, on the same rows,
// partition and ranks, in one run.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>

#include "bench/petsc_baseline.hpp"
#include "default_vector.hpp"
#include "distributed_cli.hpp"
#include "distributed_setup.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/atomic_file.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/solvers/distributed_krylov.hpp"
#include "hsparse_commit.hpp"  // HSPARSE_GIT_COMMIT

namespace hsparse::tool {

namespace {

using distributed::DistributedSpmv;
using distributed::RankRows;
using Json = nlohmann::json;

// The suite on several ranks: a 27-point stencil (a regular halo, the
// weak-scaling case of issue 64) and a power-law matrix (an irregular halo:
// random columns reach every rank).
std::vector<std::string> default_sources(bool quick) {
  if (quick) return {"stencil3d:n=40,points=27", "powerlaw:rows=100000"};
  return {"stencil3d:n=100,points=27", "powerlaw:rows=1000000"};
}

// Seconds per call of fn, the slowest rank's, over at least min_time_s.
double slowest_per_call(const Communicator& c, const Executor& ex, const std::function<void()>& fn, double min_time_s) {
  // Warm-up for about a quarter of the time (caches, clocks, first
  // touches): a single call left the first variant timed measurably slower
  // than the next. The count is agreed: fn is collective.
  Stopwatch first;
  fn();
  ex.synchronize();
  std::int64_t ns = std::max<std::int64_t>(1, static_cast<std::int64_t>(first.seconds() * 1e9));
  c.allreduce_max(&ns, 1);
  const auto warm = std::min<std::int64_t>(1000, static_cast<std::int64_t>(0.25 * min_time_s * 1e9) / ns);
  for (std::int64_t i = 0; i < warm; ++i) fn();
  ex.synchronize();
  double total = 0;
  long long calls = 0;
  int batch = 1;
  do {
    std::int64_t barrier = 0;
    c.allreduce_max(&barrier, 1);
    Stopwatch w;
    for (int i = 0; i < batch; ++i) fn();
    ex.synchronize();
    std::int64_t ns = static_cast<std::int64_t>(w.seconds() * 1e9);
    c.allreduce_max(&ns, 1);
    total += static_cast<double>(ns) * 1e-9;
    calls += batch;
    batch = std::min(batch * 2, 64);
  } while (total < min_time_s);
  return total / static_cast<double>(calls);
}

// One product on rank 0 alone, with the whole matrix and the same format:
// the one-rank time of the parallel efficiency. The other ranks wait. The
// indices are 32-bit where the matrix allows, as the ranks' parts are.
template <class I>
double one_rank_product(const ExecutorPtr& ex, const DistributedRun& run, double min_time_s) {
  const Csr<double, I> a = io::load_matrix<double, I>(run.source);  // a file, or the whole generated matrix
  const SpmvPlan<double, I> plan(ex, a, part_options(run, 1000).local);
  const Array<double> x(ex, std::span<const double>(default_x<double>(static_cast<std::size_t>(a.cols))));
  Array<double> y(ex, static_cast<std::size_t>(a.rows));
  return time_for([&] { plan.apply(1.0, x, 0.0, y); }, min_time_s, 10, [&] { ex->synchronize(); }).median_s;
}

double one_rank_seconds(const Communicator& c, const ExecutorPtr& ex, const DistributedRun& run, double min_time_s, double nnz, std::int64_t rows) {
  double seconds = 0;
  on_every_rank(c, [&] {
    if (c.rank() != 0) return;
    const bool narrow = nnz <= static_cast<double>(std::numeric_limits<std::int32_t>::max()) && rows <= std::numeric_limits<std::int32_t>::max();
    seconds = narrow ? one_rank_product<std::int32_t>(ex, run, min_time_s) : one_rank_product<std::int64_t>(ex, run, min_time_s);
  });
  double all[1] = {seconds};
  c.allreduce_sum(all, 1);
  return all[0];
}

// Seconds per iteration of a distributed Krylov method, tolerance 0 (every
// iteration runs), the slowest rank's; 0 with `why` when the method stopped
// early (CG on a matrix that is not positive definite breaks down).
double krylov_iteration_seconds(const Communicator& c, const DistributedSpmv<double, std::int32_t>& d, KrylovMethod method, int iterations,
                                std::string& why) {
  const auto n = static_cast<std::size_t>(d.rows());
  const std::vector<double> xs = default_x<double>(n, static_cast<std::size_t>(d.row_partition().begin(c.rank())));
  const Array<double> xstar(d.executor(), std::span<const double>(xs));
  Array<double> b(d.executor(), n), x(d.executor(), n);
  d.apply(1.0, xstar, 0.0, b);
  SolverOptions o;
  o.method = method;
  o.tolerance = 0;
  o.max_iterations = iterations;
  o.record_history = false;
  const SolverResult r = solve(d, b, x, o);
  std::int64_t ns = static_cast<std::int64_t>(r.seconds * 1e9);
  c.allreduce_max(&ns, 1);
  if (r.iterations < iterations) {  // the same on every rank: the status comes from summed dots
    why = std::string(to_string(method)) + " stopped after " + std::to_string(r.iterations) + " iterations: " + r.message;
    return 0.0;
  }
  return static_cast<double>(ns) * 1e-9 / r.iterations;
}

// One format for both parts: the product overlapped and sequential, the
// phases, the one-rank product, CG and pipelined CG.
Json bench_format(const Communicator& c, const DistributedBenchOptions& o, DistributedRun run, const RankRows<double>& rows, const ExecutorPtr& ex,
                  double nnz) {
  const CommunicatorPtr comm = world_communicator();
  const int me = c.rank(), ranks = c.size();
  DistributedSpmv<double, std::int32_t> d(comm, ex, rows.rows, rows.partition, rows.partition, part_options(run, 1000));
  Json j = {{"format", run.format}, {"rank0_parts", d.description()}};
  const std::vector<double> xs = default_x<double>(static_cast<std::size_t>(d.cols()), static_cast<std::size_t>(rows.partition.begin(me)));
  const Array<double> x(ex, std::span<const double>(xs));
  Array<double> y(ex, static_cast<std::size_t>(d.rows()));
  if (run.format == "csr") print_layout(c, d, rows);  // the layout is the partition's, the same for every format
  d.set_overlap(true);
  const double overlapped = slowest_per_call(c, *ex, [&] { d.apply(1.0, x, 0.0, y); }, o.min_time_s);
  d.set_overlap(false);
  const double sequential = slowest_per_call(c, *ex, [&] { d.apply(1.0, x, 0.0, y); }, o.min_time_s);
  // GPU ranks: every transport, timed the same way; those missing, and why.
  Json transports = Json::array();
  if (ex->backend() != Backend::cpu) {
    const distributed::HaloTransport chosen = d.transport();
    for (distributed::HaloTransport tr : d.available_transports()) {
      d.set_transport(tr);
      d.set_overlap(true);
      const double ov = slowest_per_call(c, *ex, [&] { d.apply(1.0, x, 0.0, y); }, o.min_time_s);
      d.set_overlap(false);
      const double sq = slowest_per_call(c, *ex, [&] { d.apply(1.0, x, 0.0, y); }, o.min_time_s);
      double setup = 0;
      for (const auto& m : d.measured_transports()) setup = m.first == tr ? m.second : setup;
      transports.push_back({{"transport", to_string(tr)}, {"spmv_overlapped_s", ov}, {"spmv_sequential_s", sq}, {"setup_exchange_s", setup}});
    }
    for (distributed::HaloTransport tr : {distributed::HaloTransport::device_mpi, distributed::HaloTransport::nccl}) {
      const std::string why = d.transport_unavailable(tr);
      if (!why.empty()) transports.push_back({{"transport", to_string(tr)}, {"skipped", why}});
    }
    d.set_transport(chosen);
    d.set_overlap(true);
    j["transport"] = to_string(chosen);
    j["transports"] = transports;
  }
  d.set_overlap(true);
  d.set_profile(true);
  d.reset_times();
  for (int i = 0; i < 20; ++i) d.apply(1.0, x, 0.0, y);
  d.set_profile(false);
  const auto& t = d.times();
  const double per = static_cast<double>(std::max<long long>(1, t.products));
  const std::vector<double> phases = per_rank(c, {t.pack / per, t.local / per, t.wait / per, t.unpack / per, t.remote / per, t.total / per,
                                                  static_cast<double>(rows.rows.nnz()), static_cast<double>(d.pattern().send_volume())});
  Json per_rank_json = Json::array();
  double most = 0, halo = 0;
  for (int r = 0; r < ranks; ++r) {
    const double* a = &phases[static_cast<std::size_t>(r) * 8];
    per_rank_json.push_back({{"rank", r}, {"pack_s", a[0]}, {"local_s", a[1]}, {"halo_wait_s", a[2]}, {"unpack_s", a[3]}, {"remote_s", a[4]},
                             {"total_s", a[5]}, {"nonzeros", a[6]}, {"sent_entries", a[7]}});
    most = std::max(most, a[6]);
    halo += a[7];
  }
  j["per_rank"] = per_rank_json;
  j["imbalance"] = nnz > 0 ? most / (nnz / ranks) : 1.0;
  j["halo_entries"] = halo;
  j["spmv_overlapped_s"] = overlapped;
  j["spmv_sequential_s"] = sequential;
  if (o.one_rank) {
    const double t1 = one_rank_seconds(c, ex, run, o.min_time_s, nnz, rows.partition.rows());
    j["spmv_one_rank_s"] = t1;
    j["parallel_efficiency"] = t1 / (ranks * overlapped);
  }
  std::string why_cg, why_pipecg;
  const double cg = krylov_iteration_seconds(c, d, KrylovMethod::cg, o.cg_iterations, why_cg);
  const double pipecg = krylov_iteration_seconds(c, d, KrylovMethod::pipelined_cg, o.cg_iterations, why_pipecg);
  std::string why_gv;
  const double gv = krylov_iteration_seconds(c, d, KrylovMethod::pipelined_cg_gv, o.cg_iterations, why_gv);
  // GPU ranks with NCCL: pipelined CG with its sums on the device and through
  // the host, beside the setup's choice between them.
  Json reductions;
  if (ex->backend() != Backend::cpu && d.transport() == distributed::HaloTransport::nccl && pipecg > 0) {
    const bool chosen = d.reduces_on_device();
    d.set_reduces_on_device(!chosen);
    std::string why_other;
    const double other = krylov_iteration_seconds(c, d, KrylovMethod::pipelined_cg, o.cg_iterations, why_other);
    d.set_reduces_on_device(chosen);
    const auto [device_sum, host_sum] = d.reduction_times();
    reductions = {{"chosen", chosen ? "device" : "host"},
                  {"pipelined_cg_device_sums_iteration_s", chosen ? pipecg : other},
                  {"pipelined_cg_host_sums_iteration_s", chosen ? other : pipecg},
                  {"setup_device_sum_s", device_sum},
                  {"setup_host_sum_s", host_sum}};
    j["pipelined_cg_sums"] = reductions;
  }
  j["cg_iteration_s"] = cg;
  j["pipelined_cg_iteration_s"] = pipecg;
  j["pipelined_cg_gv_iteration_s"] = gv;
  if (!why_gv.empty()) j["pipelined_cg_gv_not_timed"] = why_gv;
  if (!why_cg.empty()) j["cg_not_timed"] = why_cg;
  if (!why_pipecg.empty()) j["pipelined_cg_not_timed"] = why_pipecg;
  if (me == 0) {
    std::printf("%-5s    %s\n", run.format.c_str(), d.description().c_str());
    std::printf("         spmv overlapped %.3f ms, sequential %.3f ms (overlap saves %.1f%%), %.2f GFLOP/s", overlapped * 1e3, sequential * 1e3,
                100.0 * (sequential - overlapped) / sequential, 2.0 * nnz / overlapped * 1e-9);
    if (o.one_rank) std::printf("; one rank %.3f ms, parallel efficiency %.2f", j["spmv_one_rank_s"].get<double>() * 1e3, j["parallel_efficiency"].get<double>());
    const auto per_iteration = [](double seconds, const std::string& why) {
      char b[64];
      std::snprintf(b, sizeof b, "%.1f us per iteration", seconds * 1e6);
      return seconds > 0 ? std::string(b) : "not timed (" + why + ")";
    };
    std::printf("\n         cg %s; pipelined CG %s; pipelined CG (Ghysels-Vanroose) %s\n", per_iteration(cg, why_cg).c_str(),
                per_iteration(pipecg, why_pipecg).c_str(), per_iteration(gv, why_gv).c_str());
    if (!reductions.is_null()) {
      std::printf("         pipelined CG with its sums on the device %.1f us, through the host %.1f us per iteration (setup's sum %.1f / %.1f us: %s chosen)\n",
                  reductions["pipelined_cg_device_sums_iteration_s"].get<double>() * 1e6, reductions["pipelined_cg_host_sums_iteration_s"].get<double>() * 1e6,
                  reductions["setup_device_sum_s"].get<double>() * 1e6, reductions["setup_host_sum_s"].get<double>() * 1e6,
                  reductions["chosen"].get<std::string>().c_str());
    }
    for (const Json& tr : transports) {
      if (tr.contains("skipped")) {
        std::printf("         halo by %-10s not measured: %s\n", tr["transport"].get<std::string>().c_str(), tr["skipped"].get<std::string>().c_str());
      } else {
        std::printf("         halo by %-10s spmv overlapped %.3f ms, sequential %.3f ms (setup's exchange %.1f us)\n", tr["transport"].get<std::string>().c_str(),
                    tr["spmv_overlapped_s"].get<double>() * 1e3, tr["spmv_sequential_s"].get<double>() * 1e3, tr["setup_exchange_s"].get<double>() * 1e6);
      }
    }
    std::fflush(stdout);
  }
  return j;
}

Json bench_source(const Communicator& c, const DistributedBenchOptions& o, const std::string& source) {
  DistributedRun run;
  run.source = source;
  run.backend = o.backend;
  const ExecutorPtr ex = distributed::rank_executor(c, run.backend);
  const RankRows<double> rows = load_rows<double>(c, run, ex);
  if (rows.global_cols != rows.partition.rows()) throw Error(ErrorCode::invalid_argument, source + ": the distributed bench takes square matrices");
  double nnz = static_cast<double>(rows.rows.nnz());
  c.allreduce_sum(&nnz, 1);
  const int ranks = c.size();
  if (c.rank() == 0) {
    std::printf("\n%s: %lld rows, %.0f nonzeros on %d ranks (%s), %s\n", source.c_str(), static_cast<long long>(rows.partition.rows()), nnz, ranks,
                c.description().c_str(), ex->description().c_str());
    std::fflush(stdout);
  }
  Json j = {{"source", source}, {"rows", rows.partition.rows()}, {"nonzeros", nnz}, {"ranks", ranks}, {"formats", Json::array()}};
  // CSR is PETSc's AIJ, the like-for-like comparison; auto is the advisor's choice per part and rank.
  double best_spmv = 0, best_cg = 0, best_pipecg = 0;
  for (const std::string& format : o.formats) {
    run.format = format;
    const Json f = bench_format(c, o, run, rows, ex, nnz);
    const double s = f["spmv_overlapped_s"], cg = f["cg_iteration_s"], pcg = f["pipelined_cg_iteration_s"];
    best_spmv = best_spmv == 0 ? s : std::min(best_spmv, s);
    if (cg > 0) best_cg = best_cg == 0 ? cg : std::min(best_cg, cg);
    if (pcg > 0) best_pipecg = best_pipecg == 0 ? pcg : std::min(best_pipecg, pcg);
    j["formats"].push_back(f);
  }
  bench::PetscFigures petsc;
  if (ex->backend() == Backend::cpu) {
    petsc = bench::petsc_baseline(rows.rows, rows.partition, o.cg_iterations, false, o.min_time_s);
  } else {
    petsc.why_not = "PETSc runs on the CPU ranks only (no packaged GPU peer: issue 64's GPU anchor is the model)";
  }
  if (petsc.available) {
    j["petsc"] = {{"version", petsc.version}, {"matmult_s", petsc.matmult_s}, {"kspcg_iteration_s", petsc.cg_iteration_s}, {"kspcg_iterations", petsc.cg_iterations}};
  } else {
    j["petsc"] = {{"skipped", petsc.why_not}};
  }
  if (c.rank() == 0) {
    if (petsc.available) {
      std::printf("petsc    %s: MatMult %.3f ms (PETSc / hsparse's best %.2fx)", petsc.version.c_str(), petsc.matmult_s * 1e3, petsc.matmult_s / best_spmv);
      if (petsc.cg_iterations == o.cg_iterations && best_cg > 0) {
        std::printf(", KSPCG %.1f us per iteration (PETSc / hsparse CG %.2fx, / pipelined CG %.2fx)", petsc.cg_iteration_s * 1e6, petsc.cg_iteration_s / best_cg,
                    best_pipecg > 0 ? petsc.cg_iteration_s / best_pipecg : 0.0);
      } else {
        std::printf(", KSPCG not compared (%d of %d iterations; hsparse's CG %s)", petsc.cg_iterations, o.cg_iterations, best_cg > 0 ? "ran" : "did not run");
      }
      std::printf("\n");
    } else {
      std::printf("petsc    skipped: %s\n", petsc.why_not.c_str());
    }
    std::fflush(stdout);
  }
  return j;
}

}  // namespace

// The all-reduce of a Krylov iteration (four doubles), the slowest rank's
// median over 200: the latency term of docs/distributed.md's model.
double allreduce_seconds(const Communicator& c) {
  std::vector<double> t;
  double v[4] = {1, 2, 3, 4};
  for (int i = 0; i < 220; ++i) {
    Stopwatch w;
    c.allreduce_sum(v, 4);
    if (i >= 20) t.push_back(w.seconds());
  }
  std::int64_t ns = static_cast<std::int64_t>(summarize_times(t).median_s * 1e9);
  c.allreduce_max(&ns, 1);
  return static_cast<double>(ns) * 1e-9;
}

int distributed_bench(const DistributedBenchOptions& o) {
  const CommunicatorPtr comm = world_communicator();
  const Communicator& c = *comm;
  const double allreduce_s = allreduce_seconds(c);
  if (c.rank() == 0) std::printf("all-reduce of 4 doubles over %d ranks: %.1f us (median, the slowest rank's)\n", c.size(), allreduce_s * 1e6);
  const std::vector<std::string> sources = o.sources.empty() ? default_sources(o.quick) : o.sources;
  Json results = Json::array();
  for (const std::string& s : sources) {
    if (source_is_complex_on_rank0(c, s)) throw Error(ErrorCode::unsupported, s + ": the distributed bench times real matrices (CG and PETSc's real build)");
    results.push_back(bench_source(c, o, s));
  }
  if (c.rank() == 0) {
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    const char* commit = std::getenv("HSPARSE_COMMIT");
    Json out = {{"what", "distributed SpMV and CG: hsparse on several ranks against one rank and PETSc (issue 64)"},
                {"date", date},
                {"commit", commit && *commit ? commit : HSPARSE_GIT_COMMIT},
                {"ranks", c.size()},
                {"communicator", c.description()},
                {"backend", o.backend},
                {"cg_iterations", o.cg_iterations},
                {"allreduce_4_doubles_s", allreduce_s},
                {"results", results}};
    std::filesystem::create_directories(o.out_dir);
    const std::string path = (std::filesystem::path(o.out_dir) / "distributed.json").string();
    io::AtomicOutputFile f(path);
    f.stream() << out.dump(1) << "\n";
    f.commit();
    std::printf("\nwrote %s\n", path.c_str());
  }
  return 0;
}

}  // namespace hsparse::tool
