#include "hsparse/formats/row_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hsparse {

template <class V, class I>
RowStatistics row_length_statistics(const Csr<V, I>& a) {
  RowStatistics s;
  if (a.rows == 0) return s;
  std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = 0, empty = 0;
  double sum = 0, sum_sq = 0;
#pragma omp parallel for schedule(static) reduction(min : lo) reduction(max : hi) reduction(+ : empty, sum, sum_sq)
  for (I r = 0; r < a.rows; ++r) {
    const auto len = static_cast<std::int64_t>(a.row_ptr[r + 1] - a.row_ptr[r]);
    lo = std::min(lo, len);
    hi = std::max(hi, len);
    empty += len == 0;
    sum += static_cast<double>(len);
    sum_sq += static_cast<double>(len) * static_cast<double>(len);
  }
  const double n = static_cast<double>(a.rows);
  s.min_length = lo;
  s.max_length = hi;
  s.empty_rows = empty;
  s.mean_length = sum / n;
  s.std_deviation = std::sqrt(std::max(0.0, sum_sq / n - s.mean_length * s.mean_length));
  s.coefficient_of_variation = s.mean_length > 0 ? s.std_deviation / s.mean_length : 0;
  return s;
}

#define HSPARSE_INSTANTIATE(V, I) template RowStatistics row_length_statistics(const Csr<V, I>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
