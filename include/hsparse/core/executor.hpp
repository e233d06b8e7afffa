#pragma once
// Executors, after Ginkgo's model: an executor says where data lives and
// where kernels run. Every plan (plans/spmv_plan.hpp), array
// (core/array.hpp), tuning handle and solver takes one, and operations
// dispatch on its backend; the algorithms above them are written once.
//
//  - CpuExecutor: host memory, OpenMP threads (as many as the OpenMP
//    runtime gives: OMP_NUM_THREADS, the process's affinity).
//  - cuda::Executor (backends/cuda/device.hpp): one device and one stream;
//    its memory is device memory.
//
// Executors are shared (std::shared_ptr<const Executor>): a plan or an
// array keeps its executor alive. "auto" becomes an executor in exactly
// one function, make_executor(choice), through resolve_backend.
#include <cstddef>
#include <memory>
#include <string>

#include "hsparse/core/backend.hpp"

namespace hsparse {

namespace cuda {
class Executor;
}

class Executor {
 public:
  virtual ~Executor() = default;
  virtual Backend backend() const = 0;
  // "cpu (2 OpenMP threads)" or the device's name and shape.
  virtual std::string description() const = 0;
  // Waits for every operation queued on this executor; throws on a kernel fault.
  virtual void synchronize() const = 0;

  // Memory in this executor's space. allocate throws Error(out_of_memory)
  // naming the size and what is free; 0 bytes gives a null pointer.
  virtual void* allocate(std::size_t bytes) const = 0;
  virtual void release(void* p) const noexcept = 0;
  virtual void copy_from_host(void* dst, const void* host_src, std::size_t bytes) const = 0;
  virtual void copy_to_host(void* host_dst, const void* src, std::size_t bytes) const = 0;
  virtual void copy(void* dst, const void* src, std::size_t bytes) const = 0;  // both in this space
  virtual void fill_zero(void* dst, std::size_t bytes) const = 0;
};

using ExecutorPtr = std::shared_ptr<const Executor>;

class CpuExecutor final : public Executor {
 public:
  CpuExecutor();
  Backend backend() const override { return Backend::cpu; }
  std::string description() const override;
  void synchronize() const override {}
  int threads() const { return threads_; }
  void* allocate(std::size_t bytes) const override;
  void release(void* p) const noexcept override;
  void copy_from_host(void* dst, const void* host_src, std::size_t bytes) const override;
  void copy_to_host(void* host_dst, const void* src, std::size_t bytes) const override;
  void copy(void* dst, const void* src, std::size_t bytes) const override;
  void fill_zero(void* dst, std::size_t bytes) const override;

 private:
  int threads_ = 1;
};

// The one place a backend choice becomes an executor: "cpu", "cuda"
// (Error(unsupported) saying why when there is no device) or "auto" (the
// GPU when one is visible), by resolve_backend (plans/backend_choice.hpp).
ExecutorPtr make_executor(const std::string& choice);
ExecutorPtr make_executor(Backend backend);

// The CUDA executor behind `ex`, or Error(invalid_argument) saying that
// `what` needs one and naming the executor it was given.
const cuda::Executor& cuda_executor(const Executor& ex, const std::string& what);

}  // namespace hsparse
