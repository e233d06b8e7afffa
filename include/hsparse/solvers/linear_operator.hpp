#pragma once
/// @file
/// A square operator y = alpha A x + beta y given by a function on the
/// executor's memory: what the Krylov solvers need from A (solvers/krylov.hpp)
/// when A is not an SpMV plan, e.g. the finite-element local matrix approach
/// (fem/element_operators.hpp). beta == 0: y must not be read. The function and
/// whatever it captures must outlive the operator's use.
#include <functional>
#include <string>
#include <utility>

#include "hsparse/core/error.hpp"
#include "hsparse/core/executor.hpp"

namespace hsparse {

template <class V>
/// A square operator y = alpha A x + beta y given as a function on an
/// executor: what the Krylov solvers need of a matrix-free operator (e.g.
/// the finite-element LMA or sum-factorised product). Copyable; the
/// function is shared by copies and must be callable from the thread that
/// solves.
class LinearOperator {
 public:
  /// The product: x and y in the executor's memory, rows() entries each.
  using Apply = std::function<void(V alpha, const V* x, V beta, V* y)>;
  /// Error(invalid_argument) without an executor or function, or for a negative size.
  LinearOperator(ExecutorPtr ex, long long size, Apply apply, std::string description)
      : ex_(std::move(ex)), size_(size), apply_(std::move(apply)), description_(std::move(description)) {
    if (!ex_ || !apply_ || size_ < 0) throw Error(ErrorCode::invalid_argument, "LinearOperator: an executor, a function and a size >= 0 are needed");
  }
  /// The executor whose memory x and y are in.
  const ExecutorPtr& executor() const { return ex_; }
  /// The executor's backend.
  Backend backend() const { return ex_->backend(); }
  /// Rows (= columns).
  long long rows() const { return size_; }
  /// Columns (= rows).
  long long cols() const { return size_; }
  /// y = alpha A x + beta y.
  void apply(V alpha, const V* x, V beta, V* y) const { apply_(alpha, x, beta, y); }
  /// What the operator is, for reports.
  const std::string& description() const { return description_; }

 private:
  ExecutorPtr ex_;
  long long size_;
  Apply apply_;
  std::string description_;
};

}  // namespace hsparse
