#pragma once
// A reusable GPU SpMV handle (cuSPARSE's descriptor + buffer, Kokkos
// Kernels' SPMVHandle): made once for a matrix, it keeps the device matrix,
// the kernel, its parameters and the tuner's state, so repeated products
// cost nothing extra once tuned. CUDA builds only.
//
// The format is given or, with `format` unset, the advisor's choice for
// `spmv_count` products (format=auto). Each kernel's parameters are then
// tuned at run time over the products (Reguly section 6, generalised):
//  - CSR vector: (repeat, coop, block size) from the fixed rule, each guess
//    a launch on the same device matrix, timed by CUDA events read at the
//    next call (no synchronisation);
//  - SELL-C-sigma: sigma and the threads per row T (T = 1: the
//    thread-per-row kernel); C stays 32, one warp per chunk, the GPU's
//    "SIMD width" as the SELL-C-sigma paper chooses C;
//  - BCSR: the block size (1..8) and Eberhardt and Hoemmen's algorithm
//    (by-block, by-column, row-per-thread), from the fewest-bytes block
//    and the plan's rule; a combination the kernels refuse counts as lost.
// SELL and BCSR guesses rebuild the plan (a host conversion and upload,
// synchronous, as the CPU handle does), so their tuning costs setup time
// in the first calls, bounded by max_tuning_calls. The other formats and
// kernels have nothing to tune. Once converged (or out of calls) the best
// is kept and stored in the tuning cache on disk, keyed by device, kernel,
// value type and matrix fingerprint; the next handle starts from it.
// The host matrix must outlive a handle that is still tuning SELL or BCSR.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hsparse/backends/cuda/csr_spmv.hpp"
#include "hsparse/plans/gpu_spmv_plan.hpp"
#include "hsparse/tuning/coordinate_tuner.hpp"
#include "hsparse/tuning/fingerprint.hpp"

namespace hsparse::cuda {

struct GpuHandleOptions {
  std::optional<Format> format = Format::csr;  // unset: the advisor's choice for spmv_count products
  std::string kernel = "vector";  // with a given format; empty: the format's default kernel
  long long spmv_count = 1000;    // what the advisor weighs conversion against
  bool tune = true;               // tune at run time over the products
  bool use_cache = true;          // start from, and store to, the tuning cache on disk
  std::string cache_path;         // empty: TuningCache::default_path()
  int max_tuning_calls = 40;      // stop tuning after this many products, converged or not
};

// Reguly's axes around the fixed rule's guess: coop (doubled first), repeat
// (halved first), block size 64..512 in steps of 32 (grown first). The
// paper walks repeat first because its rule's repeat was the worst guess;
// the GPU-scaled rule gets repeat close (87-96% of the best on the H200)
// and leaves coop the furthest off (power-law: 4 against the best 16), so
// coop goes first here.
std::vector<TunerAxis> csr_vector_tuning_axes(const CsrVectorParams& fixed_rule);
CsrVectorParams csr_vector_params(const std::vector<int>& configuration);  // values of those axes
std::vector<int> csr_vector_configuration(const CsrVectorParams& p);
// SELL (C = 32): sigma, then the threads per row T (1 = the thread kernel,
// 2..32). Sigma first: on the power-law matrix sorting all rows is worth
// 4x at T = 1, more than any T without sorting (docs/results/2026-11-22-tuning.md).
std::vector<TunerAxis> sell_tuning_axes(int threads_per_row, long long sigma);
// BCSR: block size 1..8 and algorithm (0 by-block, 1 by-column, 2 row-per-thread).
std::vector<TunerAxis> bcsr_tuning_axes(int block, int algorithm);
// The plan options of a SELL or BCSR configuration (values of the axes above).
GpuSpmvOptions tuned_plan_options(Format format, const std::vector<int>& configuration);

template <class V, class I>
class GpuSpmvHandle {
 public:
  GpuSpmvHandle(const Executor& ex, const Csr<V, I>& a, GpuHandleOptions options = {});
  ~GpuSpmvHandle();
  GpuSpmvHandle(GpuSpmvHandle&&) noexcept;

  // y = alpha*A*x + beta*y on the executor's stream (device pointers).
  void apply(V alpha, const V* x, V beta, V* y);

  // Reguly's test: the same arrays and sizes as the matrix the handle was made for.
  bool matches(const Csr<V, I>& a) const;
  CsrVectorParams parameters() const;  // CSR vector: what the next product uses once tuning is over (the best so far)
  std::vector<int> configuration() const;  // the tuned axes' values (best so far); empty when nothing is tuned
  CsrVectorParams fixed_rule() const { return fixed_; }
  bool tuning() const;                 // still trying parameters
  int calls() const { return calls_; }
  std::string origin() const;          // "fixed rule", "default", "tuning", "tuned", "cache"
  std::string description() const;     // the kernel in use, e.g. "csr/vector" or "bcsr/by-column-b3"
  Format format() const;
  const MatrixFingerprint& fingerprint() const { return fingerprint_; }
  std::string cache_key() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
  MatrixFingerprint fingerprint_;
  CsrVectorParams fixed_{};
  int calls_ = 0;
};

}  // namespace hsparse::cuda
