#pragma once
/// @file
/// A contiguous array of T in an executor's memory (core/executor.hpp): the
/// vectors of the plans, the handles and the solvers on either backend.
/// Owns its memory; moves, never copies implicitly (copy_of / to_host say
/// when data crosses). Sizes are checked where arrays meet a plan.
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "hsparse/core/error.hpp"
#include "hsparse/core/executor.hpp"

namespace hsparse {

template <class T>
/// A contiguous array of T in an executor's memory.
///
/// Owns its memory (released with the array); move-only, so data crosses
/// between host and device only where copy_of(), to_host() or assign() say
/// so. Sizes are checked where arrays meet a plan or solver. Not
/// thread-safe for concurrent writes; const access from several threads is
/// safe. Allocation throws Error(out_of_memory) naming the size.
class Array {
 public:
  Array() = default;
  /// n elements, zeroed.
  Array(ExecutorPtr ex, std::size_t n) : ex_(std::move(ex)), size_(n) {
    if (!ex_) throw Error(ErrorCode::invalid_argument, "an Array needs an executor (null given)");
    data_ = static_cast<T*>(ex_->allocate(n * sizeof(T)));
    ex_->fill_zero(data_, n * sizeof(T));
  }
  /// A copy of host data in ex's memory.
  Array(ExecutorPtr ex, std::span<const T> host) : Array(std::move(ex), host.size()) {
    ex_->copy_from_host(data_, host.data(), host.size() * sizeof(T));
  }
  /// Takes o's memory; o is left empty.
  Array(Array&& o) noexcept : ex_(std::move(o.ex_)), data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  /// Releases this array's memory and takes o's.
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

  /// A copy in this array's executor's memory.
  Array copy_of() const {
    Array c(ex_, size_);
    ex_->copy(c.data_, data_, size_ * sizeof(T));
    return c;
  }
  /// A host copy of the elements (waits for the executor's queued work).
  std::vector<T> to_host() const {
    std::vector<T> h(size_);
    if (size_) ex_->copy_to_host(h.data(), data_, size_ * sizeof(T));
    return h;
  }
  /// Copies host data in; Error(invalid_argument) unless host.size() == size().
  void assign(std::span<const T> host) {
    if (host.size() != size_) {
      throw Error(ErrorCode::invalid_argument, "Array::assign: " + std::to_string(host.size()) + " values for an array of " + std::to_string(size_));
    }
    if (size_) ex_->copy_from_host(data_, host.data(), size_ * sizeof(T));
  }
  /// The elements, in the executor's memory (a device pointer on a GPU).
  T* data() { return data_; }
  /// The elements, in the executor's memory (a device pointer on a GPU).
  const T* data() const { return data_; }
  /// Number of elements.
  std::size_t size() const { return size_; }
  /// The executor whose memory holds the elements.
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
