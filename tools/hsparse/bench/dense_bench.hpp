#pragma once
// hsparse bench --dense: the dense kernels of Owens' lecture and what they
// make possible, each next to the vendor or library baseline of the same
// run and timing mode (call_timing.hpp: CUDA events around each call on the
// GPU, the host clock on the CPU; median of repeated calls, operands left
// warm: dense kernels reuse them).
//  - GEMM C = A B, n x n x n for n = 1024 .. 8192 (GPU) or 256 .. 2048
//    (CPU), double and float: untiled, tiled, register-blocked and the
//    tensor cores (tensor for double, tf32 opt-in for float) against
//    cuBLAS (and cuBLAS in TF32 mode); CPU: reference, blocked against
//    Eigen and OpenBLAS. GFLOP/s, % of the matching peak, q.
//  - Tall-skinny V^T W and V S (n = 10^7 on the GPU, k = 1 .. 32) against
//    the baseline's GEMM on the same shapes: GB/s and % of the measured
//    read bandwidth.
//  - SpMM Y = A X (CSR, k = 1 .. 32) on six generated matrices against k
//    separate SpMVs and cuSPARSE SpMM.
// Every result is checked (sampled dot products, the baseline's result or
// the reference SpMM) before it is reported; a wrong one fails the run.
// Writes dense.md, dense.json and plots/gemm_{double,float}.{png,svg}.
#include <atomic>
#include <set>
#include <string>

namespace hsparse::bench {

// The parts of the dense bench (they run in the order gemm, tall-skinny, spmm).
const std::set<std::string>& dense_bench_parts();

struct DenseBenchOptions {
  std::string backend = "auto";
  std::string out_dir = "bench-report";
  bool quick = false;  // small sizes, short timings (CI)
  // The parts to run (dense_bench_parts()); all by default. A part left out
  // is absent from the report, and so are its goal lines.
  std::set<std::string> parts = dense_bench_parts();
};

int run_dense_benchmark(const DenseBenchOptions& options, const std::atomic<bool>& stop);

}  // namespace hsparse::bench
