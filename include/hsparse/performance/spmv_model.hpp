#pragma once
// The SpMV performance model's inputs: the fewest bytes an SpMV must move,
// and the machine's measured read bandwidth.
#include <cstddef>

#include "hsparse/core/host_system.hpp"  // last_level_cache_bytes
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

// "Effective" traffic (Reguly eq. (2)): no reuse of x, one x load per
// nonzero: nnz (2 sizeof V + sizeof I) + rows (sizeof V + sizeof I).
inline double effective_spmv_bytes(std::int64_t rows, std::size_t nnz, std::size_t value_bytes, std::size_t index_bytes) {
  return static_cast<double>(nnz) * static_cast<double>(2 * value_bytes + index_bytes) +
         static_cast<double>(rows) * static_cast<double>(value_bytes + index_bytes);
}

// Minimum traffic of a kernel on its own stored format: the format's bytes
// (values, indices, pointers, padding), x read once and y written once.
inline double format_minimum_bytes(double matrix_bytes, std::int64_t rows, std::int64_t cols, std::size_t value_bytes) {
  return matrix_bytes + static_cast<double>(rows + cols) * static_cast<double>(value_bytes);
}

// Code balance in bytes per flop (SELL-C-sigma paper, section 4, eqs. (7)-(9)):
//   B_c(alpha) = (matrix bytes per nonzero + alpha sizeof V + 2 sizeof V / N_nzr) / 2
// with N_nzr = nnz / rows. The paper writes the matrix term as
// (sizeof V + sizeof I) / beta for SELL (beta the chunk occupancy); here it is
// the format's stored bytes per nonzero, which is that for SELL and ELL and
// adds the row pointers (CSR), row indices (COO) or block fill (BCSR) for the
// others. alpha is the RHS traffic per nonzero in units of sizeof V: 1/N_nzc
// (x read once) at best, 1 with no reuse, more with wasted cache lines.
inline double code_balance(double matrix_bytes, std::size_t nnz, std::int64_t rows, std::size_t value_bytes, double alpha) {
  const double n = static_cast<double>(nnz > 0 ? nnz : 1);
  return (matrix_bytes / n + alpha * static_cast<double>(value_bytes) + 2.0 * static_cast<double>(value_bytes) * static_cast<double>(rows) / n) / 2;
}

// alpha from a measurement (eqs. (13)-(14)): if the kernel ran at the
// machine's bandwidth b, its code balance was b / P (P in flop/s); solve
// B_c(alpha) = b / P for alpha. Meaningful only for bandwidth-bound runs: a
// kernel limited by something else shows a large alpha (the model's "excess
// traffic" absorbs every other loss), a cache-resident one a negative alpha.
inline double estimate_alpha(double matrix_bytes, std::size_t nnz, std::int64_t rows, std::size_t value_bytes, double flops_per_s,
                             double bandwidth) {
  const double n = static_cast<double>(nnz > 0 ? nnz : 1);
  const double balance = bandwidth / flops_per_s;
  return (2 * balance - matrix_bytes / n - 2.0 * static_cast<double>(value_bytes) * static_cast<double>(rows) / n) /
         static_cast<double>(value_bytes);
}

struct BandwidthMeasurement {
  double read_bytes_per_s = 0;  // best of the repetitions
  std::size_t buffer_bytes = 0;
  int threads = 0;
};

// A STREAM-like read kernel: all threads sum disjoint parts of a buffer
// (default 8 times the last-level cache, at least 512 MiB, at most a quarter
// of the host memory budget); best of `repetitions`.
BandwidthMeasurement measure_read_bandwidth(std::size_t buffer_bytes = 0, int repetitions = 10);

}  // namespace hsparse
