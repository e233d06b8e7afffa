#pragma once
/// @file
/// A dense matrix (or block of vectors) on an executor: column-major with a
/// leading dimension ld >= rows, as BLAS and cuBLAS store them, so column j
/// of an n x k multi-vector is a contiguous vector the solvers' kernels can
/// take as is. Float and double; complex<float> and complex<double> too
/// (the containers and the reference cost nothing extra).
///
/// DenseView / ConstDenseView are the non-owning (pointer, rows, cols, ld)
/// the kernels take, in the memory of the executor the matrix lives on.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "hsparse/core/array.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse {

template <class T>
/// A writable column-major view (no ownership) of a dense matrix's elements.
struct DenseView {
  T* data = nullptr;  ///< element (0, 0), in the owner's executor memory
  long long rows = 0; ///< rows
  long long cols = 0; ///< columns
  long long ld = 1;   ///< leading dimension: element (i, j) is data[i + j * ld]
  /// Element (i, j) (host memory only; unchecked).
  T& operator()(long long i, long long j) const { return data[i + j * ld]; }
};

template <class T>
/// A read-only column-major view (no ownership).
struct ConstDenseView {
  const T* data = nullptr;  ///< element (0, 0), in the owner's executor memory
  long long rows = 0;       ///< rows
  long long cols = 0;       ///< columns
  long long ld = 1;         ///< leading dimension: element (i, j) is data[i + j * ld]
  /// An empty view.
  ConstDenseView() = default;
  /// A view of d: r x c, leading dimension l.
  ConstDenseView(const T* d, long long r, long long c, long long l) : data(d), rows(r), cols(c), ld(l) {}
  /// A read-only view of a writable one (implicit: a view may be read).
  ConstDenseView(const DenseView<T>& v) : data(v.data), rows(v.rows), cols(v.cols), ld(v.ld) {}  // NOLINT: a view may be read
  /// Element (i, j) (host memory only; unchecked).
  const T& operator()(long long i, long long j) const { return data[i + j * ld]; }
};

/// Error(invalid_argument) for negative sizes or ld < max(1, rows);
/// Error(overflow) when ld * cols does not fit in memory sizes.
void check_dense_shape(long long rows, long long cols, long long ld, const std::string& what);

template <class T>
/// A column-major dense matrix in an executor's memory (the blocks of SpMM,
/// GEMM and the multi-right-hand-side solvers).
///
/// Owns its elements (an Array); move-only. Shapes are checked
/// (check_dense_shape) and allocation throws Error(out_of_memory). Const
/// access from several threads is safe; writes are not synchronised.
class DenseMatrix {
 public:
  /// An empty 0 x 0 matrix with no executor.
  DenseMatrix() = default;
  /// rows x cols, zeroed; ld = 0: rows (at least 1).
  DenseMatrix(ExecutorPtr ex, long long rows, long long cols, long long ld = 0)
      : rows_(rows), cols_(cols), ld_(ld > 0 ? ld : std::max(1LL, rows)) {
    check_dense_shape(rows_, cols_, ld_, "DenseMatrix");
    storage_ = Array<T>(std::move(ex), static_cast<std::size_t>(ld_) * static_cast<std::size_t>(cols_));
  }
  /// A copy of host data, column-major with leading dimension `host_ld` (0: rows).
  DenseMatrix(ExecutorPtr ex, long long rows, long long cols, std::span<const T> host, long long host_ld = 0)
      : DenseMatrix(std::move(ex), rows, cols) {
    const long long hl = host_ld > 0 ? host_ld : std::max(1LL, rows);
    check_dense_shape(rows, cols, hl, "DenseMatrix host data");
    const auto needed = rows > 0 && cols > 0 ? static_cast<std::size_t>(hl * (cols - 1) + rows) : std::size_t{0};
    if (host.size() < needed) {
      throw Error(ErrorCode::invalid_argument, "DenseMatrix: " + std::to_string(host.size()) + " host values for " + std::to_string(rows) + " x " +
                                                   std::to_string(cols) + " with leading dimension " + std::to_string(hl));
    }
    if (needed == 0) return;
    if (hl == ld_) {
      storage_.executor()->copy_from_host(storage_.data(), host.data(), needed * sizeof(T));
    } else {
      for (long long j = 0; j < cols; ++j) {
        storage_.executor()->copy_from_host(storage_.data() + j * ld_, host.data() + j * hl, static_cast<std::size_t>(rows) * sizeof(T));
      }
    }
  }

  /// Column-major host copy with leading dimension rows.
  std::vector<T> to_host() const {
    std::vector<T> h(static_cast<std::size_t>(rows_ * cols_));
    // One copy where the columns are contiguous: a copy per column of a wide
    // matrix (X^T of k x 10^6) took 3.5 s on the GPU, a cudaMemcpy per column.
    if (ld_ == rows_ && !h.empty()) {
      storage_.executor()->copy_to_host(h.data(), storage_.data(), h.size() * sizeof(T));
      return h;
    }
    for (long long j = 0; j < cols_ && rows_ > 0; ++j) {
      storage_.executor()->copy_to_host(h.data() + j * rows_, storage_.data() + j * ld_, static_cast<std::size_t>(rows_) * sizeof(T));
    }
    return h;
  }
  /// Rows.
  long long rows() const { return rows_; }
  /// Columns.
  long long cols() const { return cols_; }
  /// Leading dimension (>= rows): element (i, j) is data()[i + j * ld()].
  long long ld() const { return ld_; }
  /// The elements, in the executor's memory.
  T* data() { return storage_.data(); }
  /// The elements, in the executor's memory.
  const T* data() const { return storage_.data(); }
  /// Column j's first element (unchecked).
  T* column(long long j) { return storage_.data() + j * ld_; }
  /// Column j's first element (unchecked).
  const T* column(long long j) const { return storage_.data() + j * ld_; }
  /// The executor holding the elements.
  const ExecutorPtr& executor() const { return storage_.executor(); }
  /// A writable view of the whole matrix.
  DenseView<T> view() { return {data(), rows_, cols_, ld_}; }
  /// A read-only view of the whole matrix.
  ConstDenseView<T> view() const { return {data(), rows_, cols_, ld_}; }

 private:
  long long rows_ = 0, cols_ = 0, ld_ = 1;
  Array<T> storage_;
};

}  // namespace hsparse
