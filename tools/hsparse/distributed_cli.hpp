#pragma once
// hsparse spmv and solve under an MPI launcher with more than one rank
// (`mpirun -np P hsparse spmv|solve ...`): the distributed path, taken with
// no extra flag (docs/distributed.md). One rank prints; every rank computes.
#include <string>
#include <vector>

#include "hsparse/solvers/krylov.hpp"

namespace hsparse::tool {

// Whether an MPI launcher started this process with other ranks.
bool several_ranks();

// What both commands share.
struct DistributedRun {
  std::string source;            // a file (read by rank 0 and scattered) or a generator spec (each rank its own rows)
  std::string backend = "auto";  // each rank's executor; on GPUs, one rank per GPU (the node-local rank picks it)
  std::string format = "csr";    // both parts' format ("auto": the advisor per part and rank)
  std::string kernel;
  std::string cut = "nonzeros";  // a file's rows cut by equal rows or nonzeros, or (speed) by the ranks' measured speeds
  std::string transport = "automatic";  // GPU ranks' halo: automatic, host, device-mpi, nccl
  bool single = false;
};

// The run of a command's options (hsparse spmv's and solve's share these names).
template <class CommandOptions>
DistributedRun distributed_run(const CommandOptions& o) {
  DistributedRun run;
  run.source = o.source;
  run.backend = o.backend;
  run.format = o.format;
  run.kernel = o.kernel;
  run.cut = o.cut;
  run.transport = o.transport;
  run.single = o.single;
  return run;
}

// y = A x with the default x, timed overlapped and sequential; per-rank
// phases, halo volumes and imbalance; --check against the serial
// reference on rank 0 (file input); --out gathers y to rank 0.
int distributed_spmv(const DistributedRun& run, int repetitions, double min_time_s, bool check, const std::string& out_file);

// A x = b with b = A x*, by the distributed Krylov solvers; the true
// residual and the error in x computed distributed.
int distributed_solve(const DistributedRun& run, const SolverOptions& options, const std::string& out_file);

// hsparse bench on several ranks: per source, the product overlapped and
// sequential (the slowest rank's time), each rank's phases, halo volume and
// imbalance, the one-rank time of the same product and the parallel
// efficiency, CG and pipelined CG per iteration, and PETSc's MatMult and
// KSPCG on the same rows and ranks (CPU ranks, where PETSc was found).
// Writes OUT_DIR/distributed.json on rank 0.
struct DistributedBenchOptions {
  std::vector<std::string> sources;  // empty: a 27-point stencil and a power-law matrix
  std::string backend = "auto";
  std::string out_dir = "bench-report";
  bool quick = false;
  double min_time_s = 0.25;
  int cg_iterations = 100;
  bool one_rank = true;  // time rank 0 alone on the whole matrix (it must fit one rank)
  std::vector<std::string> formats = {"csr", "auto"};  // both parts' format, each measured
};
int distributed_bench(const DistributedBenchOptions& options);

}  // namespace hsparse::tool
