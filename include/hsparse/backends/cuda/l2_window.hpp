#pragma once
// x kept resident in L2 while the matrix streams past it (issue 37,
// "irregular gathers"). Hopper (and Ampere) let a stream mark an address
// range as persisting (CUDA C++ Programming Guide, "Device Memory L2 Access
// Management"): a fraction `hit_ratio` of its lines goes to a set-aside
// part of L2 that normal and streaming accesses cannot evict. An SpMV reads
// its matrix once and gathers x many times; without the window, every
// matrix line that passes through L2 competes with x's lines.
//
// Measured on an H100 (docs/results/2026-11-26-l2-window-setups-h100): the
// set-aside itself costs every kernel of the process 13-25% of its speed
// while it is configured (cuSPARSE's CSR, with no window, 246.9 -> 192.0
// GFLOP/s on power law, 348.9 -> 298.0 on a stencil), so it is held only
// while a plan that uses a window lives (L2SetAside), and `auto` never
// opens one (keep_x_in_l2).
#include <cstddef>
#include <memory>
#include <optional>

#include "hsparse/backends/cuda/device.hpp"

namespace hsparse::cuda {

// The device's limits: the largest window a stream may name and the largest
// set-aside part of L2 (both 0 on devices without L2 access management).
struct L2WindowLimits {
  std::size_t max_window_bytes = 0;
  std::size_t max_persisting_bytes = 0;
};
L2WindowLimits l2_window_limits();

// The set-aside part of the current device's L2, counted: the first holder
// sets it to the most the device allows (cudaLimitPersistingL2CacheSize),
// the last one returns it to 0 after the device has finished its work and
// every persisting line is normal again. Plans with x in L2 hold one.
class L2SetAside {
 public:
  L2SetAside();
  ~L2SetAside();
  L2SetAside(const L2SetAside&) = delete;
  L2SetAside& operator=(const L2SetAside&) = delete;

 private:
  int device_ = -1;
};

// While it lives, kernels launched on ex's stream keep [base, base + bytes)
// in L2: the window covers min(bytes, max window) and persists the
// fraction of it the set-aside part holds (an L2SetAside must be held).
// The destructor clears the stream's window again, so later kernels on the
// stream (a flush, a dot product) are unaffected. No-op where the device
// has no L2 access management or bytes == 0.
class ScopedL2Window {
 public:
  ScopedL2Window(const Executor& ex, const void* base, std::size_t bytes);
  ~ScopedL2Window();
  ScopedL2Window(const ScopedL2Window&) = delete;
  ScopedL2Window& operator=(const ScopedL2Window&) = delete;
  bool active() const { return stream_ != nullptr; }

 private:
  void* stream_ = nullptr;
};

// The one place that decides whether an SpMV plan keeps x in L2: as forced
// (the kernel parameter x_in_l2), else never (the set-aside's cost above).
bool keep_x_in_l2(std::optional<bool> forced);

// Returns every persisting line of L2 to normal status (so an L2 flush
// evicts x too; L2Flusher calls it). No-op while no set-aside is held.
void reset_persisting_l2();

}  // namespace hsparse::cuda
