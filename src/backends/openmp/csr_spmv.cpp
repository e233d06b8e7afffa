// OpenMP CSR SpMV: one row per loop iteration, rows split among threads by
// the schedule of eq. (15) (see csr_spmv.hpp). Each thread writes only its
// own rows of y, so there are no atomics and results are deterministic.
#include "hsparse/kernels/csr_spmv.hpp"

#include <unistd.h>

#include <cmath>

#include "hsparse/formats/row_statistics.hpp"
#include "hsparse/core/host_system.hpp"

namespace hsparse::openmp {

namespace {

template <class V, class I>
inline V row_dot(const Csr<V, I>& a, const V* __restrict x, I r) {
  V sum(0);
  const I end = a.row_ptr[r + 1];
  const I* __restrict cols = a.col_idx.data();
  const V* __restrict vals = a.values.data();
  const I begin = a.row_ptr[r];
  // Short rows (stencils, webbase-like graphs) skip the SIMD reduction, whose
  // set-up and horizontal add cost more than it saves below ~16 entries
  // (the SELL-C-sigma paper's point about CRS, section 3.1).
  if constexpr (is_complex_v<V>) {
    for (I k = begin; k < end; ++k) sum += vals[k] * x[cols[k]];
  } else if (end - begin < 16) {
    for (I k = begin; k < end; ++k) sum += vals[k] * x[cols[k]];
  } else {
    // Reassociates the row's sum into SIMD lanes: still deterministic run to run.
#pragma omp simd reduction(+ : sum)
    for (I k = begin; k < end; ++k) sum += vals[k] * x[cols[k]];
  }
  return sum;
}

}  // namespace

Schedule choose_schedule(std::size_t matrix_bytes, double row_length_cv) {
  constexpr double kCvThreshold = 1.0;
  if (matrix_bytes <= hsparse::last_level_cache_bytes() || row_length_cv < kCvThreshold) return Schedule::static_rows;
  return Schedule::guided_rows;
}

template <class V, class I>
Schedule choose_schedule(const Csr<V, I>& a) {
  return choose_schedule(a.bytes(), row_length_statistics(a).coefficient_of_variation);
}

template <class V, class I>
void csr_spmv(V alpha, const Csr<V, I>& a, std::span<const V> x, V beta, std::span<V> y, Schedule schedule) {
  check_spmv_sizes(a, x.size(), y.size());
  const V* __restrict xp = x.data();
  V* __restrict yp = y.data();
  const bool read_y = beta != V(0);
  if (schedule == Schedule::static_rows) {
#pragma omp parallel for schedule(static)
    for (I r = 0; r < a.rows; ++r) {
      const V sum = row_dot(a, xp, r);
      yp[r] = read_y ? alpha * sum + beta * yp[r] : alpha * sum;
    }
  } else {
#pragma omp parallel for schedule(guided, 1)
    for (I r = 0; r < a.rows; ++r) {
      const V sum = row_dot(a, xp, r);
      yp[r] = read_y ? alpha * sum + beta * yp[r] : alpha * sum;
    }
  }
}

// Convenience form: chooses the schedule on every call (one pass over
// row_ptr). Loops that repeat the product should call choose_schedule once.
template <class V, class I>
void csr_spmv(V alpha, const Csr<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  csr_spmv(alpha, a, x, beta, y, choose_schedule(a));
}

#define HSPARSE_INSTANTIATE(V, I)                                                              \
  template Schedule choose_schedule(const Csr<V, I>&);                                        \
  template void csr_spmv(V, const Csr<V, I>&, std::span<const V>, V, std::span<V>);           \
  template void csr_spmv(V, const Csr<V, I>&, std::span<const V>, V, std::span<V>, Schedule);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
