#pragma once
// A contiguous array of T in an executor's memory (core/executor.hpp): the
// vectors of the plans, the handles and the solvers on either backend.
// Owns its memory; moves, never copies implicitly (copy_of / to_host say
// when data crosses). Sizes are checked where arrays meet a plan.
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "hsparse/core/error.hpp"
#include "hsparse/core/executor.hpp"

namespace hsparse {

template <class T>
class Array {
 public:
  Array() = default;
  // n elements, zeroed.
  Array(ExecutorPtr ex, std::size_t n) : ex_(std::move(ex)), size_(n) {
    if (!ex_) throw Error(ErrorCode::invalid_argument, "an Array needs an executor (null given)");
    data_ = static_cast<T*>(ex_->allocate(n * sizeof(T)));
    ex_->fill_zero(data_, n * sizeof(T));
  }
  // A copy of host data in ex's memory.
  Array(ExecutorPtr ex, std::span<const T> host) : Array(std::move(ex), host.size()) {
    ex_->copy_from_host(data_, host.data(), host.size() * sizeof(T));
  }
  Array(Array&& o) noexcept : ex_(std::move(o.ex_)), data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  Array& operator=(Array&& o) noexcept {
    if (this != &o) {
      reset();
      ex_ = std::move(o.ex_);
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;
  ~Array() { reset(); }

  // A copy in this array's executor's memory.
  Array copy_of() const {
    Array c(ex_, size_);
    ex_->copy(c.data_, data_, size_ * sizeof(T));
    return c;
  }
  std::vector<T> to_host() const {
    std::vector<T> h(size_);
    if (size_) ex_->copy_to_host(h.data(), data_, size_ * sizeof(T));
    return h;
  }
  void assign(std::span<const T> host) {
    if (host.size() != size_) {
      throw Error(ErrorCode::invalid_argument, "Array::assign: " + std::to_string(host.size()) + " values for an array of " + std::to_string(size_));
    }
    if (size_) ex_->copy_from_host(data_, host.data(), size_ * sizeof(T));
  }
  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  const ExecutorPtr& executor() const { return ex_; }

 private:
  void reset() noexcept {
    if (ex_ && data_) ex_->release(data_);
    data_ = nullptr;
  }
  ExecutorPtr ex_;
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace hsparse
