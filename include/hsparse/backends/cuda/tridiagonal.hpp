#pragma once
/// @file
/// Batched tridiagonal solves on the GPU (formats/tridiagonal_systems.hpp for the
/// problem, the layouts and the pivoting caveat). All pointers are device
/// pointers; solve() launches on the executor's stream without waiting.
///
/// Algorithms (Owens' lecture, tridiagonal section; Zhang, Cohen and Owens,
/// "Fast tridiagonal solvers on the GPU", PPoPP 2010):
///   thomas     one thread per system, Thomas' algorithm; coalesced on the
///              interleaved layout as it is, on the contiguous one through
///              shared-memory tiles; the choice for many systems
///   cr         cyclic reduction in shared memory, one block per system:
///              forward reduction halves the system log2(n)-1 times, a 2x2
///              solve, backward substitution (2 log2(n) - 1 steps, work-efficient)
///   pcr        parallel cyclic reduction in shared memory: log2(n) steps with
///              every equation active (step-efficient, more work)
///   hybrid     CR until at most `hybrid_switch` equations are left, PCR on
///              those, then CR's backward substitution (the lecture's hybrid:
///              no idle threads in the middle steps, fewer steps)
///   partition  any length: the batch as one block-diagonal system cut into
///              partitions of `partition` rows; a thread per partition
///              eliminates inside it (a Thomas sweep down, then up), leaving
///              every row as D + G x_last + A x_prev_last; the partitions'
///              last unknowns form a tridiagonal system of size/partition
///              unknowns, solved the same way (or by the hybrid once it fits
///              in a block); then every row is recovered in one parallel pass
///   automatic  thomas with >= 16,384 systems; else cr up to 4096
///              unknowns and partition above (interleaved: on a transposed
///              copy)
/// The shared-memory solvers take systems of up to 1024 (PCR) or 4096 (CR,
/// hybrid) unknowns, padded to a power of two with identity rows.
#include <memory>
#include <string>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/formats/tridiagonal_systems.hpp"

namespace hsparse::cuda {

/// The GPU tridiagonal algorithms (see the file description).
enum class TridiagonalAlgorithm { automatic, thomas, cr, pcr, hybrid, partition };
/// The algorithm's name: "automatic", "thomas", "cr", "pcr", "hybrid", "partition".
const char* to_string(TridiagonalAlgorithm a);
/// The algorithm named by to_string(); Error(invalid_argument) naming the choices otherwise.
TridiagonalAlgorithm parse_tridiagonal_algorithm(const std::string& name);

inline constexpr long long kSharedSolverMaxSize = 1024;  ///< PCR (a thread per equation, at most 1024 per block)
inline constexpr long long kSharedCrMaxSize = 4096;      ///< CR and the hybrid (threads loop over pairs; 160 KB of shared memory in double)
/// The largest system `algorithm` takes in shared memory.
inline long long shared_solver_max_size(TridiagonalAlgorithm algorithm) {
  return algorithm == TridiagonalAlgorithm::pcr ? kSharedSolverMaxSize : kSharedCrMaxSize;
}
inline constexpr int kDefaultHybridSwitch = 256;    ///< equations left when CR hands over to PCR (H200, 512 x 512: 22.1 us at 256, 23.1 at 128, 24.5 at 64, 26-28 below; docs/results)
inline constexpr int kDefaultPartitionRows = 16;    ///< rows per thread in the partition method (16: 70 KB of shared memory per 128 threads)

/// How TridiagonalSolver::solve runs.
struct TridiagonalOptions {
  /// The algorithm; automatic picks by shape (see the file description).
  TridiagonalAlgorithm algorithm = TridiagonalAlgorithm::automatic;
  /// Hybrid: equations left when CR hands over to PCR.
  int hybrid_switch = kDefaultHybridSwitch;
  /// Partition method: rows per thread.
  int partition_rows = kDefaultPartitionRows;
};

/// Keeps the workspace (grown on demand) and the zero-pivot flag between solves.
template <class V>
class TridiagonalSolver {
 public:
  /// A solver launching on `ex`'s stream; `ex` must outlive it.
  explicit TridiagonalSolver(const Executor& ex);
  ~TridiagonalSolver();
  TridiagonalSolver(const TridiagonalSolver&) = delete;
  TridiagonalSolver& operator=(const TridiagonalSolver&) = delete;

  /// x = A^-1 d (x and d may not alias). Error(invalid_argument) for an
  /// algorithm that cannot take the shape (cr/pcr/hybrid above 1024).
  void solve(const TridiagonalSystems<V>& s, const V* d, V* x, const TridiagonalOptions& options = {});
  /// Waits for the solves so far and throws the zero-pivot Error (system and
  /// row) if one of them met a zero or non-finite pivot; then clears the flag.
  void check();
  /// What the last solve ran, e.g. "partition(32) -> hybrid(64)".
  const std::string& description() const { return description_; }

  /// cuSPARSE baselines: gtsv2StridedBatch (contiguous) and
  /// gtsvInterleavedBatch with algorithm 0 (Thomas, no pivoting) (interleaved).
  /// cuSPARSE solves in place and the interleaved solver may overwrite its
  /// diagonals: by default d is copied to x and the diagonals to a
  /// workspace first; in_place = true skips the copies (x must be d, and
  /// the diagonals may change: the benchmark restores them untimed).
  void cusparse_solve(const TridiagonalSystems<V>& s, const V* d, V* x, bool in_place = false);

 private:
  struct State;
  std::unique_ptr<State> state_;
  std::string description_;
};

}  // namespace hsparse::cuda
