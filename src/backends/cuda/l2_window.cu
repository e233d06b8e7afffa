// L2 access-policy windows (l2_window.hpp).
#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>

#include "device_common.cuh"
#include "hsparse/backends/cuda/l2_window.hpp"

namespace hsparse::cuda {

namespace {

std::atomic<bool> any_set_aside{false};  // reset_persisting_l2 has work only after a window opened

int current_device() {
  int device = 0;
  HSPARSE_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

// The set-aside part is a per-device limit of this process: set once, to
// the most the device allows (the set-aside lines serve normal accesses
// whenever no persisting line occupies them, so reserving it costs nothing
// when no window is open).
void ensure_set_aside(int device, std::size_t bytes) {
  static std::mutex mutex;
  static std::array<bool, 64> done{};
  const std::lock_guard<std::mutex> lock(mutex);
  if (device < 0 || device >= static_cast<int>(done.size()) || done[static_cast<std::size_t>(device)]) return;
  HSPARSE_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, bytes));
  done[static_cast<std::size_t>(device)] = true;
  any_set_aside = true;
}

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

ScopedL2Window::ScopedL2Window(const Executor& ex, const void* base, std::size_t bytes) {
  if (bytes == 0 || base == nullptr) return;
  static const L2WindowLimits limits = l2_window_limits();  // one device per process in practice; re-read below if not
  if (limits.max_window_bytes == 0 || limits.max_persisting_bytes == 0) return;
  ensure_set_aside(current_device(), limits.max_persisting_bytes);
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

bool keep_x_in_l2(SpmvOptions::XInL2 choice, std::size_t x_bytes, std::size_t matrix_bytes) {
  switch (choice) {
  case SpmvOptions::XInL2::on: return true;
  case SpmvOptions::XInL2::off: return false;
  case SpmvOptions::XInL2::automatic:
    // Not yet measured: off until the A/B on the H100 / H200 says where it pays.
    (void)x_bytes;
    (void)matrix_bytes;
    return false;
  }
  return false;
}

void reset_persisting_l2() {
  if (any_set_aside) HSPARSE_CUDA_CHECK(cudaCtxResetPersistingL2Cache());
}

}  // namespace hsparse::cuda
