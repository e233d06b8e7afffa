#pragma once
/// @file
/// Executors, after Ginkgo's model: an executor says where data lives and
/// where kernels run. Every plan (plans/spmv_plan.hpp), array
/// (core/array.hpp), tuning handle and solver takes one, and operations
/// dispatch on its backend; the algorithms above them are written once.
///
///  - CpuExecutor: host memory, OpenMP threads (as many as the OpenMP
///    runtime gives: OMP_NUM_THREADS, the process's affinity).
///  - cuda::Executor (backends/cuda/device.hpp): one device and one stream;
///    its memory is device memory.
///
/// Executors are shared (std::shared_ptr<const Executor>): a plan or an
/// array keeps its executor alive. "auto" becomes an executor in exactly
/// one function, make_executor(choice), through resolve_backend.
#include <cstddef>
#include <memory>
#include <string>

#include "hsparse/core/backend.hpp"

namespace hsparse {

namespace cuda {
class Executor;
}

/// Where data lives and kernels run: the base of CpuExecutor and
/// cuda::Executor.
///
/// Held through ExecutorPtr (shared ownership: arrays and plans keep their
/// executor alive). Executors are immutable once made, so one executor may
/// be shared by threads; the work queued on a cuda::Executor's stream is
/// ordered, and two threads queuing on one stream get an interleaving of
/// their work (use one executor per thread for independent streams). The
/// raw memory functions take pointers in this executor's space.
class Executor {
 public:
  virtual ~Executor() = default;
  /// The backend this executor runs on.
  virtual Backend backend() const = 0;
  /// "cpu (2 OpenMP threads)" or the device's name and shape.
  virtual std::string description() const = 0;
  /// Waits for every operation queued on this executor; throws on a kernel fault.
  virtual void synchronize() const = 0;

  /// Memory in this executor's space. allocate throws Error(out_of_memory)
  /// naming the size and what is free; 0 bytes gives a null pointer.
  virtual void* allocate(std::size_t bytes) const = 0;
  /// Frees memory from allocate(); null is ignored.
  virtual void release(void* p) const noexcept = 0;
  /// Copies `bytes` from host memory into this executor's space (waits until done).
  virtual void copy_from_host(void* dst, const void* host_src, std::size_t bytes) const = 0;
  /// Copies `bytes` from this executor's space to host memory (waits until done).
  virtual void copy_to_host(void* host_dst, const void* src, std::size_t bytes) const = 0;
  virtual void copy(void* dst, const void* src, std::size_t bytes) const = 0;  ///< both in this space
  /// Sets `bytes` at dst (in this executor's space) to zero.
  virtual void fill_zero(void* dst, std::size_t bytes) const = 0;
};

/// How executors are held: shared and immutable.
using ExecutorPtr = std::shared_ptr<const Executor>;

/// The host: its memory and the OpenMP threads the runtime gives
/// (OMP_NUM_THREADS, the process's affinity). Copies are memcpy.
class CpuExecutor final : public Executor {
 public:
  /// Reads the OpenMP thread count once.
  CpuExecutor();
  Backend backend() const override { return Backend::cpu; }
  std::string description() const override;
  void synchronize() const override {}
  /// The OpenMP threads kernels on this executor use.
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

/// The one place a backend choice becomes an executor: "cpu", "cuda"
/// (Error(unsupported) saying why when there is no device) or "auto" (the
/// GPU when one is visible), by resolve_backend (core/backend.hpp).
ExecutorPtr make_executor(const std::string& choice);
/// The executor of a resolved backend (device 0 for Backend::cuda).
ExecutorPtr make_executor(Backend backend);

/// The CUDA executor behind `ex`, or Error(invalid_argument) saying that
/// `what` needs one and naming the executor it was given.
const cuda::Executor& cuda_executor(const Executor& ex, const std::string& what);

}  // namespace hsparse
