#pragma once
// Timing on the device: CUDA events around each repetition (host clocks add
// launch and synchronisation latency, which dominates kernels of a few
// microseconds), an optional untimed step before each (an L2 flush, so a
// matrix smaller than L2 is not reported as DRAM bandwidth), and the
// device's own read and copy bandwidth, the model's yardstick. The
// statistics are core/timer.hpp's (the one timing helper's summary).
#include <functional>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/timer.hpp"

namespace hsparse::cuda {

// fn() launches work on ex's stream; warm-up runs are untimed.
TimingSummary time_on_device(const Executor& ex, const std::function<void()>& fn, int repetitions, int warmup,
                             const std::function<void()>& before_each = {});

// The other timing mode (issue 18): `calls` calls back to back between two
// events, nothing flushed between them, per-call seconds over `samples`
// such groups (after one untimed call). What DASP and most SpMV papers
// report: whatever of the matrix and x stays in L2 between calls counts.
// Error(invalid_argument) unless calls, samples >= 1.
TimingSummary time_back_to_back(const Executor& ex, const std::function<void()>& fn, int calls, int samples);

// Two events around work on a stream, read later: a tuner records them
// around each product and reads the previous product's time at the next
// call, when it has long finished, so timing costs no synchronisation.
class EventTimer {
 public:
  EventTimer();
  ~EventTimer();
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  void start(const Executor& ex);
  void stop(const Executor& ex);
  double seconds() const;  // waits for the stop event if needed
 private:
  void* start_ = nullptr;
  void* stop_ = nullptr;
};

// The device's L2 size (bytes); 0 without a device.
std::size_t l2_cache_bytes();

// Writes a buffer of twice the L2 size on the stream: afterwards no matrix
// or vector data is left in L2.
class L2Flusher {
 public:
  explicit L2Flusher(const Executor& ex);
  void operator()() const;

 private:
  const Executor* ex_;
  DeviceArray<unsigned char> buffer_;
};

struct DeviceBandwidth {
  double read_bytes_per_s = 0;  // a streaming sum over the buffer (16-byte loads)
  double copy_bytes_per_s = 0;  // dst = src, bytes read + bytes written
  std::size_t buffer_bytes = 0;
};
// Best of `repetitions` (event-timed) over a buffer far larger than L2
// (default: 32 x L2, at least 1 GiB).
DeviceBandwidth measure_device_bandwidth(const Executor& ex, std::size_t buffer_bytes = 0, int repetitions = 10);

}  // namespace hsparse::cuda
