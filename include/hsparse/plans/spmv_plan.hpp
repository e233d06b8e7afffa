#pragma once
/// @file
/// An SpMV plan: a matrix converted once into a chosen format on an executor
/// (core/executor.hpp), with the kernel and its parameters chosen once and
/// reused for every product (Kokkos Kernels' handle idea: the second call
/// costs nothing extra). One type for both backends: on a CpuExecutor the
/// matrix stays in host memory and the OpenMP (or reference, or SIMD)
/// kernels run; on a cuda::Executor it lives on the device and the kernels
/// launch on the executor's stream. The backends' builders are
/// backends/openmp/spmv_plan.cpp and backends/cuda/spmv_plan.cpp.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "hsparse/core/array.hpp"
#include "hsparse/core/executor.hpp"
#include "hsparse/dense/dense_matrix.hpp"
#include "hsparse/formats/csr.hpp"
#include "hsparse/formats/format.hpp"
#include "hsparse/kernels/spmv_options.hpp"

namespace hsparse {

struct MachineModel;  // tuning/advisor.hpp

/// Whether the byte ranges [a, a + a_bytes) and [b, b + b_bytes) share a
/// byte (empty ranges share none). Addresses are compared as integers, in
/// any memory space (host or device pointers alike).
bool ranges_overlap(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes);

/// Throws Error(invalid_argument), naming `who`, x and y, when the byte
/// ranges [x, x + x_bytes) and [y, y + y_bytes) overlap: a product writes y
/// while it reads x, so an overlapping y would change x under the kernel
/// and give a silently wrong product.
void check_spmv_no_overlap(const void* x, std::size_t x_bytes, const void* y, std::size_t y_bytes, const char* who);

/// The one place format "auto" is decided (SpmvPlan and SpmvHandle call it;
/// no caller resolves it on its own). Options with a format come back as
/// they are. Without one, the advisor (tuning/advisor.hpp) ranks every
/// format and kernel on this backend's machine model (measured once per
/// machine, kept in the tuning cache) for options.spmv_count products, and
/// the options it gives keep every layout field set in `options`. `note`, if
/// given, receives what was chosen and why, in one line. `machine`, if
/// given, replaces the measured model (the bench passes the bandwidth it
/// measured at its start, on the idle machine, so that its choice does not
/// rest on a figure measured earlier under load). Error(invalid_argument)
/// for a kernel named without a format, or spmv_count < 1.
template <class V, class I>
SpmvOptions resolve_spmv_options(Backend backend, const Csr<V, I>& a, const SpmvOptions& options, std::string* note = nullptr,
                                 const MachineModel* machine = nullptr);

template <class V, class I>
/// A matrix converted once into a format on an executor, with its kernel
/// chosen once: y = alpha A x + beta y as often as wanted.
///
/// Contract: the plan copies what it needs from the host matrix (which may
/// be destroyed after construction) and owns the converted matrix in the
/// executor's memory; it is move-only through its members and keeps its
/// executor alive. Sizes: x has cols() entries and y rows() (checked for
/// Arrays, spans and dense matrices, not for raw pointers).
///
/// Threads: on a CpuExecutor apply() is const and uses no shared mutable
/// scratch (SpMM's scratch block is made per call), so a plan may be used
/// from several threads at once, each with its own y. On a GPU apply()
/// queues on the executor's stream and returns without waiting; its kernels
/// share the plan's one device workspace, so call it from one thread at a
/// time (or share an SpmvHandle, which serializes its products).
///
/// Aliasing: y is written while x is read, so x and y must not overlap:
/// every apply() compares their address ranges (pointers, Arrays, spans,
/// dense matrices and views alike) and refuses an overlap with
/// Error(invalid_argument) naming x and y; pass a copy of x.
///
/// Construction throws Error(invalid_argument) for an unknown
/// kernel or a format refusing the matrix, Error(unsupported) for a kernel
/// this CPU, GPU or value type lacks, Error(out_of_memory) when the
/// converted matrix does not fit.
class SpmvPlan {
 public:
  /// Converts `a` (copied where the format is CSR) on `ex`. Throws
  /// Error(invalid_argument) for an unknown kernel or a format refusing the
  /// matrix, Error(unsupported) for a kernel this CPU, GPU or value type lacks.
  SpmvPlan(ExecutorPtr ex, const Csr<V, I>& a, const SpmvOptions& options = {});

