// hsparse solve MATRIX: A x = b by CG, pipelined CG or GMRES(m), optionally
// Jacobi-preconditioned, on the CPU or the GPU, with any SpMV format as the
// operator. Reports iterations, time per iteration and the true residual
// ||b - Ax|| / ||b|| (computed afresh in double, not the solver's own
// recurrence); writes x as a Matrix Market array. Exit status 0 when
// converged, 1 when not (max iterations, breakdown, non-finite).
#include <unistd.h>

#include <cstdio>
#include <iomanip>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "distributed_cli.hpp"
#include "hsparse/analysis/matrix_analysis.hpp"
#include "hsparse/core/timer.hpp"
#include "default_vector.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/io/atomic_file.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/dense/dense_matrix.hpp"
#include "hsparse/solvers/krylov.hpp"
#include "hsparse/tuning/advisor.hpp"
#include "matrix_dispatch.hpp"
#include "option_checks.hpp"
#include "terminal_progress.hpp"

namespace hsparse::tool {

namespace {

struct SolveCliOptions {
  std::string source;
  std::string rhs_file, out_file, history_file, json_file;
  std::string method = "cg", precond = "none", backend = "auto", format = "csr", kernel;
  double tolerance = 1e-8;
  int max_iterations = 10000, restart = 30, check_every = 16, block_size = 0, chebyshev_degree = 4, sweeps = 3;
  std::string triangular = "auto";
  bool single_factors = false;
  bool single = false, skip_symmetry_check = false;
  std::string cut = "nonzeros";  // several ranks: how a file's rows are cut
  std::string transport = "automatic";  // several GPU ranks: how the halo travels
};

// CG and pipelined CG assume A = A^T (and positive definite): on a
// nonsymmetric matrix they can "converge" to a wrong answer or stall. The
// values are checked once, before anything else is set up; the tolerance
// admits the rounding of an assembled symmetric matrix.
template <class V, class I>
void require_symmetric(const Csr<V, I>& a, const SolveCliOptions& c) {
  constexpr double kTolerance = 1e-12;
  const bool cg = c.method == "cg" || c.method == "pipecg" || c.method == "pipecg-gv";
  if (!cg || c.skip_symmetry_check) return;
  const auto d = symmetry_defect(a, is_complex_v<V>);  // complex CG needs A = A^H
  if (d.relative <= kTolerance) return;
  char detail[256];
  std::snprintf(detail, sizeof detail, "||A - A^%s||_F / ||A||_F = %.3g; largest at (%lld, %lld): a_ij = %.6g, a_ji = %.6g (real parts)", is_complex_v<V> ? "H" : "T", d.relative,
                static_cast<long long>(d.row) + 1, static_cast<long long>(d.col) + 1, d.a_ij, d.a_ji);
  throw Error(ErrorCode::invalid_argument, c.source + " is not " + (is_complex_v<V> ? "Hermitian" : "symmetric") + " (" + detail + "): --method " + c.method +
                                               " needs a " + (is_complex_v<V> ? "Hermitian" : "symmetric") +
                                               " positive definite matrix; use --method gmres or bicgstab, or --no-symmetry-check to run it anyway");
}

// Several right-hand sides (solvers/krylov.hpp solve_many): a line per
// column, X written as an n x k Matrix Market array.
template <class V, class I>
int solve_columns(const SolveCliOptions& c, const Csr<V, I>& a, const SpmvPlan<V, I>& plan, const std::vector<V>& bh, long long k,
                  const SolverOptions& o, const std::string& operator_name) {
  const long long n = a.rows;
  const DenseMatrix<V> b(plan.executor(), n, k, std::span<const V>(bh));
  DenseMatrix<V> x(plan.executor(), n, k);
  const auto results = solve_many<V, I>(a, plan, b, x, o);
  if (o.progress) std::fprintf(stderr, "\r\033[K");
  const std::vector<V> xh = x.to_host();
  std::printf("%s: %lld x %lld, %zu nonzeros, %s, %lld right-hand sides\n", c.source.c_str(), static_cast<long long>(a.rows),
              static_cast<long long>(a.cols), a.nnz(), type_name<V>(), k);
  std::printf("solver      %s in lockstep (one SpMM per iteration%s), preconditioner %s, operator %s\n", to_string(o.method),
              plan.has_spmm() ? "" : ": this format multiplies column by column", to_string(o.preconditioner), operator_name.c_str());
  int failed = 0, most = 0;
  for (long long j = 0; j < k; ++j) {
    const auto& r = results[static_cast<std::size_t>(j)];
    const double true_res = true_relative_residual<V, I>(a, std::span<const V>(bh.data() + j * n, static_cast<std::size_t>(n)),
                                                          std::span<const V>(xh.data() + j * n, static_cast<std::size_t>(n)));
    std::printf("column %-4lld %s after %d iterations, true ||b - Ax||/||b|| %.3e: %s\n", j + 1, to_string(r.status), r.iterations, true_res,
                r.message.c_str());
    failed += !r.converged();
    most = std::max(most, r.iterations);
  }
  const double seconds = results.empty() ? 0 : results.front().seconds;
  std::printf("time        %.3f ms for %d lockstep iterations, %.2f us per iteration (all columns)\n", seconds * 1e3, most,
              most > 0 ? seconds / most * 1e6 : 0.0);
  if (!c.out_file.empty()) {
    io::AtomicOutputFile f(c.out_file);  // complete or absent; a failed write is an error naming it
    f.stream() << "%%MatrixMarket matrix array real general\n" << n << " " << k << "\n" << std::setprecision(17);
    for (const V v : xh) f.stream() << static_cast<double>(v) << "\n";
    f.commit();
  }
  return failed ? 1 : 0;
}

// The solver options from the command line.
SolverOptions solver_options(const SolveCliOptions& c) {
  SolverOptions o;
  o.method = parse_krylov_method(c.method);
  o.preconditioner = parse_preconditioner(c.precond);
  o.tolerance = c.tolerance;
  o.max_iterations = c.max_iterations;
  o.restart = c.restart;
  o.check_every = c.check_every;
  o.block_size = c.block_size;
  o.chebyshev_degree = c.chebyshev_degree;
  o.triangular = c.triangular;
  o.triangular_sweeps = c.sweeps;
  o.single_factors = c.single_factors;
  o.progress = terminal_progress();
  return o;
}

// Under mpirun with several ranks: the distributed solve, b = A x*. A
// right-hand-side file and the history are for one rank so far: refused,
// not ignored. The symmetry check needs the whole matrix on one rank: on
// several ranks the user vouches for it (CG's breakdown test still stops
// an indefinite one).
int solve_on_several_ranks(const SolveCliOptions& c) {
  if (!c.rhs_file.empty() || !c.history_file.empty()) {
    throw Error(ErrorCode::invalid_argument, "hsparse solve on several ranks: --rhs and --history are for one rank so far (b = A x* is used)");
  }
  const DistributedRun run = distributed_run(c);
  return distributed_solve(run, solver_options(c), c.out_file);
}

// --json: the result as a script reads it (written atomically).
void write_solve_json(const SolveCliOptions& c, const SolverResult& r, const SolverOptions& o, const std::string& operator_name, double true_residual) {
  const nlohmann::json j = {{"matrix", c.source},
                            {"method", to_string(o.method)},
                            {"preconditioner", to_string(o.preconditioner)},
                            {"preconditioner_detail", r.preconditioner},
                            {"operator", operator_name},
                            {"status", to_string(r.status)},
                            {"message", r.message},
                            {"iterations", r.iterations},
                            {"tolerance", o.tolerance},
                            {"relative_residual", r.relative_residual},
                            {"true_relative_residual", true_residual},
                            {"setup_seconds", r.setup_seconds},
                            {"solve_seconds", r.seconds},
                            {"residual_history", r.history}};
  io::AtomicOutputFile f(c.json_file);
  f.stream() << j.dump(1) << "\n";
  f.commit();
}

template <class V, class I>
int run_solve(const SolveCliOptions& c, const Csr<V, I>& a) {
  {
    const std::size_t n = static_cast<std::size_t>(a.rows);
    if (a.rows != a.cols) throw Error(ErrorCode::invalid_argument, c.source + ": a solve needs a square matrix, not " + std::to_string(a.rows) + " x " + std::to_string(a.cols));
    require_symmetric(a, c);
    // b: from the file, or A x* with x*[i] = 1 + (i*7919 mod 1000)/1000 (so the error in x is known too).
    std::vector<V> xstar, b;
    long long rhs_columns = 1;
    if (c.rhs_file.empty()) {
      xstar = default_x<V>(n);
      b.resize(n);
      reference::csr_spmv<V, I>(V(1), a, std::span<const V>(xstar), V(0), std::span<V>(b));
    } else {
      // One column: b; several: B, solved by CG in lockstep with one SpMM per iteration.
      const auto data = io::read_matrix_market<V, std::int64_t>(c.rhs_file);
      if (data.header.rows != static_cast<std::int64_t>(n)) {
        throw Error(ErrorCode::invalid_argument, c.rhs_file + ": " + std::to_string(data.header.rows) + " rows, the matrix has " + std::to_string(n));
      }
      rhs_columns = data.header.cols;
      b.assign(static_cast<std::size_t>(n * rhs_columns), V(0));
      for (std::size_t e = 0; e < data.matrix.values.size(); ++e) {
        b[static_cast<std::size_t>(data.matrix.row_idx[e] + data.matrix.col_idx[e] * static_cast<std::int64_t>(n))] += data.matrix.values[e];
      }
    }
    SolverOptions o = solver_options(c);
    if (o.method == KrylovMethod::gmres && gmres_restart(c.restart, a.rows) < c.restart) {
      // The library caps it too (gmres_restart); said here so that the user knows m.
      std::printf("restart     %d capped at %d, the number of unknowns (a larger Krylov basis cannot help)\n", c.restart,
                  gmres_restart(c.restart, a.rows));
    }
    const ExecutorPtr ex = make_executor(c.backend);
    SpmvOptions po;
    // "auto": the plan chooses for as many products as the iteration limit allows (resolve_spmv_options).
    po.format = parse_format_choice(c.format);
    po.spmv_count = std::max(1, std::min(o.max_iterations, 1000));
    po.kernel = c.kernel;
    std::vector<V> x(n, V(0));
    const SpmvPlan<V, I> plan(ex, a, po);
    const std::string operator_name = std::string(to_string(ex->backend())) + "/" + plan.description();
    if (rhs_columns > 1) {
      if constexpr (is_complex_v<V>) {
        throw Error(ErrorCode::unsupported, c.rhs_file + ": several right-hand sides are solved by real CG in lockstep; a complex system takes one column");
      } else {
        return solve_columns<V, I>(c, a, plan, b, rhs_columns, o, operator_name);
      }
    }
    const SolverResult r = solve<V, I>(a, plan, std::span<const V>(b), std::span<V>(x), o);
    if (o.progress) std::fprintf(stderr, "\r\033[K");
    const double true_res = true_relative_residual<V, I>(a, b, x);
    std::printf("%s: %lld x %lld, %zu nonzeros, %s\n", c.source.c_str(), static_cast<long long>(a.rows), static_cast<long long>(a.cols), a.nnz(), type_name<V>());
    std::printf("solver      %s, preconditioner %s, operator %s\n", to_string(o.method), to_string(o.preconditioner), operator_name.c_str());
    if (!r.preconditioner.empty()) std::printf("M^-1        %s\n", r.preconditioner.c_str());
    std::printf("status      %s: %s\n", to_string(r.status), r.message.c_str());
    std::printf("iterations  %d\n", r.iterations);
    std::printf("time        setup %.3f ms, iterations %.3f ms, %.2f us per iteration\n", r.setup_seconds * 1e3, r.seconds * 1e3,
                r.iterations > 0 ? r.seconds / r.iterations * 1e6 : 0.0);
    std::printf("residual    solver %.3e, true ||b - Ax||/||b|| %.3e (tolerance %.1e)\n", r.relative_residual, true_res, o.tolerance);
    if (!xstar.empty()) {
      double e = 0, s = 0;
      for (std::size_t i = 0; i < n; ++i) {
        e += std::norm(std::complex<double>(x[i]) - std::complex<double>(xstar[i]));
        s += std::norm(std::complex<double>(xstar[i]));
      }
      std::printf("error       ||x - x*||/||x*|| %.3e (b = A x*)\n", s > 0 ? std::sqrt(e / s) : 0.0);
    }
    if (!plan.choice().empty()) std::printf("format auto %s (%s, chosen in %.3f s)\n", plan.description().c_str(), plan.choice().c_str(), plan.choice_seconds());
    if (!c.out_file.empty()) io::write_matrix_market_vector<V>(c.out_file, x);
    if (!c.json_file.empty()) write_solve_json(c, r, o, operator_name, true_res);
    if (!c.history_file.empty()) {
      io::AtomicOutputFile f(c.history_file);
      f.stream() << "iteration,relative_residual\n" << std::scientific << std::setprecision(6);
      for (std::size_t i = 0; i < r.history.size(); ++i) f.stream() << i << "," << r.history[i] << "\n";
      f.commit();
    }
    return r.converged() ? 0 : 1;
  }
}

}  // namespace

Action add_solve_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("solve", "Solve A x = b by CG, pipelined CG, GMRES(m) or BiCGStab, preconditioned or not, on the CPU or GPU");
  auto o = std::make_shared<SolveCliOptions>();
  cmd->add_option("matrix", o->source, "Matrix Market file, .hsp file or generator spec (e.g. stencil2d:n=1000)")->required();
  cmd->add_option("--rhs", o->rhs_file, "b as a Matrix Market vector, or B with several columns (solved by CG in lockstep, one SpMM per iteration; --out writes X) (default: b = A x*, x*[i] = 1 + (i*7919 mod 1000)/1000)");
  cmd->add_option("--method", o->method, "cg, pipecg (Rupp's fused pipelined CG), pipecg-gv (Ghysels and Vanroose's: its reduction overlapped with the SpMV, for many ranks), gmres, bicgstab (nonsymmetric systems) or pipebicgstab (Cools and Vanroose: its two reductions overlapped with the preconditioner and the SpMV)")->check(CLI::IsMember({"cg", "pipecg", "pipecg-gv", "gmres", "bicgstab", "pipebicgstab"}))->capture_default_str();
  cmd->add_option("--precond", o->precond, "none, jacobi, block-jacobi (--block-size), chebyshev (--chebyshev-degree; needs D^-1 A positive definite), ilu0 or ic0")->check(CLI::IsMember({"none", "jacobi", "block-jacobi", "chebyshev", "ilu0", "ic0"}))->capture_default_str();
  cmd->add_option("--block-size", o->block_size, "block-jacobi: rows per diagonal block (0: detected from the matrix's pattern, else 4)")->check(integer_in(0, 32))->capture_default_str();
  cmd->add_option("--chebyshev-degree", o->chebyshev_degree, "chebyshev: the polynomial's degree (degree - 1 SpMVs per application)")->check(integer_in(1, 64))->capture_default_str();
  cmd->add_option("--triangular", o->triangular, "ilu0/ic0: how the factors are applied: auto (the faster exact solve, measured), level-scheduled, sync-free (GPU), serial (CPU), or jacobi (--sweeps Jacobi sweeps per triangle: no level synchronisation, an approximate M^-1)")
      ->check(CLI::IsMember({"auto", "level-scheduled", "sync-free", "serial", "jacobi"}))
      ->capture_default_str();
  cmd->add_option("--sweeps", o->sweeps, "--triangular jacobi: sweeps per triangle")->check(integer_in(1, 50))->capture_default_str();
  cmd->add_flag("--single-factors", o->single_factors, "--triangular jacobi: the factors' strict triangles in single precision (csr16-single), applied in double");
  cmd->add_option("--json", o->json_file, "Write the result here as JSON: method, preconditioner, iterations, residual history, setup and solve times, true residual");
  add_backend_option(cmd, o->backend);
  cmd->add_option("--format", o->format, "The operator's storage format (auto: the advisor's)")
      ->check(CLI::IsMember(format_choices()))
      ->capture_default_str();
  cmd->add_option("--kernel", o->kernel, "The format's kernel (see hsparse spmv --help)");
  cmd->add_option("--tol", o->tolerance, "Stop when ||r||/||b|| <= this")->check(real_above_zero(true))->capture_default_str();
  cmd->add_option("--max-iter", o->max_iterations, "Iteration limit")->check(integer_in(0, 2147483647))->capture_default_str();
  cmd->add_option("--restart", o->restart, "GMRES(m): m")->check(integer_in(1, 100000))->capture_default_str();
  cmd->add_option("--check-every", o->check_every, "GPU pipelined CG: iterations between host checks")->check(integer_in(1, 1000000))->capture_default_str();
  cmd->add_flag("--no-symmetry-check", o->skip_symmetry_check, "cg/pipecg: run even if the matrix is not symmetric");
  cmd->add_option("--out", o->out_file, "Write x here (Matrix Market array, full precision)");
  cmd->add_option("--history", o->history_file, "Write the residual history here (CSV)");
  cmd->add_flag("--single", o->single, "Single precision");
  add_rank_options(cmd, o->cut, o->transport);
  return [o]() {
    io::remove_temporaries_on_signal();  // Ctrl-C while --out is written leaves no temporary
    if (several_ranks()) return solve_on_several_ranks(*o);
    if (o->transport != "automatic" || o->cut != "nonzeros") {
      throw Error(ErrorCode::invalid_argument, "--transport and --cut are for several ranks under mpirun; this is one rank");
    }
    int status = 0;
    with_matrix(o->source, o->single ? Precision::single : Precision::double_, [&](const auto& a) { status = run_solve(*o, a); });
    return status;
  };
}

}  // namespace hsparse::tool
