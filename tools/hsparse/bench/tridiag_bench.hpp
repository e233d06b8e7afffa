#pragma once
// hsparse bench --tridiag: systems per second and GB/s of every hsparse
// tridiagonal solver against cuSPARSE gtsv2StridedBatch and
// gtsvInterleavedBatch over a grid of (system size 64 .. 2^20) x (batch
// count), both layouts, double; and the CR+PCR hybrid's switch point
// measured on 512 systems of 512 unknowns (the lecture's sweet spot).
// On the CPU: the OpenMP Thomas over the same grid. Writes tridiag.md and
// tridiag.json into the output folder.
#include <atomic>
#include <string>

namespace hsparse::bench {

struct TridiagBenchOptions {
  std::string backend = "auto";
  std::string out_dir = "bench-report";
  bool quick = false;  // sizes 64 and 512 only, smaller batches
};

int run_tridiag_benchmark(const TridiagBenchOptions& options, const std::atomic<bool>& stop);

}  // namespace hsparse::bench
