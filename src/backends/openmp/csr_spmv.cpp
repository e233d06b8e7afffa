// OpenMP CSR SpMV: one row per loop iteration, rows split among threads by
// the schedule of eq. (15) (see csr_spmv.hpp). Each thread writes only its
// own rows of y, so there are no atomics and results are deterministic.
#include "hsparse/kernels/csr_spmv.hpp"

#include <unistd.h>

#include <algorithm>
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

template <class V, class I>
bool sort_rows_by_length(const Csr<V, I>& a) {
  long long changes = 0;
#pragma omp parallel for schedule(static) reduction(+ : changes)
  for (I r = 1; r < a.rows; ++r) changes += (a.row_ptr[r + 1] - a.row_ptr[r]) != (a.row_ptr[r] - a.row_ptr[r - 1]) ? 1 : 0;
  return a.rows > 1 && static_cast<double>(changes) > kSortedRowsChangeShare * static_cast<double>(a.rows - 1);
}

template <class V, class I>
CsrSortedRows<V, I> csr_sorted_rows(const Csr<V, I>& a) {
  a.validate();
  CsrSortedRows<V, I> s;
  s.row_of.resize(static_cast<std::size_t>(a.rows));
  const auto length = [&a](I r) { return a.row_ptr[r + 1] - a.row_ptr[r]; };
  const long long windows = (static_cast<long long>(a.rows) + kSortedRowWindow - 1) / kSortedRowWindow;
#pragma omp parallel for schedule(static)
  for (long long w = 0; w < windows; ++w) {
    const I first = static_cast<I>(w * kSortedRowWindow), last = static_cast<I>(std::min<long long>(a.rows, (w + 1) * kSortedRowWindow));
    I* order = s.row_of.data() + first;
    for (I r = first; r < last; ++r) order[r - first] = r;
    // Stable: rows of one length keep their order (their x stays in order).
    std::stable_sort(order, order + (last - first), [&length](I p, I q) { return length(p) > length(q); });
  }
  Csr<V, I>& m = s.rows;
  m.rows = a.rows;
  m.cols = a.cols;
  m.row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  for (I i = 0; i < a.rows; ++i) m.row_ptr[i + 1] = m.row_ptr[i] + length(s.row_of[i]);
  m.col_idx.resize(a.col_idx.size());
  m.values.resize(a.values.size());
#pragma omp parallel for schedule(static)
  for (I i = 0; i < a.rows; ++i) {
    const I r = s.row_of[i];
    std::copy(a.col_idx.begin() + a.row_ptr[r], a.col_idx.begin() + a.row_ptr[r + 1], m.col_idx.begin() + m.row_ptr[i]);
    std::copy(a.values.begin() + a.row_ptr[r], a.values.begin() + a.row_ptr[r + 1], m.values.begin() + m.row_ptr[i]);
  }
  return s;
}

template <class V, class I>
void csr_sorted_spmv(V alpha, const CsrSortedRows<V, I>& s, std::span<const V> x, V beta, std::span<V> y) {
  const Csr<V, I>& a = s.rows;
  check_spmv_sizes(a, x.size(), y.size());
  const V* __restrict xp = x.data();
  V* __restrict yp = y.data();
  const I* row_of = s.row_of.data();
  const bool read_y = beta != V(0);
  // Guided: the rows' lengths vary (measured on the power law, 2.2-2.5 ms).
#pragma omp parallel for schedule(guided, 1)
  for (I i = 0; i < a.rows; ++i) {
    const V sum = row_dot(a, xp, i);
    V& out = yp[row_of[i]];
    out = read_y ? alpha * sum + beta * out : alpha * sum;
  }
}

#define HSPARSE_INSTANTIATE(V, I)                                                              \
  template bool sort_rows_by_length(const Csr<V, I>&);                                        \
  template CsrSortedRows<V, I> csr_sorted_rows(const Csr<V, I>&);                             \
  template void csr_sorted_spmv(V, const CsrSortedRows<V, I>&, std::span<const V>, V, std::span<V>); \
  template Schedule choose_schedule(const Csr<V, I>&);                                        \
  template void csr_spmv(V, const Csr<V, I>&, std::span<const V>, V, std::span<V>);           \
  template void csr_spmv(V, const Csr<V, I>&, std::span<const V>, V, std::span<V>, Schedule);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
