// Merge-path CSR SpMV (Merrill and Garland 2016). Decomposition: the merge
// path has rows + nnz items (each row end and each nonzero is one step);
// thread t owns items [t*L, (t+1)*L) with L = ceil((rows + nnz) / threads).
// A binary search on the path's diagonal finds where a share starts.
#include <omp.h>

#include <algorithm>
#include <vector>

#include "../common/output.hpp"
#include "hsparse/kernels/csr_spmv.hpp"

namespace hsparse::openmp {

namespace {

struct PathPoint {
  std::int64_t row;      // rows consumed (x coordinate)
  std::int64_t nonzero;  // nonzeros consumed (y coordinate)
};

// The point where the merge path crosses diagonal `diag` (Merrill's MergePathSearch):
// the smallest row such that row_end[row] > diag - row - 1.
template <class I>
PathPoint merge_path_search(std::int64_t diag, const I* row_end, std::int64_t rows, std::int64_t nnz) {
  std::int64_t lo = std::max<std::int64_t>(diag - nnz, 0), hi = std::min<std::int64_t>(diag, rows);
  while (lo < hi) {
    const std::int64_t pivot = lo + (hi - lo) / 2;
    if (static_cast<std::int64_t>(row_end[pivot]) <= diag - pivot - 1) lo = pivot + 1;
    else hi = pivot;
  }
  return {lo, diag - lo};
}

}  // namespace

template <class V, class I>
void csr_merge_spmv(V alpha, const Csr<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  check_spmv_sizes(a, x.size(), y.size());
  const std::int64_t rows = a.rows, nnz = static_cast<std::int64_t>(a.nnz()), items = rows + nnz;
  const I* row_end = a.row_ptr.data() + 1;
  const I* cols = a.col_idx.data();
  const V* vals = a.values.data();
  const int threads = omp_get_max_threads();
  std::vector<std::int64_t> carry_row(static_cast<std::size_t>(threads), -1);
  std::vector<V> carry_sum(static_cast<std::size_t>(threads), V(0));
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), n = omp_get_num_threads();
    const std::int64_t share = (items + n - 1) / n;
    const std::int64_t d0 = std::min(items, share * t), d1 = std::min(items, d0 + share);
    const PathPoint start = merge_path_search(d0, row_end, rows, nnz);
    const PathPoint stop = merge_path_search(d1, row_end, rows, nnz);
    std::int64_t k = start.nonzero;
    for (std::int64_t r = start.row; r < stop.row; ++r) {
      V sum(0);
      for (; k < row_end[r]; ++k) sum += vals[k] * x[cols[k]];
      y[r] = detail::combine_output(alpha, sum, beta, y[r]);
    }
    // The unfinished part of row stop.row: carried out.
    V sum(0);
    for (; k < stop.nonzero; ++k) sum += vals[k] * x[cols[k]];
    carry_row[static_cast<std::size_t>(t)] = stop.row;
    carry_sum[static_cast<std::size_t>(t)] = sum;
  }
  // Each carried part belongs to a row finished (beta applied) by a later thread.
  for (int t = 0; t < threads; ++t) {
    const std::int64_t r = carry_row[static_cast<std::size_t>(t)];  // -1: thread not started
    if (r >= 0 && r < rows) y[r] += alpha * carry_sum[static_cast<std::size_t>(t)];
  }
}

#define HSPARSE_INSTANTIATE(V, I) \
  template void csr_merge_spmv(V, const Csr<V, I>&, std::span<const V>, V, std::span<V>);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
