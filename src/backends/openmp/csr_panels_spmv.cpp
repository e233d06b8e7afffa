// CSR in column panels on the CPU (kernels/csr_panels.hpp: cache blocking
// of x, Nishtala et al. 2007, section 2). Threads take tiles of rows
// (dynamic: tiles differ in entries); a thread walks its tile's panels in
// order, so one panel of x (64 KB) stays in its core's cache while the
// tile's entries in that panel stream past, and adds each row's segment
// into the row's local sum; the sums are written once, after the last panel.
#include <algorithm>
#include <vector>

#include "../common/output.hpp"
#include "hsparse/kernels/csr_panels.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/core/types.hpp"

namespace hsparse::openmp {

template <class V, class I>
void csr_panels_spmv(V alpha, const CsrPanels<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  check_spmv_dimensions(a.rows, a.cols, x.size(), y.size());
  const long long rows = a.rows, chunks = (rows + a.tile_rows - 1) / a.tile_rows;
#pragma omp parallel
  {
    std::vector<V> sums(static_cast<std::size_t>(std::min(a.tile_rows, std::max(rows, 1LL))));
#pragma omp for schedule(dynamic, 1)
    for (long long c = 0; c < chunks; ++c) {
      const long long first = c * a.tile_rows, n = std::min(a.tile_rows, rows - first);
      std::fill(sums.begin(), sums.begin() + n, V(0));
      for (long long q = 0; q < a.panels; ++q) {
        const V* __restrict xp = x.data() + q * a.panel_cols;
        const long long s0 = first * a.panels + q * n;  // the tile's segments in panel q, a row each (CsrPanels::segment)
        for (long long r = 0; r < n; ++r) {
          V sum(0);
          for (I k = a.segment_ptr[s0 + r]; k < a.segment_ptr[s0 + r + 1]; ++k) sum += a.values[k] * xp[a.column[k]];
          sums[r] += sum;
        }
      }
      for (long long r = 0; r < n; ++r) y[first + r] = detail::combine_output(alpha, sums[r], beta, y[first + r]);
    }
  }
}

#define HSPARSE_INSTANTIATE(V, I) template void csr_panels_spmv(V, const CsrPanels<V, I>&, std::span<const V>, V, std::span<V>);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
