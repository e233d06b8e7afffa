// L2 access-policy windows (l2_window.hpp).
#include <algorithm>
#include <array>
#include <mutex>

#include "device_common.cuh"
#include "hsparse/backends/cuda/l2_window.hpp"

namespace hsparse::cuda {

namespace {

int current_device() {
  int device = 0;
  HSPARSE_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

// Holders of each device's set-aside (L2SetAside), under one mutex.
std::mutex set_aside_mutex;
std::array<int, 64> set_aside_holders{};
int total_holders = 0;

}  // namespace

L2WindowLimits l2_window_limits() {
  L2WindowLimits limits;
  if (!device_available()) return limits;
  const int device = current_device();
  int window = 0, persisting = 0;
  HSPARSE_CUDA_CHECK(cudaDeviceGetAttribute(&window, cudaDevAttrMaxAccessPolicyWindowSize, device));
  HSPARSE_CUDA_CHECK(cudaDeviceGetAttribute(&persisting, cudaDevAttrMaxPersistingL2CacheSize, device));
  limits.max_window_bytes = static_cast<std::size_t>(std::max(window, 0));
  limits.max_persisting_bytes = static_cast<std::size_t>(std::max(persisting, 0));
  return limits;
}

L2SetAside::L2SetAside() {
  const L2WindowLimits limits = l2_window_limits();
  if (limits.max_persisting_bytes == 0) return;
  const int device = current_device();
  if (device < 0 || device >= static_cast<int>(set_aside_holders.size()))
    throw Error(ErrorCode::unsupported, "L2 set-aside: device index " + std::to_string(device) + " beyond the 64 this build tracks");
  const std::lock_guard<std::mutex> lock(set_aside_mutex);
  if (set_aside_holders[static_cast<std::size_t>(device)] == 0)
    HSPARSE_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, limits.max_persisting_bytes));
  ++set_aside_holders[static_cast<std::size_t>(device)];
  ++total_holders;
  device_ = device;
}

L2SetAside::~L2SetAside() {
  if (device_ < 0) return;
  const std::lock_guard<std::mutex> lock(set_aside_mutex);
  --total_holders;
  if (--set_aside_holders[static_cast<std::size_t>(device_)] > 0) return;
  // The last holder: no product may still be using the window when the
  // set-aside goes (no throw from a destructor: errors are dropped).
  int previous = 0;
  cudaGetDevice(&previous);
  cudaSetDevice(device_);
  cudaDeviceSynchronize();
  cudaCtxResetPersistingL2Cache();
  cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
  cudaSetDevice(previous);
}

ScopedL2Window::ScopedL2Window(const Executor& ex, const void* base, std::size_t bytes) {
  if (bytes == 0 || base == nullptr) return;
  static const L2WindowLimits limits = l2_window_limits();
  if (limits.max_window_bytes == 0 || limits.max_persisting_bytes == 0) return;
  cudaStreamAttrValue value{};
  const std::size_t window = std::min(bytes, limits.max_window_bytes);
  value.accessPolicyWindow.base_ptr = const_cast<void*>(base);
  value.accessPolicyWindow.num_bytes = window;
  // Lines beyond what the set-aside part holds would evict each other:
  // persist only the fraction that fits, the rest stays normal (streaming
  // would evict them first, and they are gathered as often as the others).
  value.accessPolicyWindow.hitRatio =
      static_cast<float>(std::min(1.0, static_cast<double>(limits.max_persisting_bytes) / static_cast<double>(window)));
  value.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  value.accessPolicyWindow.missProp = cudaAccessPropertyNormal;
  const cudaStream_t stream = detail::stream_of(ex);
  HSPARSE_CUDA_CHECK(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &value));
  stream_ = stream;
}

ScopedL2Window::~ScopedL2Window() {
  if (stream_ == nullptr) return;
  cudaStreamAttrValue value{};  // num_bytes 0: no window
  value.accessPolicyWindow.hitProp = cudaAccessPropertyNormal;
  value.accessPolicyWindow.missProp = cudaAccessPropertyNormal;
  cudaStreamSetAttribute(static_cast<cudaStream_t>(stream_), cudaStreamAttributeAccessPolicyWindow, &value);  // no throw from a destructor
}

bool keep_x_in_l2(std::optional<bool> forced) {
  // Measured (l2_window.hpp): the window gained 5% on one matrix (power
  // law, x 32 MB, back to back) and lost 2-17% on the others, and the
  // set-aside it needs slows every other kernel while it is held.
  return forced.value_or(false);
}

void reset_persisting_l2() {
  const std::lock_guard<std::mutex> lock(set_aside_mutex);
  if (total_holders > 0) HSPARSE_CUDA_CHECK(cudaCtxResetPersistingL2Cache());
}

}  // namespace hsparse::cuda
