#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "hsparse/core/aligned_vector.hpp"
#include "hsparse/core/host_system.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/performance/spmv_model.hpp"

namespace hsparse {

BandwidthMeasurement measure_read_bandwidth(std::size_t buffer_bytes, int repetitions) {
  if (buffer_bytes == 0) {
    // 8x the cache these cores see, at least 512 MiB, at most a quarter of the memory budget.
    buffer_bytes = std::min(std::max<std::size_t>(std::size_t{512} << 20, 8 * last_level_cache_bytes()), host_memory_budget() / 4);
  }
  require_host_memory(buffer_bytes, "the read-bandwidth test");
  std::size_t n = buffer_bytes / sizeof(double) / 16 * 16;
  AlignedVector<double> data(n);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<double>(i % 7);  // first touch by the reading thread
  BandwidthMeasurement m;
  m.buffer_bytes = n * sizeof(double);
  m.threads = omp_get_max_threads();
  volatile double sink = 0;
  double best = 1e30;
  // 16 independent partial sums per thread: one accumulator chain would be
  // bound by add latency, not memory (13 vs 18.5 GB/s measured on the build
  // machine), and a bandwidth that SpMV can beat is no ceiling.
  constexpr std::size_t kLanes = 16;
  const std::size_t blocks = n / kLanes;
  for (int rep = 0; rep < repetitions; ++rep) {
    Stopwatch watch;
    double total = 0;
#pragma omp parallel reduction(+ : total)
    {
      double partial[kLanes] = {};
#pragma omp for schedule(static)
      for (std::size_t b = 0; b < blocks; ++b) {
        for (std::size_t j = 0; j < kLanes; ++j) partial[j] += data[b * kLanes + j];
      }
      for (std::size_t j = 0; j < kLanes; ++j) total += partial[j];
    }
    best = std::min(best, watch.seconds());
    sink = sink + total;
  }
  m.read_bytes_per_s = static_cast<double>(m.buffer_bytes) / best;
  return m;
}

}  // namespace hsparse
