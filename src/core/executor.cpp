// The CPU executor and the choice of an executor (core/executor.hpp).
#include "hsparse/core/executor.hpp"

#include <omp.h>

#include <cstdlib>
#include <cstring>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/host_system.hpp"

namespace hsparse {

CpuExecutor::CpuExecutor() : threads_(omp_get_max_threads()) {}

std::string CpuExecutor::description() const { return "cpu (" + std::to_string(threads_) + " OpenMP threads)"; }

void* CpuExecutor::allocate(std::size_t bytes) const {
  if (bytes == 0) return nullptr;
  // Large arrays are checked against the host budget first (core/host_system.hpp)
  // so a too-big vector is a clear error, not the kernel's OOM killer.
  constexpr std::size_t kCheckFrom = std::size_t(64) << 20;
  if (bytes >= kCheckFrom) require_host_memory(bytes, "a host array");
  constexpr std::size_t kAlign = 64;  // a cache line: aligned SIMD loads
  void* p = std::aligned_alloc(kAlign, (bytes + kAlign - 1) / kAlign * kAlign);
  if (p == nullptr) throw Error(ErrorCode::out_of_memory, "host allocation of " + std::to_string(bytes) + " bytes failed");
  return p;
}
void CpuExecutor::release(void* p) const noexcept { std::free(p); }
void CpuExecutor::copy_from_host(void* dst, const void* src, std::size_t bytes) const {
  if (bytes) std::memcpy(dst, src, bytes);
}
void CpuExecutor::copy_to_host(void* dst, const void* src, std::size_t bytes) const {
  if (bytes) std::memcpy(dst, src, bytes);
}
void CpuExecutor::copy(void* dst, const void* src, std::size_t bytes) const {
  if (bytes) std::memmove(dst, src, bytes);
}
void CpuExecutor::fill_zero(void* dst, std::size_t bytes) const {
  if (bytes) std::memset(dst, 0, bytes);
}

ExecutorPtr make_executor(Backend backend) {
  switch (backend) {
    case Backend::cpu: return std::make_shared<const CpuExecutor>();
    case Backend::cuda: return cuda::make_cuda_executor(0);
  }
  throw Error(ErrorCode::internal, "make_executor: unknown backend");
}

Backend resolve_backend(const std::string& choice) {
  if (choice == "cpu") return Backend::cpu;
  if (choice != "cuda" && choice != "auto") {
    throw Error(ErrorCode::invalid_argument, "unknown backend '" + choice + "' (known: auto, cpu, cuda)");
  }
  const bool device = cuda::device_available();
  if (choice == "cuda" && !device) throw Error(ErrorCode::unsupported, "--backend cuda: " + cuda::device_description());
  return device ? Backend::cuda : Backend::cpu;
}

ExecutorPtr make_executor(const std::string& choice) { return make_executor(resolve_backend(choice)); }

const cuda::Executor& cuda_executor(const Executor& ex, const std::string& what) {
  if (ex.backend() != Backend::cuda) throw Error(ErrorCode::invalid_argument, what + " needs a CUDA executor, not " + ex.description());
  return static_cast<const cuda::Executor&>(ex);
}

}  // namespace hsparse
