// OpenMP COO SpMV: the entries (sorted by row) are cut into one equal range
// per thread. Rows entirely inside a range are written by that thread; the
// first and last row of each range may be shared, so their partial sums are
// kept per thread and added afterwards in thread order (deterministic, no
// atomics). Sortedness is checked on the fly at no extra memory traffic.
#include <omp.h>

#include <vector>

#include "../common/output.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/kernels/format_spmv.hpp"

namespace hsparse::openmp {

template <class V, class I>
void coo_spmv(V alpha, const Coo<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  check_spmv_dimensions(a.rows, a.cols, x.size(), y.size());
  const std::size_t nnz = a.nnz();
  const I* rows = a.row_idx.data();
  const I* cols = a.col_idx.data();
  const V* vals = a.values.data();
  const int threads = omp_get_max_threads();
  struct Carry {
    I first_row = -1, last_row = -1;
    V first_sum{0}, last_sum{0};
  };
  std::vector<Carry> carry(static_cast<std::size_t>(threads));
  bool unsorted = false;
#pragma omp parallel num_threads(threads) reduction(|| : unsorted)
  {
    // y = beta*y (or 0) first: rows without entries are finished by this.
    // beta == 1 (HYB adding its COO tail) leaves y as it is: no pass.
    if (beta != V(1)) {
#pragma omp for schedule(static)
      for (std::size_t r = 0; r < y.size(); ++r) y[r] = beta == V(0) ? V(0) : beta * y[r];
    }
    const int t = omp_get_thread_num(), n = omp_get_num_threads();
    const std::size_t begin = nnz * static_cast<std::size_t>(t) / static_cast<std::size_t>(n);
    const std::size_t end = nnz * (static_cast<std::size_t>(t) + 1) / static_cast<std::size_t>(n);
    Carry& c = carry[static_cast<std::size_t>(t)];
    if (begin < end) {
      std::size_t k = begin;
      // The range's first row: partial (maybe shared with the previous thread).
      c.first_row = rows[k];
      for (; k < end && rows[k] == c.first_row; ++k) c.first_sum += vals[k] * x[cols[k]];
      I row = c.first_row;
      V sum(0);
      bool open = false;
      for (; k < end; ++k) {
        if (rows[k] != row) {
          unsorted = unsorted || rows[k] < row;
          if (open) y[row] += alpha * sum;
          row = rows[k];
          sum = V(0);
          open = true;
        }
        sum += vals[k] * x[cols[k]];
      }
      // The range's last row (if not its first): partial as well.
      if (open) {
        c.last_row = row;
        c.last_sum = sum;
      }
    }
#pragma omp barrier
  }
  if (unsorted) throw Error(ErrorCode::invalid_argument, "openmp::coo_spmv needs entries sorted by row (canonicalize the COO)");
  for (int t = 0; t < threads; ++t) {
    const Carry& c = carry[static_cast<std::size_t>(t)];
    if (t > 0 && c.first_row >= 0) {
      // A thread's first row must not precede the previous thread's rows.
      for (int s = t - 1; s >= 0; --s) {
        const I prev = carry[static_cast<std::size_t>(s)].last_row >= 0 ? carry[static_cast<std::size_t>(s)].last_row : carry[static_cast<std::size_t>(s)].first_row;
        if (prev < 0) continue;
        if (c.first_row < prev) throw Error(ErrorCode::invalid_argument, "openmp::coo_spmv needs entries sorted by row (canonicalize the COO)");
        break;
      }
    }
    if (c.first_row >= 0) y[static_cast<std::size_t>(c.first_row)] += alpha * c.first_sum;
    if (c.last_row >= 0) y[static_cast<std::size_t>(c.last_row)] += alpha * c.last_sum;
  }
}

#define HSPARSE_INSTANTIATE(V, I) \
  template void coo_spmv(V, const Coo<V, I>&, std::span<const V>, V, std::span<V>);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
