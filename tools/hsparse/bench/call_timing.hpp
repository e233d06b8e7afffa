#pragma once
// The one timing mode of the dense commands (hsparse gemm, hsparse spmm,
// hsparse bench --dense), for our kernels and the baselines alike.
//  - GPU: CUDA events around each call, median, nothing flushed (operands
//    warm): the mode of the read-bandwidth test (measure_device_bandwidth)
//    that the tall-skinny and SpMM figures are a share of. Host clocks
//    added the launch and the return from the synchronisation, about
//    10 us: at n = 1e7, k = 1 V^T W takes ~40 us, so a quarter of that
//    figure was not the kernel (H200).
//  - CPU: the host clock, warm-up runs first (core/timer.hpp's time_for).
// At least min_repetitions timed calls, more to fill min_time_s.
#include <functional>

#include "hsparse/core/executor.hpp"
#include "hsparse/core/timer.hpp"

namespace hsparse::bench {

TimingSummary time_calls(const Executor& ex, const std::function<void()>& fn, double min_time_s, int min_repetitions);

// What time_calls measures, for the reports.
const char* timing_mode(const Executor& ex);

}  // namespace hsparse::bench
