#pragma once
// hsparse bench --fem: the analogue of Reguly and Giles' figures 17 and 18
// (section 8.3): CG iterations per second against the Q_p degree (1..4)
// for every operator of the finite-element Poisson problem (fem/poisson.hpp)
// - assembled CSR, ELL and SELL through SpMV plans, the local matrix approach
// (on the GPU with atomics and with colouring), the matrix-free
// sum-factorised operator and, on the GPU, cuSPARSE +
// cuBLAS CG on the CSR matrix as the baseline - in double and single, at
// about 4 M unknowns on the GPU (250 k on the CPU; --quick: 5 k). Each
// operator's product is checked against the assembled CSR reference before
// it is timed. Timing: a fixed number of CG iterations (tolerance 0) from
// x = 0 on a right-hand side with every mode, median of 3 solves.
// Writes fem.md, fem.json and plots/fem_{double,single}.{png,svg}.
#include <atomic>
#include <string>

namespace hsparse::bench {

struct FemBenchOptions {
  std::string backend = "auto";
  std::string out_dir = "bench-report";
  bool quick = false;
};

int run_fem_benchmark(const FemBenchOptions& options, const std::atomic<bool>& stop);

}  // namespace hsparse::bench