  /// y = alpha*A*x + beta*y in the original ordering (beta == 0: y is not read).
  /// Arrays: on the plan's executor, of cols and rows entries (checked).
  void apply(V alpha, const Array<V>& x, V beta, Array<V>& y) const;
  /// Host spans: a CPU plan only (checked), sizes checked.
  void apply(V alpha, std::span<const V> x, V beta, std::span<V> y) const;
  /// Raw pointers in the executor's memory, cols and rows entries (sizes not
  /// checked; an overlap of x and y is: Error(invalid_argument)).
  void apply(V alpha, const V* x, V beta, V* y) const;
  /// Y = alpha A X + beta Y for k columns (SpMM), X cols x k and Y rows x k
  /// on the plan's executor (checked): the format's SpMM kernel where it has
  /// one (A read once per 32 columns: CSR, kernels/csr_spmm.hpp, and
  /// SELL-C-sigma and BCSR, kernels/block_format_spmm.hpp, on both backends;
  /// not under cuSPARSE's kernels), else one product per column.
  void apply(V alpha, const DenseMatrix<V>& x, V beta, DenseMatrix<V>& y) const;
  /// The same on column-major views in the executor's memory (device
  /// pointers on a CUDA executor: other libraries' arrays, e.g. CuPy's,
  /// without a copy): shapes checked (Error(invalid_argument)), where the
  /// memory lives not checked.
  void apply(V alpha, const ConstDenseView<V>& x, V beta, const DenseView<V>& y) const;
  /// Whether the format has a multi-vector kernel (else SpMM is column by column).
  bool has_spmm() const { return static_cast<bool>(apply_block_); }

  /// The executor the matrix lives on.
  const ExecutorPtr& executor() const { return ex_; }
  /// The executor's backend.
  Backend backend() const { return ex_->backend(); }
  /// Rows of the matrix (entries of y).
  I rows() const { return rows_; }
  /// Columns of the matrix (entries of x).
  I cols() const { return cols_; }
  /// The storage format.
  Format format() const { return format_; }
  const std::string& description() const { return description_; }  ///< e.g. "sell-8-256/avx512" or "csr/adaptive"
  std::size_t matrix_bytes() const { return bytes_; }               ///< bytes of the stored format (no workspace)
  double setup_seconds() const { return setup_s_; }                 ///< conversion, upload, preprocessing
  /// Format "auto": what was chosen and why (resolve_spmv_options' note); empty where the format was given.
  const std::string& choice() const { return choice_; }
  /// Format "auto": the seconds the choice took (the matrix's analysis and the model), beside setup_seconds(); 0 where the format was given.
  double choice_seconds() const { return choice_s_; }
  std::size_t stored_entries() const { return stored_; }            ///< values stored, padding and block fill included

  /// @cond HSPARSE_INTERNAL
  using Parts = SpmvParts<V>;  // what a backend's builder hands the plan (kernels/spmv_options.hpp)
  /// @endcond

 private:
  ExecutorPtr ex_;
  std::function<void(V, const V*, V, V*)> apply_;
  std::function<void(V, const ConstDenseView<V>&, V, const DenseView<V>&)> apply_block_;
  std::shared_ptr<const void> storage_;
  std::string description_;
  Format format_ = Format::csr;
  I rows_ = 0, cols_ = 0;
  std::size_t bytes_ = 0, stored_ = 0;
  double setup_s_ = 0;
  std::string choice_;
  double choice_s_ = 0;
};

}  // namespace hsparse
