// The dense commands' timing (call_timing.hpp).
#include "call_timing.hpp"

#include <algorithm>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/backends/cuda/timing.hpp"

namespace hsparse::bench {

TimingSummary time_calls(const Executor& ex, const std::function<void()>& fn, double min_time_s, int min_repetitions) {
  if (ex.backend() == Backend::cuda) {
    const cuda::Executor& gpu = cuda_executor(ex, "the timing of a call");
    // A warm-up and an estimate. The repetitions fill min_time_s of wall-clock
    // time, not of device time alone: a call whose host work outlasts its
    // kernel (a launch-bound call, a library's host-side set-up) would repeat
    // for many times min_time_s.
    Stopwatch wall;
    const double device_per_call = cuda::time_on_device(gpu, fn, 3, 1).median_s;
    const double per_call = std::max({device_per_call, wall.seconds() / 4, 1e-7});
    const int repetitions = static_cast<int>(std::clamp(min_time_s / per_call, static_cast<double>(min_repetitions), 100000.0));
    return cuda::time_on_device(gpu, fn, repetitions, 0);
  }
  return time_for(fn, min_time_s, min_repetitions, [&] { ex.synchronize(); });
}

const char* timing_mode(const Executor& ex) {
  return ex.backend() == Backend::cuda ? "CUDA events around each call (the read-bandwidth test's mode)"
                                       : "host clock around each call plus a synchronisation";
}

}  // namespace hsparse::bench
