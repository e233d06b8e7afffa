// hsparse bench: the main job (see bench/bench.hpp). Also --compare of two
// result files and --report-from, which redraws a report (and its plots,
// where gnuplot is installed) from a results.json made elsewhere.
#include <csignal>
#include <ctime>
#include <cstdio>

#include "bench/bench.hpp"
#include "bench/peer_figures.hpp"
#include "bench/solver_bench.hpp"
#include "bench/dense_bench.hpp"
#include "bench/fem_bench.hpp"
#include "bench/tridiag_bench.hpp"
#include "commands.hpp"
#include "distributed_cli.hpp"
#include "hsparse/core/communicator.hpp"
#include "hsparse/io/atomic_file.hpp"
#include "option_checks.hpp"
#include "openmp_wait_policy.hpp"

namespace hsparse::tool {

namespace {

std::atomic<bool> g_stop{false};
std::atomic<long long> g_first_interrupt{0};

// The first Ctrl-C stops the run after the kernel being measured (the
// report is still written); another one a second or more later ends the
// process at once. The same signal arriving twice at once (timeout(1)
// signals the child and its process group) counts as one.
extern "C" void on_interrupt(int) {
  const long long now = static_cast<long long>(std::time(nullptr));  // async-signal-safe
  if (!g_stop) {
    g_first_interrupt = now;
    g_stop = true;
  } else if (now - g_first_interrupt >= 1) {
    std::signal(SIGINT, SIG_DFL);
    std::raise(SIGINT);
  }
}

struct BenchCommand {
  bench::Options options;
  std::vector<std::string> compare;
  std::string report_from;
  bool solvers = false, tridiag = false, dense = false, fem = false, peer_suite = false;
  std::vector<std::string> dense_parts;  // --dense-parts; empty: all
  int solver_iterations = 200;
  bool no_one_rank = false;  // several ranks: no one-rank product
  bool distributed = false;  // the distributed bench on any number of ranks (one: the scaling's first point)
  std::vector<std::string> rank_formats;  // several ranks: the formats measured (default csr and auto)
};

// Under mpirun with several ranks: the distributed bench (distributed_cli.hpp).
// The single-rank modes and their options are refused, not ignored.
int bench_on_several_ranks(const BenchCommand& c) {
  if (c.solvers || c.tridiag || c.dense || c.fem || c.peer_suite || !c.compare.empty() || !c.report_from.empty() || !c.options.matrices_dir.empty() ||
      c.options.dry_run || c.options.x_in_l2.has_value() || !c.dense_parts.empty()) {
    throw Error(ErrorCode::invalid_argument, "hsparse bench on several ranks runs the distributed bench: it takes sources, --backend, --out, --quick, "
                                             "--min-time, --solver-iterations, --rank-formats and --no-one-rank");
  }
  DistributedBenchOptions o;
  o.sources = c.options.matrices;
  o.backend = c.options.backend;
  o.out_dir = c.options.out_dir;
  o.quick = c.options.quick;
  o.min_time_s = c.options.min_time_s > 0 ? c.options.min_time_s : (c.options.quick ? 0.03 : 0.25);
  o.cg_iterations = c.options.quick ? std::min(c.solver_iterations, 30) : c.solver_iterations;
  o.one_rank = !c.no_one_rank;
  if (!c.rank_formats.empty()) o.formats = c.rank_formats;
  if (world_communicator()->rank() == 0) io::prepare_output_folder(o.out_dir);
  return distributed_bench(o);
}

}  // namespace

Action add_bench_command(CLI::App& app) {
  auto c = std::make_shared<BenchCommand>();
  auto* cmd = app.add_subcommand("bench", "Benchmark every hsparse format and kernel against cuSPARSE (GPU) or Eigen and librsb (CPU)");
  cmd->add_option("sources", c->options.matrices, "Matrix files or generator specs (default: the built-in suite)");
  cmd->add_option("--matrices", c->options.matrices_dir, "Also every real matrix of this folder (e.g. ../shared/matrices)");
  add_backend_option(cmd, c->options.backend);
  cmd->add_option("--out", c->options.out_dir, "Report folder: report.md, results.json, results.csv, plots/")->capture_default_str();
  cmd->add_flag("--quick", c->options.quick, "Small matrices (2 M nonzeros) and short timings");
  cmd->add_option("--min-time", c->options.min_time_s, "Seconds of timed repetitions per kernel (default 0.25; --quick 0.03)")
      ->check(real_above_zero());
  cmd->add_option("--spmv-count", c->options.spmv_count, "Products the 'auto' candidate chooses for (conversion counted)")
      ->check(integer_in(1))
      ->capture_default_str();
  add_x_in_l2_option(cmd, c->options.x_in_l2);
  cmd->add_flag("--dry-run", c->options.dry_run, "Print the planned suite and its estimated memory, then stop");
  cmd->add_flag("--peer-suite", c->peer_suite, "The six matrices DASP was measured on (H200, back to back): compared with DASP's figures in the report");
  cmd->add_option("--compare", c->compare, "OLD.json NEW.json: per-matrix and per-kernel GFLOP/s ratios")->expected(2);
  cmd->add_flag("--solvers", c->solvers, "Instead of SpMV: CG / pipelined CG / baseline time per iteration on Poisson 1e4..1e7, mdot, and preconditioned solvers' time to solution and triangular solves against cuSPARSE");
  cmd->add_flag("--tridiag", c->tridiag, "Instead of SpMV: batched tridiagonal solvers vs cuSPARSE gtsv over (size x count)");
  cmd->add_flag("--fem", c->fem, "Instead of SpMV: finite-element CG iterations/s against the degree (Q1-Q4) for CSR, ELL, SELL and LMA vs cuSPARSE CG");
  cmd->add_flag("--dense", c->dense, "Instead of SpMV: GEMM (untiled, tiled, register, tensor cores), tall-skinny V^T W / V S and SpMM vs cuBLAS / cuSPARSE or Eigen / OpenBLAS");
  cmd->add_option("--dense-parts", c->dense_parts, "--dense: only these parts, comma-separated (gemm, tall-skinny, spmm; default all)")
      ->delimiter(',');
  cmd->add_option("--solver-iterations", c->solver_iterations, "--solvers: iterations per timed solve")->check(integer_in(1))->capture_default_str();
  cmd->add_option("--report-from", c->report_from, "Rewrite the report (and plots) of a results.json into --out");
  cmd->add_option("--rank-formats", c->rank_formats, "Under mpirun with several ranks: the formats of both parts to measure, comma-separated (default csr,auto)")
      ->delimiter(',')
      ->check(CLI::IsMember(format_choices()));
  cmd->add_flag("--distributed", c->distributed, "The distributed bench even on one rank (under mpirun with several ranks it is the default)");
  cmd->add_flag("--no-one-rank", c->no_one_rank, "Under mpirun with several ranks: skip the one-rank product on rank 0 (for a matrix one rank cannot hold)");
  return [c]() {
    if (several_ranks() || c->distributed) return bench_on_several_ranks(*c);
    if (c->no_one_rank || !c->rank_formats.empty()) {
      throw Error(ErrorCode::invalid_argument, "--no-one-rank and --rank-formats are for the distributed bench (several ranks, or --distributed)");
    }
    if (c->peer_suite) {
      if (!c->options.matrices.empty()) throw Error(ErrorCode::invalid_argument, "--peer-suite names its own matrices: give no sources with it");
      c->options.matrices = bench::peer_suite();
    }
    if (!c->compare.empty()) {
      return bench::print_comparison(bench::read_json(c->compare[0]), bench::read_json(c->compare[1])) ? 0 : 1;
    }
    // The report folder is created and proven writable before anything is
    // measured: a run of minutes must not end in an unwritable folder.
    if (!c->options.dry_run) io::prepare_output_folder(c->options.out_dir);
    if (!c->report_from.empty()) {
      const auto report = bench::read_json(c->report_from);
      const std::string plot_problem = bench::write_report(report, c->options.out_dir);
      std::printf("report: %s/report.md\n", c->options.out_dir.c_str());
      if (!plot_problem.empty()) std::fprintf(stderr, "hsparse bench: plots not drawn: %s\n", plot_problem.c_str());
      return 0;
    }
    std::printf("OpenMP wait policy: %s\n", openmp_wait_policy_description().c_str());  // bench keeps libgomp's default (openmp_wait_policy.hpp)
    // The other modes take the SpMV bench's backend, folder and --quick; Ctrl-C stops them with what they measured.
    const auto mode = [&](auto o) {
      o.backend = c->options.backend;
      o.out_dir = c->options.out_dir;
      o.quick = c->options.quick;
      std::signal(SIGINT, on_interrupt);
      return o;
    };
    if (c->tridiag) return bench::run_tridiag_benchmark(mode(bench::TridiagBenchOptions{}), g_stop);
    if (c->fem) return bench::run_fem_benchmark(mode(bench::FemBenchOptions{}), g_stop);
    if (!c->dense_parts.empty() && !c->dense) throw Error(ErrorCode::invalid_argument, "--dense-parts needs --dense");
    if (c->dense) {
      bench::DenseBenchOptions o = mode(bench::DenseBenchOptions{});
      if (!c->dense_parts.empty()) o.parts = std::set<std::string>(c->dense_parts.begin(), c->dense_parts.end());
      return bench::run_dense_benchmark(o, g_stop);
    }
    if (c->solvers) {
      bench::SolverBenchOptions so = mode(bench::SolverBenchOptions{});
      so.iterations = c->solver_iterations;
      return bench::run_solver_benchmark(so, g_stop);
    }
    std::signal(SIGINT, on_interrupt);
    const auto report = bench::run_benchmark(c->options, g_stop);
    std::signal(SIGINT, SIG_DFL);
    if (c->options.dry_run) return 0;
    bench::print_console(report);
    const std::string plot_problem = bench::write_report(report, c->options.out_dir);
    std::printf("\nreport: %s/report.md (data: results.json, results.csv; plots: plots/)\n", c->options.out_dir.c_str());
    // Said on the console too: a report without its plots is easy to miss.
    if (!plot_problem.empty()) std::fprintf(stderr, "hsparse bench: plots not drawn: %s\n", plot_problem.c_str());
    // Exit 1 when a kernel computed a wrong result or something failed (a
    // matrix that did not load, a library error); refusals are normal.
    // Said by kind: a matrix that did not load is not a wrong result.
    int wrong = 0, failed = 0, not_loaded = 0;
    std::string first_not_loaded;
    for (const auto& r : report.results) {
      if (r.status == "wrong") ++wrong;
      if (r.status == "failed" && r.kernel == "(load)") {
        if (not_loaded++ == 0) first_not_loaded = r.message;
      } else if (r.status == "failed") {
        ++failed;
      }
    }
    if (wrong > 0) std::fprintf(stderr, "hsparse bench: %d kernel(s) computed a wrong result: see the report's 'Not timed' list\n", wrong);
    if (failed > 0) std::fprintf(stderr, "hsparse bench: %d kernel(s) failed with an error: see the report's 'Not timed' list\n", failed);
    if (not_loaded > 0) std::fprintf(stderr, "hsparse bench: %d matrix(es) not benchmarked, e.g. %s\n", not_loaded, first_not_loaded.c_str());
    const bool bad = wrong + failed + not_loaded > 0;
    return bad ? 1 : (report.interrupted ? 130 : 0);
  };
}

}  // namespace hsparse::tool
