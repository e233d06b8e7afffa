#pragma once
/// @file
/// Batched tridiagonal solves A_k x_k = d_k (Owens' lecture, tridiagonal
/// section, ../shared/seeds/dense-sparse-gpu-lecture-owens.md): `count`
/// independent systems of `size` unknowns, each
///   a_i x_{i-1} + b_i x_i + c_i x_{i+1} = d_i,   i = 0 .. size-1,
/// with a_0 and c_{size-1} ignored (read as 0, whatever is stored there).
/// The batch and its layouts: formats/tridiagonal_systems.hpp.
///
/// No pivoting. Thomas, cyclic reduction and the partition method are stable
/// for diagonally dominant (|b_i| >= |a_i| + |c_i|) or symmetric positive
/// definite systems; check_diagonal_dominance says whether a batch is one.
/// Others may still solve, but a zero (or non-finite) pivot is reported as
/// an Error naming the system and row, never returned as infinities.
///
/// TridiagonalSolver is the one entry point, on any executor: on the CPU
/// Thomas' algorithm over the systems in parallel (kernels/tridiagonal.hpp),
/// on a GPU Thomas per thread, CR / PCR / the CR+PCR hybrid in shared memory
/// and a partition method for systems of any length
/// (backends/cuda/tridiagonal.hpp), chosen per batch unless named.
#include <memory>
#include <string>
#include <vector>

#include "hsparse/core/executor.hpp"
#include "hsparse/formats/tridiagonal_systems.hpp"
#include "hsparse/kernels/tridiagonal.hpp"

namespace hsparse {

/// Which algorithm a TridiagonalSolver runs.
struct TridiagonalOptions {
  /// "auto" (the backend's rule for the batch's shape) or one of
  /// tridiagonal_algorithms(backend): on the CPU "thomas" (OpenMP) and
  /// "reference" (serial); on a GPU "thomas", "cr", "pcr", "hybrid",
  /// "partition", and "cusparse" (cuSPARSE's gtsv2 as a baseline, its copies
  /// of the inputs included).
  std::string algorithm = "auto";
  int hybrid_switch = 0;   ///< GPU hybrid: equations left when CR hands over to PCR (0: the backend's, 256)
  int partition_rows = 0;  ///< GPU partition method: rows per thread (0: the backend's, 16)
};

/// The algorithm names a backend takes, "auto" first.
const std::vector<std::string>& tridiagonal_algorithms(Backend backend);

/// Solves batches of tridiagonal systems on one executor, keeping its
/// workspace (device scratch, the zero-pivot flag) from one solve to the next.
///
/// Contract: the diagonals, d and x are in the executor's memory (host arrays
/// on a CpuExecutor, device pointers on a GPU), size*count entries each; x
/// and d may not overlap. On the CPU solve() returns when done and throws a
/// zero pivot at once; on a GPU it queues on the executor's stream, and
/// check() waits and throws it. Use one solver from one thread at a time.
/// Errors: Error(invalid_argument) for a bad shape or an algorithm the
/// backend lacks (naming those it has).
template <class V>
class TridiagonalSolver {
 public:
  /// A solver on `ex` (kept alive); on a GPU its workspace lives there.
  explicit TridiagonalSolver(ExecutorPtr ex);
  ~TridiagonalSolver();                                         ///< frees the workspace
  TridiagonalSolver(TridiagonalSolver&&) noexcept;             ///< moves the workspace
  TridiagonalSolver& operator=(TridiagonalSolver&&) noexcept;  ///< moves the workspace

  /// x_k = A_k^-1 d_k for every system of the batch.
  void solve(const TridiagonalSystems<V>& s, const V* d, V* x, const TridiagonalOptions& options = {});
  /// Waits for the last solve; Error(invalid_matrix) naming the system and
  /// row of a zero or non-finite pivot.
  void check();
  /// What the last solve ran, e.g. "thomas (openmp)" or "cuda/partition (16 rows a thread)".
  const std::string& description() const { return description_; }
  const ExecutorPtr& executor() const { return ex_; }  ///< where the solver runs

 private:
  ExecutorPtr ex_;
  std::shared_ptr<void> device_;  // the GPU backend's solver and workspace
  std::string description_;
};

}  // namespace hsparse
