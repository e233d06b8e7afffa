#pragma once
// A dense matrix (or block of vectors) on an executor: column-major with a
// leading dimension ld >= rows, as BLAS and cuBLAS store them, so column j
// of an n x k multi-vector is a contiguous vector the solvers' kernels can
// take as is. Float and double; complex<float> and complex<double> too
// (the containers and the reference cost nothing extra).
//
// DenseView / ConstDenseView are the non-owning (pointer, rows, cols, ld)
// the kernels take, in the memory of the executor the matrix lives on.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "hsparse/core/array.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse {

template <class T>
struct DenseView {
  T* data = nullptr;
  long long rows = 0, cols = 0, ld = 1;
  T& operator()(long long i, long long j) const { return data[i + j * ld]; }
};

template <class T>
struct ConstDenseView {
  const T* data = nullptr;
  long long rows = 0, cols = 0, ld = 1;
  ConstDenseView() = default;
  ConstDenseView(const T* d, long long r, long long c, long long l) : data(d), rows(r), cols(c), ld(l) {}
  ConstDenseView(const DenseView<T>& v) : data(v.data), rows(v.rows), cols(v.cols), ld(v.ld) {}  // NOLINT: a view may be read
  const T& operator()(long long i, long long j) const { return data[i + j * ld]; }
};

// Error(invalid_argument) for negative sizes or ld < max(1, rows);
// Error(overflow) when ld * cols does not fit in memory sizes.
void check_dense_shape(long long rows, long long cols, long long ld, const std::string& what);

template <class T>
class DenseMatrix {
 public:
  DenseMatrix() = default;
  // rows x cols, zeroed; ld = 0: rows (at least 1).
  DenseMatrix(ExecutorPtr ex, long long rows, long long cols, long long ld = 0)
      : rows_(rows), cols_(cols), ld_(ld > 0 ? ld : std::max(1LL, rows)) {
    check_dense_shape(rows_, cols_, ld_, "DenseMatrix");
    storage_ = Array<T>(std::move(ex), static_cast<std::size_t>(ld_) * static_cast<std::size_t>(cols_));
  }
  // A copy of host data, column-major with leading dimension `host_ld` (0: rows).
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

  // Column-major host copy with leading dimension rows.
  std::vector<T> to_host() const {
    std::vector<T> h(static_cast<std::size_t>(rows_ * cols_));
    for (long long j = 0; j < cols_ && rows_ > 0; ++j) {
      storage_.executor()->copy_to_host(h.data() + j * rows_, storage_.data() + j * ld_, static_cast<std::size_t>(rows_) * sizeof(T));
    }
    return h;
  }
  long long rows() const { return rows_; }
  long long cols() const { return cols_; }
  long long ld() const { return ld_; }
  T* data() { return storage_.data(); }
  const T* data() const { return storage_.data(); }
  T* column(long long j) { return storage_.data() + j * ld_; }
  const T* column(long long j) const { return storage_.data() + j * ld_; }
  const ExecutorPtr& executor() const { return storage_.executor(); }
  DenseView<T> view() { return {data(), rows_, cols_, ld_}; }
  ConstDenseView<T> view() const { return {data(), rows_, cols_, ld_}; }

 private:
  long long rows_ = 0, cols_ = 0, ld_ = 1;
  Array<T> storage_;
};

}  // namespace hsparse
