// hsparse bench --solvers, time to solution (solution_bench.hpp): every
// solver and preconditioner of a problem from x = 0 to the tolerance, timed
// once after an untimed warm-up solve; on the CPU, PETSc's KSP beside each
// variant that PETSc has (petsc_solve.hpp); on a GPU, the triangular
// comparison (triangular_compare.cpp) on the same matrix.
#include "solution_bench.hpp"

#include <omp.h>

#include <cstdio>
#include <exception>
#include <optional>
#include <span>

#include "baseline_cg.hpp"
#include "hsparse/backends/cuda/cusparse_baselines.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/fem/poisson.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/solvers/krylov.hpp"
#include "option_checks.hpp"
#include "petsc_baseline.hpp"
#include "petsc_solve.hpp"
#include "right_hand_side.hpp"
#include "solution_parts.hpp"

namespace hsparse::bench {

namespace {

using V = double;
using I = std::int32_t;

struct Problem {
  std::string spec;
  bool spd = false;  // CG's problem; else BiCGStab's and GMRES's
};

// The GPU's sizes: 10^6 and 10^7 unknowns of 3D Poisson (the 10^7 one holds
// the goals), 10^6 of convection-diffusion. The CPU's: what a 2-core machine
// solves with every variant within minutes.
// Also the finite-element issue's system: Q2 Poisson on an N x N mesh
// (fem/poisson.hpp), (2N - 1)^2 unknowns of 25 entries a row, SPD, given as
// "fem-q2:N" (the generators have no finite-element assembly).
std::vector<Problem> problems(bool gpu, bool quick) {
  std::vector<Problem> p = {{gpu ? "stencil3d:n=100,points=7" : "stencil3d:n=60,points=7", true}};
  if (gpu && !quick) p.push_back({"stencil3d:n=215,points=7", true});
  p.push_back({gpu && !quick ? "fem-q2:500" : gpu ? "fem-q2:250" : "fem-q2:100", true});
  p.push_back({gpu && !quick ? "convdiff2d:n=1000,peclet=100" : "convdiff2d:n=300,peclet=100", false});
  return p;
}

// A problem's matrix: a generator spec or file, or "fem-q2:N".
Csr<V, I> load_problem(const std::string& spec) {
  constexpr const char* kFem = "fem-q2:";
  if (!spec.starts_with(kFem)) return io::load_matrix<V, I>(spec);
  fem::PoissonOptions o;
  o.degree = 2;
  o.elements = std::stoll(spec.substr(std::string(kFem).size()));
  return fem::assemble_poisson<V, I>(o).matrix;
}

struct Variant {
  KrylovMethod method = KrylovMethod::cg;
  Preconditioner preconditioner = Preconditioner::none;
  bool baseline = false;  // cuSPARSE + cuBLAS: PCG for method cg, BiCGStab for bicgstab
};

// Every preconditioner that suits the problem on hsparse's own solvers, and
// NVIDIA's solvers without and with their incomplete factorisation.
std::vector<Variant> variants(bool spd, bool gpu) {
  using M = KrylovMethod;
  using P = Preconditioner;
  std::vector<Variant> v;
  if (spd) {
    for (P p : {P::none, P::jacobi, P::chebyshev, P::block_jacobi, P::ic0, P::ilu0}) v.push_back({M::cg, p});
    v.push_back({M::pipelined_cg, P::jacobi});
  } else {
    for (P p : {P::none, P::jacobi, P::block_jacobi, P::ilu0}) v.push_back({M::bicgstab, p});
    v.push_back({M::gmres, P::ilu0});
  }
  if (gpu) {
    for (P p : {P::none, spd ? P::ic0 : P::ilu0}) v.push_back({spd ? M::cg : M::bicgstab, p, true});
  }
  return v;
}

std::string solver_name(const Variant& v) {
  if (v.baseline) return v.method == KrylovMethod::cg ? "cuSPARSE PCG" : "cuSPARSE BiCGStab";
  if (v.method == KrylovMethod::gmres) return "gmres(" + std::to_string(SolverOptions{}.restart) + ")";
  return to_string(v.method);
}

// PETSc's method and preconditioner (petsc_solve's names) for an hsparse
// variant that PETSc has: CG, BiCGStab and GMRES with none, Jacobi, ILU(0)
// and IC(0). Not pipelined CG, Chebyshev or block Jacobi: PETSc's bjacobi is
// ILU(0) on each process's block, not hsparse's small diagonal blocks.
struct PetscVariant {
  const char* method;
  const char* pc;
};

std::optional<PetscVariant> petsc_counterpart(const Variant& v) {
  using M = KrylovMethod;
  using P = Preconditioner;
  const char* method = v.method == M::cg ? "cg" : v.method == M::bicgstab ? "bicgstab" : v.method == M::gmres ? "gmres" : nullptr;
  const char* pc = v.preconditioner == P::none     ? "none"
                   : v.preconditioner == P::jacobi ? "jacobi"
                   : v.preconditioner == P::ilu0   ? "ilu"
                   : v.preconditioner == P::ic0    ? "icc"
                                                   : nullptr;
  if (v.baseline || method == nullptr || pc == nullptr) return std::nullopt;
  return PetscVariant{method, pc};
}

// A problem's matrix, right-hand side and operator, made once for all its variants.
struct LoadedProblem {
  Problem problem;
  ExecutorPtr ex;
  Csr<V, I> a;
  std::vector<V> b;
  Array<V> db, x;
  // CSR, the operator cuSPARSE's solvers use too: the rows differ in the
  // solver and preconditioner only. Its setup (upload, preprocessing) is
  // counted in every hsparse row, as the baselines count theirs.
  SpmvPlan<V, I> plan;
  LoadedProblem(const Problem& p, ExecutorPtr e)
      : problem(p), ex(std::move(e)), a(load_problem(p.spec)), b(right_hand_side(a)), db(ex, std::span<const V>(b)),
        x(ex, b.size()), plan(after_warm_up([&] { return SpmvPlan<V, I>(ex, a); })) {}
};

SolverResult baseline_solve(const LoadedProblem& p, const Variant& v, V* x) {
  const cuda::Executor& cex = cuda_executor(*p.ex, "the cuSPARSE baselines");
  const auto pre = v.preconditioner == Preconditioner::ic0    ? cuda::BaselinePreconditioner::ic0
                   : v.preconditioner == Preconditioner::ilu0 ? cuda::BaselinePreconditioner::ilu0
                                                              : cuda::BaselinePreconditioner::none;
  const auto solve = v.method == KrylovMethod::cg ? cuda::cusparse_cublas_pcg<V> : cuda::cusparse_cublas_bicgstab<V>;
  SolverResult r = to_solver_result(solve(cex, p.a, pre, p.db.data(), x, kSolutionTolerance, kSolutionMaxIterations, false, nullptr));
  if (pre != cuda::BaselinePreconditioner::none) r.preconditioner = std::string("cuSPARSE ") + cuda::preconditioner_name(pre);
  return r;
}

// One solve from x = 0; hsparse's setup gains the operator's.
SolverResult solve_from_zero(LoadedProblem& p, const Variant& v) {
  p.ex->fill_zero(p.x.data(), p.x.size() * sizeof(V));
  if (v.baseline) return baseline_solve(p, v, p.x.data());
  SolverOptions o;
  o.method = v.method;
  o.preconditioner = v.preconditioner;
  o.tolerance = kSolutionTolerance;
  o.max_iterations = kSolutionMaxIterations;
  o.record_history = false;
  SolverResult r = solve<V, I>(p.a, p.plan, p.db, p.x, o);
  r.setup_seconds += p.plan.setup_seconds();
  return r;
}

// A row's problem and variant, before anything is measured.
SolveRow row_for(const LoadedProblem& p, const Variant& v) {
  SolveRow row;
  row.problem = p.problem.spec;
  row.unknowns = p.a.rows;
  row.nonzeros = static_cast<long long>(p.a.nnz());
  row.solver = solver_name(v);
  row.preconditioner = to_string(v.preconditioner);
  if (v.baseline) row.library = "cuSPARSE";
  return row;
}

SolveRow time_to_solution(LoadedProblem& p, const Variant& v) {
  SolveRow row = row_for(p, v);
  try {
    const SolverResult r = after_warm_up([&] { return solve_from_zero(p, v); });
    row.setup_s = r.setup_seconds;
    row.solve_s = r.seconds;
    row.iterations = r.iterations;
    row.status = to_string(r.status);
    row.description = r.preconditioner;
    const std::vector<V> x = p.x.to_host();
    row.true_residual = true_relative_residual<V, I>(p.a, std::span<const V>(p.b), std::span<const V>(x));
  } catch (const std::exception& e) {  // a breakdown in setup, a zero pivot: a finding, not the end of the bench
    row.status = std::string("error: ") + e.what();
  }
  return row;
}

// PETSc's row beside variant v, timed as hsparse's rows are (petsc_solve).
// Its setup is the SeqAIJ matrix's creation and KSPSetUp, as hsparse's
// counts its operator's. `wide`: p.a with the 64-bit indices petsc_solve
// takes. `note` gains how PETSc ran, once.
SolveRow petsc_time_to_solution(const LoadedProblem& p, const Csr<V, std::int64_t>& wide, const Variant& v, const PetscVariant& pv, std::string& note) {
  SolveRow row = row_for(p, v);
  row.library = "PETSc";
  row.solver = "PETSc " + row.solver;
  row.pairs_with = solver_name(v);
  try {
    const PetscSolveRow r = petsc_solve(wide, p.b, pv.method, pv.pc, kSolutionTolerance, kSolutionMaxIterations, SolverOptions{}.restart);
    row.description = r.description;
    if (!r.available) {
      row.status = "error: " + r.why_not;
      return row;
    }
    if (note.empty()) {
      note = r.version + " on one process (PETSC_COMM_SELF, a SeqAIJ matrix): its sparse kernels on one core, its vector operations in the "
             "system BLAS, which may thread them; hsparse on " + p.ex->description() + ".";
    }
    row.setup_s = r.matrix_s + r.setup_s;
    row.solve_s = r.solve_s;
    row.iterations = r.iterations;
    row.status = r.converged ? "converged" : r.reason;  // else PETSc's words: DIVERGED_ITS, DIVERGED_PC_FAILED, ...
    row.true_residual = r.true_relative_residual;
  } catch (const std::exception& e) {
    row.status = std::string("error: ") + e.what();
  }
  return row;
}

void print_solve_row(const SolveRow& r) {
  std::printf("  %-18s %-13s setup %8.3f s  solve %8.3f s  %5d iterations  true residual %8.1e  %s\n", r.solver.c_str(),
              r.preconditioner.c_str(), r.setup_s, r.solve_s, r.iterations, r.true_residual, r.status.c_str());
  std::fflush(stdout);
}

// One problem: every variant, each followed on the CPU by PETSc's where it
// has one, then (GPU) the triangular comparison on its matrix.
void run_problem(const Problem& problem, SolutionResults& results, const std::atomic<bool>& stop) {
  LoadedProblem p(problem, make_executor(results.gpu ? Backend::cuda : Backend::cpu));
  std::printf("%s: %d unknowns, %zu nonzeros, %s\n", problem.spec.c_str(), p.a.rows, p.a.nnz(), problem.spd ? "SPD" : "nonsymmetric");
  const bool petsc = !results.gpu && petsc_missing_reason().empty();
  const auto wide = petsc ? convert_types<V, std::int64_t>(p.a) : Csr<V, std::int64_t>{};
  for (const Variant& v : variants(problem.spd, results.gpu)) {
    if (stop) return;
    results.solves.push_back(time_to_solution(p, v));
    print_solve_row(results.solves.back());
    const auto pv = petsc_counterpart(v);
    if (!petsc || !pv || stop) continue;
    results.solves.push_back(petsc_time_to_solution(p, wide, v, *pv, results.petsc_note));
    print_solve_row(results.solves.back());
  }
  if (results.gpu && !stop) results.triangular.push_back(compare_triangular(p.ex, p.a, problem.spec));
}

// A solve that says it converged must have: its true residual within 100x the tolerance.
int check_claimed_convergence(const std::vector<SolveRow>& rows) {
  int status = 0;
  for (const auto& r : rows) {
    if (r.converged() && !(r.true_residual <= 100 * kSolutionTolerance)) {
      std::fprintf(stderr, "hsparse bench --solvers: %s %s on %s reported convergence, but its true relative residual is %.2e\n", r.solver.c_str(),
                   r.preconditioner.c_str(), r.problem.c_str(), r.true_residual);
      status = 1;
    }
  }
  return status;
}

}  // namespace

int run_solution_benchmark(const SolutionBenchOptions& opt, const std::atomic<bool>& stop) {
  SolutionResults results;
  results.gpu = tool::resolve_backend(opt.backend) == "cuda";
  results.quick = opt.quick;
  results.device = results.gpu ? cuda::device_description() : "CPU (OpenMP)";
  results.hsparse_threads = omp_get_max_threads();
  if (results.gpu) results.petsc_note = "PETSc's rows (the CPU goal) run with --backend cpu.";
  else results.petsc_note = petsc_missing_reason();
  std::printf("\nTime to solution (relative residual %.0e, from x = 0)\n", kSolutionTolerance);
  for (const Problem& problem : problems(results.gpu, opt.quick)) {
    if (stop) break;
    run_problem(problem, results, stop);
  }
  if (!results.gpu) {
    results.triangular_note = "The triangular-solve comparison against cuSPARSE runs on a GPU only.";
  } else if (!stop) {
    compare_shared_matrices(make_executor(Backend::cuda), results, stop);
  }
  write_solution_report(results, opt.out_dir);
  std::printf("\nreport: %s/solutions.md (data: solutions.json)\n", opt.out_dir.c_str());
  return check_claimed_convergence(results.solves);
}

}  // namespace hsparse::bench
