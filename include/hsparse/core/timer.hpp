#pragma once
// The one timing helper: wall-clock seconds of a callable, repeated, with the
// median reported (medians resist the odd slow run of a shared machine).
#include <algorithm>
#include <chrono>
#include <vector>

namespace hsparse {

class Stopwatch {
 public:
  Stopwatch() : start_(clock::now()) {}
  void restart() { start_ = clock::now(); }
  double seconds() const { return std::chrono::duration<double>(clock::now() - start_).count(); }

 private:
  using clock = std::chrono::steady_clock;
  clock::time_point start_;
};

struct TimingSummary {
  double median_s = 0, min_s = 0, max_s = 0;
  int repetitions = 0;
};

// Median, min and max of measured times (sorted in place).
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

// Runs fn() `warmup` times untimed, then `repetitions` times timed.
// `sync` is called after each run before the clock stops (a device sync for GPU work).
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

// Warm-up runs (at least one, about a quarter of min_time_s), then as many
// timed runs as fill min_time_s, at least min_repetitions: first calls pay
// page faults, clock ramps and cold caches (a one-off 0.065 ms product read
// 8 ms in 3 of 12 runs without this).
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
