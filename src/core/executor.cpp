// The CPU executor (core/executor.hpp). The factory, which knows the
// backends, is backends/executor_factory.cpp: the core includes no backend.
#include "hsparse/core/executor.hpp"

#include <omp.h>

#include <cstdlib>
#include <cstring>

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

}  // namespace hsparse
