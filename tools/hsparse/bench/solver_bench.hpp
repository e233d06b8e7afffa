#pragma once
// hsparse bench --solvers: time per iteration of CG, pipelined CG and (on a
// GPU) the cuSPARSE + cuBLAS CG baseline on 2D 5-point Poisson problems of
// 10^4 .. 10^7 unknowns, and the multiple dot product (mdot against k dots
// and cuBLAS gemv) in GB/s against the measured read bandwidth. Writes
// solvers.md and solvers.json into the output folder.
#include <atomic>
#include <string>
#include <vector>

namespace hsparse::bench {

struct SolverBenchOptions {
  std::string backend = "auto";
  std::string out_dir = "bench-report";
  std::vector<long long> unknowns = {10000, 100000, 1000000, 10000000};
  int iterations = 200;   // per timed solve (tolerance 0: every iteration runs)
  int repetitions = 3;    // solves per variant, median taken
  bool quick = false;     // 10^4 and 10^5 unknowns, 50 iterations
};

// Returns the process exit status (0, or 1 if a solver failed its check).
int run_solver_benchmark(const SolverBenchOptions& options, const std::atomic<bool>& stop);

}  // namespace hsparse::bench
