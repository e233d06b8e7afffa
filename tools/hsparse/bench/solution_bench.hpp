#pragma once
// hsparse bench --solvers, second part: time to solution. Preconditioned
// hsparse solvers (CG, pipelined CG, BiCGStab, GMRES(30) with Jacobi, block
// Jacobi, Chebyshev, ILU(0), IC(0)) against unpreconditioned ones and, on a
// GPU, cuSPARSE + cuBLAS PCG and BiCGStab with cuSPARSE's incomplete
// factorisations, all to ||b - A x|| / ||b|| <= 1e-8 from x = 0, on 3D
// Poisson (SPD) and 2D convection-diffusion (nonsymmetric) problems; on a
// GPU also hsparse's ILU(0) / IC(0) setup and triangular solves against
// cuSPARSE's on those problems and the shared SuiteSparse matrices.
// Writes solutions.md and solutions.json into the output folder, beside
// the per-iteration part's solvers.md and solvers.json.
#include <atomic>
#include <string>

namespace hsparse::bench {

struct SolutionBenchOptions {
  std::string backend = "auto";
  std::string out_dir = "bench-report";
  bool quick = false;  // no 10^7-unknown problem, convection-diffusion at 9 x 10^4 unknowns
};

// Returns the process exit status: 1 when a solve reported convergence that
// the true residual does not bear out, else 0. Ctrl-C (stop) ends it with
// the rows measured so far, still reported.
int run_solution_benchmark(const SolutionBenchOptions& options, const std::atomic<bool>& stop);

}  // namespace hsparse::bench
