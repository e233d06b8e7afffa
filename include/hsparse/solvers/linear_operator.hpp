#pragma once
// A square operator y = alpha A x + beta y given by a function on the
// executor's memory: what the Krylov solvers need from A (solvers/krylov.hpp)
// when A is not an SpMV plan, e.g. the finite-element local matrix approach
// (fem/element_operators.hpp). beta == 0: y must not be read. The function and
// whatever it captures must outlive the operator's use.
#include <functional>
#include <string>
#include <utility>

#include "hsparse/core/error.hpp"
#include "hsparse/core/executor.hpp"

namespace hsparse {

template <class V>
class LinearOperator {
 public:
  using Apply = std::function<void(V alpha, const V* x, V beta, V* y)>;
  LinearOperator(ExecutorPtr ex, long long size, Apply apply, std::string description)
      : ex_(std::move(ex)), size_(size), apply_(std::move(apply)), description_(std::move(description)) {
    if (!ex_ || !apply_ || size_ < 0) throw Error(ErrorCode::invalid_argument, "LinearOperator: an executor, a function and a size >= 0 are needed");
  }
  const ExecutorPtr& executor() const { return ex_; }
  Backend backend() const { return ex_->backend(); }
  long long rows() const { return size_; }
  long long cols() const { return size_; }
  void apply(V alpha, const V* x, V beta, V* y) const { apply_(alpha, x, beta, y); }
  const std::string& description() const { return description_; }

 private:
  ExecutorPtr ex_;
  long long size_;
  Apply apply_;
  std::string description_;
};

}  // namespace hsparse
