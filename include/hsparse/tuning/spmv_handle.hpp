#pragma once
/// @file
/// The SpMV handle (cuSPARSE's descriptor + buffer, Kokkos Kernels'
/// SPMVHandle), one type for both executors: made once for a matrix, it
/// keeps the plan (format, kernel, converted matrix) and the tuner's state,
/// so repeated products cost nothing extra once tuned.
///
/// The format is given or, with `format` unset, the advisor's choice for
/// `spmv_count` products on the executor's backend (format=auto). The
/// kernel's parameters are then tuned at run time over the products
/// (Reguly section 6, generalised; the spaces are tuning/tuning_spaces.hpp):
///  - CPU SELL-C-sigma: C and sigma;
///  - CUDA CSR vector: (coop, repeat, block size) from the fixed rule, each
///    guess a launch on the same device matrix, timed by CUDA events read at
///    the next call (no synchronisation);
///  - CUDA SELL-C-sigma: sigma and the threads per row T (C stays 32);
///  - CUDA BCSR: block size (1..8) and Eberhardt and Hoemmen's algorithm; a
///    combination the kernels refuse counts as lost.
/// Guesses other than CSR vector rebuild the plan (a conversion, untimed),
/// so tuning costs setup time in the first calls, bounded by
/// max_tuning_calls. Other formats and kernels have nothing to tune. Once
/// converged (or out of calls) the best is kept and stored in the tuning
/// cache on disk, keyed by machine, kernel, value type and matrix
/// fingerprint; the next handle for the same matrix starts from it. Every
/// product, tuning or not, is a correct one.
/// The host matrix must outlive a handle that is still tuning.
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/tuning/fingerprint.hpp"

namespace hsparse {

/// How an SpmvHandle chooses and tunes its plan.
struct HandleOptions {
  std::optional<Format> format;   ///< unset: the advisor's choice for spmv_count products
  std::string kernel;             ///< with a given format; empty: the format's default kernel
  long long spmv_count = 1000;    ///< what the advisor weighs conversion against
  bool tune = true;               ///< tune at run time over the products
  bool use_cache = true;          ///< start from, and store to, the tuning cache on disk
  std::string cache_path;         ///< empty: TuningCache::default_path()
  int max_tuning_calls = 40;      ///< stop tuning after this many products, converged or not
};

template <class V, class I>
/// An SpMV plan that chooses its format (the advisor) and tunes its
/// kernel's parameters over the first products (see the file description).
///
/// Contract: the host matrix `a` must outlive the handle while tuning()
/// is true (guesses other than CSR vector rebuild the plan from it); every
/// product is correct, tuning or not. Move-only (a moved-from handle may
/// only be destroyed or assigned to).
///
/// Threads: a handle may be used from several threads at once; products
/// are serialized by the handle. Every apply() and every accessor that
/// reads the tuner's state (tuning, calls, configuration, origin,
/// description, matrix_bytes) holds a mutex in the handle, because apply()
/// moves the tuner on and may rebuild the plan. Serializing costs nothing
/// on the CPU (each product already uses every OpenMP thread) and little
/// on a GPU (the products go to one stream anyway).
///
/// Aliasing: x and y must not overlap (their address ranges compared, for
/// pointers, Arrays, spans and dense matrices alike): y is written while x
/// is read, so an overlap is refused with Error(invalid_argument) naming x
/// and y; pass a copy of x.
///
/// Construction throws as SpmvPlan's does; the tuning cache on disk is
/// optional (a missing, damaged or unwritable cache only costs the next run
/// its tuning).
class SpmvHandle {
 public:
  /// Chooses the format (or takes options.format) and builds the first plan on `ex`.
  SpmvHandle(ExecutorPtr ex, const Csr<V, I>& a, HandleOptions options = {});
  ~SpmvHandle();
  /// Takes o's state.
  SpmvHandle(SpmvHandle&&) noexcept;

  /// y = alpha*A*x + beta*y: pointers in the executor's memory (device
  /// pointers on a CUDA executor, launched on its stream), or Arrays
  /// (checked). Error(invalid_argument) when x (cols entries) and y (rows
  /// entries) overlap.
  void apply(V alpha, const V* x, V beta, V* y);
  /// y = alpha*A*x + beta*y with Arrays on the handle's executor (sizes checked).
  void apply(V alpha, const Array<V>& x, V beta, Array<V>& y);
  /// Host spans: a CPU handle only (checked), sizes checked.
  void apply(V alpha, std::span<const V> x, V beta, std::span<V> y);

  /// Y = alpha A X + beta Y for the k columns of X (cols x k) and Y (rows x
  /// k), dense matrices on the handle's executor (checked): through the plan
  /// of the best configuration so far, with its format's SpMM kernel where
  /// it has one (SpmvPlan::apply on dense matrices). Block products are not
  /// timed for tuning. Error(invalid_argument) for mismatched shapes or executors.
  void apply(V alpha, const DenseMatrix<V>& x, V beta, DenseMatrix<V>& y);
  /// The same on column-major views in the executor's memory (device
  /// pointers on a CUDA executor), shapes checked (SpmvPlan::apply on views).
  void apply(V alpha, const ConstDenseView<V>& x, V beta, const DenseView<V>& y);

  /// Reguly's test: the same arrays and sizes as the matrix the handle was made for.
  bool matches(const Csr<V, I>& a) const;
  bool tuning() const;                  ///< still trying parameters
  /// Products so far.
  int calls() const;
  std::vector<int> configuration() const;  ///< the tuned axes' values (best so far); empty when nothing is tuned
  std::vector<std::string> axis_names() const;  ///< the axes of configuration()
  std::string origin() const;           ///< "advisor", "given", "fixed rule", "tuning", "tuned", "cache"
  std::string description() const;      ///< the kernel in use, e.g. "sell-8-256/avx512(auto)" or "csr/vector-coop8-repeat4-block128"
  /// The format in use.
  Format format() const;
  /// Bytes of the matrix as the kernel in use stores it (values, indices,
  /// offsets, padding and block fill; no workspace): the traffic of one
  /// product besides x and y.
  std::size_t matrix_bytes() const;
  /// The executor the plan runs on.
  const ExecutorPtr& executor() const;
  /// The matrix's fingerprint (the tuning cache's key).
  const MatrixFingerprint& fingerprint() const { return fingerprint_; }
  /// The tuning cache key: machine, kernel, value type and fingerprint.
  std::string cache_key() const;

 private:
  struct State;
  // The mutex lives in the State, on the heap, so the handle stays movable.
  std::unique_ptr<State> state_;
  MatrixFingerprint fingerprint_;
};

}  // namespace hsparse
