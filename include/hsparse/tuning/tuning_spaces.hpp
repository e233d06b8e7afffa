#pragma once
// What the SpMV handle (tuning/spmv_handle.hpp) tunes, per backend and
// kernel: the axes of the coordinate search (tuning/coordinate_tuner.hpp),
// their start, and the plan options of a configuration (the axes' values).
// One place for both backends; `hsparse tune` walks the same spaces
// exhaustively.
#include <optional>
#include <string>
#include <vector>

#include "hsparse/backends/cuda/csr_spmv.hpp"
#include "hsparse/core/backend.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/tuning/coordinate_tuner.hpp"

namespace hsparse {

// CPU SELL: C (4..32) and sigma (1..all rows); the SELL-C-sigma paper
// leaves both to the matrix. Starts at the SIMD width and sigma 256.
std::vector<TunerAxis> cpu_sell_tuning_axes(int chunk);

// CUDA CSR vector: Reguly's axes around the fixed rule's guess: coop (doubled first), repeat
// (halved first), block size 64..512 in steps of 32 (grown first). The
// paper walks repeat first because its rule's repeat was the worst guess;
// the GPU-scaled rule gets repeat close (87-96% of the best on the H200)
// and leaves coop the furthest off (power-law: 4 against the best 16), so
// coop goes first here.
std::vector<TunerAxis> csr_vector_tuning_axes(const cuda::CsrVectorParams& fixed_rule);
cuda::CsrVectorParams csr_vector_params(const std::vector<int>& configuration);  // values of those axes
std::vector<int> csr_vector_configuration(const cuda::CsrVectorParams& p);
// CUDA SELL (C = 32): sigma, then the threads per row T (1 = the thread kernel,
// 2..32). Sigma first: on the power-law matrix sorting all rows is worth
// 4x at T = 1, more than any T without sorting (docs/results/2026-11-22-tuning-h200).
std::vector<TunerAxis> cuda_sell_tuning_axes(int threads_per_row, long long sigma);
// CUDA BCSR: block size 1..8 and algorithm (0 by-block, 1 by-column, 2 row-per-thread).
std::vector<TunerAxis> cuda_bcsr_tuning_axes(int block, int algorithm);

// What a handle tunes for a plan: nothing; the plan's layout and kernel
// (a new plan per guess: CPU SELL, CUDA SELL and BCSR); or CUDA CSR
// vector's launch shape (one device matrix for every guess). key_name names
// the space (and its axes' order) in the tuning cache's keys.
struct TuningSpace {
  enum class Kind { none, plan, csr_vector } kind = Kind::none;
  std::string key_name;
  std::vector<TunerAxis> axes;
};
// The space for plans of `base` (kernel: the resolved kernel name) on `ex`,
// starting from what the plan would do untuned.
template <class V, class I>
TuningSpace tuning_space(const ExecutorPtr& ex, const Csr<V, I>& a, const SpmvOptions& base, const std::string& kernel);

// The plan options of configuration `c` of the space for (backend,
// base.format), the rest from `base`: CPU SELL (C, sigma; base's kernel);
// CUDA SELL (sigma, T; C = 32); CUDA BCSR (block, algorithm).
// Error(invalid_argument) for a format without a space on that backend.
SpmvOptions tuned_plan_options(Backend backend, const SpmvOptions& base, const std::vector<int>& c);
// The index of a CUDA BCSR kernel on the algorithm axis, -1 for another name.
int bcsr_algorithm_index(const std::string& kernel);

}  // namespace hsparse
