#pragma once
/// @file
/// The one timing helper: wall-clock seconds of a callable, repeated, with the
/// median reported (medians resist the odd slow run of a shared machine).
#include <algorithm>
#include <chrono>
#include <vector>

namespace hsparse {

/// Wall-clock time since construction or the last restart() (steady clock).
/// Host time only: GPU work must be synchronised before seconds() is read.
class Stopwatch {
 public:
  /// Starts the clock.
  Stopwatch() : start_(clock::now()) {}
  /// Starts the clock again.
  void restart() { start_ = clock::now(); }
  /// Seconds since the start.
  double seconds() const { return std::chrono::duration<double>(clock::now() - start_).count(); }

 private:
  using clock = std::chrono::steady_clock;
  clock::time_point start_;
};

/// Median, minimum and maximum of repeated timings, in seconds.
struct TimingSummary {
  double median_s = 0;  ///< median time
  double min_s = 0;     ///< fastest run
  double max_s = 0;     ///< slowest run
  int repetitions = 0;  ///< timed runs
};

/// Median, min and max of measured times (sorted in place).
inline TimingSummary summarize_times(std::vector<double> times) {
  TimingSummary s;
  s.repetitions = static_cast<int>(times.size());
  if (times.empty()) return s;
  std::sort(times.begin(), times.end());
  s.min_s = times.front();
  s.max_s = times.back();
  s.median_s = times[times.size() / 2];
  return s;
}

/// Runs fn() `warmup` times untimed, then `repetitions` times timed.
/// `sync` is called after each run before the clock stops (a device sync for GPU work).
template <class Fn, class Sync = void (*)()>
TimingSummary time_repeated(Fn&& fn, int repetitions, int warmup = 1, Sync sync = [] {}) {
  for (int i = 0; i < warmup; ++i) { fn(); sync(); }
  std::vector<double> times;
  times.reserve(static_cast<std::size_t>(repetitions));
  for (int i = 0; i < repetitions; ++i) {
    Stopwatch watch;
    fn();
    sync();
    times.push_back(watch.seconds());
  }
  return summarize_times(std::move(times));
}

/// Warm-up runs (at least one, about a quarter of min_time_s), then as many
/// timed runs as fill min_time_s, at least min_repetitions: first calls pay
/// page faults, clock ramps and cold caches (a one-off 0.065 ms product read
/// 8 ms in 3 of 12 runs without this).
template <class Fn, class Sync = void (*)()>
TimingSummary time_for(Fn&& fn, double min_time_s, int min_repetitions, Sync sync = [] {}) {
  Stopwatch warm;
  int runs = 0;
  do {
    fn();
    sync();
    ++runs;
  } while (warm.seconds() < min_time_s / 4 && runs < 1000);
  const double per_run = std::max(warm.seconds() / runs, 1e-7);
  const int repetitions = static_cast<int>(std::clamp(min_time_s / per_run, static_cast<double>(min_repetitions), 100000.0));
  return time_repeated(fn, repetitions, 0, sync);
}

}  // namespace hsparse
