#pragma once
// The pieces of hsparse bench --solvers' time-to-solution part
// (solution_bench.hpp): the rows it measures (solution_bench.cpp: solves;
// triangular_compare.cpp: triangular solves against cuSPARSE) and the report
// that writes them (solution_report.cpp).
#include <atomic>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "hsparse/core/executor.hpp"
#include "hsparse/formats/csr.hpp"

namespace hsparse::bench {

// What every solve is asked for: ||b - A x|| / ||b|| <= 1e-8 within 10000 iterations.
inline constexpr double kSolutionTolerance = 1e-8;
inline constexpr int kSolutionMaxIterations = 10000;

// The CPU goal: hsparse's time to solution at most 1/1.3 of
// PETSc's, same method and preconditioner, on the same run's problems.
inline constexpr double kPetscSpeedupGoal = 1.3;

// One solve of one problem by one solver and preconditioner.
struct SolveRow {
  std::string problem;  // the generator spec
  long long unknowns = 0, nonzeros = 0;
  std::string library = "hsparse";  // or a baseline's: "cuSPARSE" (PCG and BiCGStab on cuSPARSE + cuBLAS), "PETSc" (KSP)
  std::string solver;          // "cg", "pipecg", "gmres(30)", "bicgstab", "cuSPARSE PCG", "cuSPARSE BiCGStab", "PETSc cg", ...
  std::string preconditioner;  // the variant: none, jacobi, block-jacobi, chebyshev, ilu0, ic0 (a baseline: its counterpart's)
  std::string description;     // what M^-1 was, in the solver's words (PETSc: its KSP and PC)
  std::string pairs_with;      // a PETSc row: the hsparse solver it is compared with, same preconditioner ("cg", "gmres(30)")
  double setup_s = 0, solve_s = 0;
  int iterations = 0;
  std::string status;          // the solver's (converged, max iterations, ...) or "error: <message>"
  double true_residual = NAN;  // ||b - A x|| / ||b|| on the host; NaN after an error
  bool baseline() const { return library != "hsparse"; }
  double total_s() const { return setup_s + solve_s; }
  bool converged() const { return status == "converged"; }
};

// One matrix's incomplete factorisation and triangular solves: hsparse's
// PreconditionerPlan against cuSPARSE's csrilu02 / csric02 and SpSV.
struct TriangularRow {
  std::string matrix;  // the generator spec or the file's name
  long long rows = 0, nonzeros = 0;
  std::string factorisation;                          // "IC(0)" (symmetric matrix) or "ILU(0)"
  double ours_setup_s = 0, ours_apply_s = 0;          // the plan's construction; one L then U solve
  double cusparse_setup_s = 0, cusparse_apply_s = 0;  // factorisation + analyses; one triangular pair
  std::string failure;  // which side failed and why; empty when both ran
  bool compared() const { return failure.empty(); }
  // cuSPARSE's time over ours: above 1, hsparse is faster.
  double total_ratio() const { return (cusparse_setup_s + cusparse_apply_s) / (ours_setup_s + ours_apply_s); }
  double apply_ratio() const { return cusparse_apply_s / ours_apply_s; }
};

struct SolutionResults {
  std::string device;
  bool gpu = false, quick = false;
  std::vector<SolveRow> solves;
  std::vector<TriangularRow> triangular;
  std::map<std::string, int> skipped;  // shared matrices the triangular comparison left out, by reason
  std::string triangular_note;         // what the comparison covers, or why it did not run
  std::string petsc_note;              // how PETSc ran, or why its rows are missing
  int hsparse_threads = 1;             // OpenMP threads of the hsparse rows: PETSc runs one process on one core
};

// Runs fn() twice and returns the second result: the first pays the one-off
// costs (module loading, the allocator's growth, the libraries' handles)
// that a solver run many times does not.
template <class Fn>
auto after_warm_up(Fn&& fn) {
  fn();
  return fn();
}

// The triangular comparison of one square matrix with a full nonzero
// diagonal on a CUDA executor: IC(0) where it is symmetric, else ILU(0).
// A side that throws (a zero pivot) is named in the row's failure, not rethrown.
TriangularRow compare_triangular(const ExecutorPtr& ex, const Csr<double, std::int32_t>& a, const std::string& name);

// The comparison for every real square matrix of the shared folder with a
// full nonzero diagonal and at most 5e6 nonzeros, appended to results
// (results.skipped counts the others by reason).
void compare_shared_matrices(const ExecutorPtr& ex, SolutionResults& results, const std::atomic<bool>& stop);

// solutions.md and solutions.json in out_dir, each written atomically.
void write_solution_report(const SolutionResults& results, const std::string& out_dir);

}  // namespace hsparse::bench
