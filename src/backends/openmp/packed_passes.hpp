#pragma once
// The CPU SpMM kernels' passes (csr_spmm.cpp, sell_spmm.cpp): X's columns
// taken kSpmmColumns at a time, each pass's kc columns packed row-major
// (x_r[c * KC + j] = X(c, j0 + j), KC = kc rounded up to a power of two,
// the padding columns zero), so a nonzero's KC products read one
// contiguous run instead of KC values ld apart.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "hsparse/dense/dense_matrix.hpp"
#include "hsparse/kernels/csr_spmm.hpp"
#include "simd_dispatch.hpp"

namespace hsparse::openmp::detail {

// f(std::integral_constant<int, KC>, packed, kc, j0) for each pass. The
// packed X is kept per calling thread and only grows: a fresh buffer per
// product cost a page fault per 4 KiB (measured: SpMM of 32 columns 5x
// slower than 32 SpMVs on a 300,000-column matrix, mostly system time).
template <class V, class F>
void for_each_packed_pass(const ConstDenseView<V>& x, F&& f) {
  thread_local std::vector<V> xr;
  const long long cols = x.rows;
  for (long long j0 = 0; j0 < x.cols; j0 += kSpmmColumns) {
    const int kc = static_cast<int>(std::min<long long>(kSpmmColumns, x.cols - j0));
    const int KC = kc <= 1 ? 1 : kc <= 2 ? 2 : kc <= 4 ? 4 : kc <= 8 ? 8 : kc <= 16 ? 16 : 32;
    if (xr.size() < static_cast<std::size_t>(cols * KC)) xr.resize(static_cast<std::size_t>(cols * KC));
    V* const packed = xr.data();
#pragma omp parallel for schedule(static)
    for (long long c = 0; c < cols; ++c) {
      for (int j = 0; j < kc; ++j) packed[c * KC + j] = x(c, j0 + j);
      for (int j = kc; j < KC; ++j) packed[c * KC + j] = V(0);  // padding columns
    }
    switch (KC) {
      case 1: f(std::integral_constant<int, 1>{}, packed, kc, j0); break;
      case 2: f(std::integral_constant<int, 2>{}, packed, kc, j0); break;
      case 4: f(std::integral_constant<int, 4>{}, packed, kc, j0); break;
      case 8: f(std::integral_constant<int, 8>{}, packed, kc, j0); break;
      case 16: f(std::integral_constant<int, 16>{}, packed, kc, j0); break;
      default: f(std::integral_constant<int, 32>{}, packed, kc, j0); break;
    }
  }
}

// For each pass: items [0, count) (block rows, chunks) in tasks of
// per_task, in parallel, rows(width, packed, kc, ys, first, last) on each
// task's range, compiled for the SIMD level (simd_dispatch.hpp; complex
// types the baseline). ys is the pass's first column of Y. rows must be an
// always_inline lambda.
template <class V, class Rows>
void for_each_pass_in_tasks(const ConstDenseView<V>& x, const DenseView<V>& y, long long count, long long per_task, const Rows& rows) {
  const SimdLevel level = is_complex_v<V> ? SimdLevel::baseline : simd_level();
  for_each_packed_pass(x, [&](auto width, const V* packed, int kc, long long j0) {
    V* const ys = y.data + j0 * y.ld;
    const long long tasks = (count + per_task - 1) / per_task;
#pragma omp parallel for schedule(static)
    for (long long t = 0; t < tasks; ++t) {
      with_simd_level(level, [&](auto) __attribute__((always_inline)) { rows(width, packed, kc, ys, t * per_task, std::min(count, (t + 1) * per_task)); });
    }
  });
}

}  // namespace hsparse::openmp::detail
