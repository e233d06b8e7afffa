#pragma once
// The SpMV performance model's inputs: the fewest bytes an SpMV must move,
// and the machine's measured read bandwidth.
#include <cstddef>
#include <cstdint>

namespace hsparse {

// Minimum traffic of y = A*x in CSR (Reguly and Giles, eq. (4)): every
// nonzero's value and column index read once, the row pointer read once, y
// written once and x read once, with perfect reuse. For a rectangular
// matrix x has cols entries (eq. (4) writes dimRow for both vectors):
//   nnz (sizeof V + sizeof I) + rows (sizeof V + sizeof I) + cols sizeof V
// This is the yardstick every format is measured against ("effective GB/s of
// minimum traffic"), so formats that move more bytes show it as lost speed.
inline double minimum_spmv_bytes(std::int64_t rows, std::int64_t cols, std::size_t nnz, std::size_t value_bytes,
                                 std::size_t index_bytes) {
  return static_cast<double>(nnz) * static_cast<double>(value_bytes + index_bytes) +
         static_cast<double>(rows) * static_cast<double>(value_bytes + index_bytes) +
         static_cast<double>(cols) * static_cast<double>(value_bytes);
}

struct BandwidthMeasurement {
  double read_bytes_per_s = 0;  // best of the repetitions
  std::size_t buffer_bytes = 0;
  int threads = 0;
};

// A STREAM-like read kernel: all threads sum disjoint parts of a buffer
// (default 8 times the last-level cache, at least 512 MiB); best of `repetitions`.
BandwidthMeasurement measure_read_bandwidth(std::size_t buffer_bytes = 0, int repetitions = 10);

}  // namespace hsparse
