// OpenMP kernels of the padded and diagonal formats. Decomposition: a
// thread owns blocks of kBlockRows consecutive rows and keeps their sums in
// a local array, so the inner loop runs over consecutive rows (SIMD lanes =
// rows, as in the ELL/DIA layouts) and y is written once. A row whose sum
// is not finite is summed again without its padded slots (formats/padding.hpp).
#include <algorithm>

#include "../common/output.hpp"
#include "hsparse/formats/padding.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/kernels/format_spmv.hpp"

namespace hsparse::openmp {

namespace {
constexpr std::int64_t kBlockRows = 256;
}

template <class V, class I>
void ell_spmv(V alpha, const Ell<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  check_spmv_dimensions(a.rows, a.cols, x.size(), y.size());
  const auto pr = static_cast<std::size_t>(a.padded_rows);
  const V* __restrict vals = a.values.data();
  const I* __restrict cols = a.col_idx.data();
  const V* __restrict xp = x.data();
  const std::int64_t blocks = (static_cast<std::int64_t>(a.rows) + kBlockRows - 1) / kBlockRows;
#pragma omp parallel for schedule(static)
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::int64_t r0 = b * kBlockRows, n = std::min<std::int64_t>(kBlockRows, a.rows - r0);
    V sum[kBlockRows] = {};
    for (I k = 0; k < a.width; ++k) {
      const std::size_t base = static_cast<std::size_t>(k) * pr + static_cast<std::size_t>(r0);
#pragma omp simd
      for (std::int64_t i = 0; i < n; ++i) sum[i] += vals[base + i] * xp[cols[base + i]];
    }
    for (std::int64_t i = 0; i < n; ++i) {
      if (!is_finite_value(sum[i])) {  // padding may have met NaN or infinity: the row without it (formats/padding.hpp)
        sum[i] = V(0);
        for (I k = 0; k < a.row_len[r0 + i]; ++k) {
          const std::size_t slot = static_cast<std::size_t>(k) * pr + static_cast<std::size_t>(r0 + i);
          sum[i] += vals[slot] * xp[cols[slot]];
        }
      }
      y[r0 + i] = detail::combine_output(alpha, sum[i], beta, y[r0 + i]);
    }
  }
}

template <class V, class I>
void hyb_spmv(V alpha, const Hyb<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  check_spmv_dimensions(a.rows(), a.cols(), x.size(), y.size());
  ell_spmv(alpha, a.ell, x, beta, y);
  coo_spmv(alpha, a.coo, x, V(1), y);  // adds the long rows' tails
}

template <class V, class I>
void dia_spmv(V alpha, const Dia<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  check_spmv_dimensions(a.rows, a.cols, x.size(), y.size());
  const std::int64_t rows = a.rows, cols = a.cols;
  const std::int64_t blocks = (rows + kBlockRows - 1) / kBlockRows;
  const V* __restrict vals = a.values.data();
  const V* __restrict xp = x.data();
#pragma omp parallel for schedule(static)
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::int64_t r0 = b * kBlockRows, r1 = std::min(rows, r0 + kBlockRows);
    V sum[kBlockRows] = {};
    for (std::size_t d = 0; d < a.offsets.size(); ++d) {
      const std::int64_t o = a.offsets[d];
      // Rows of this block whose column r + o lies inside the matrix.
      const std::int64_t lo = std::max(r0, -o), hi = std::min(r1, cols - o);
      const V* __restrict diag = vals + d * static_cast<std::size_t>(rows);
#pragma omp simd
      for (std::int64_t r = lo; r < hi; ++r) sum[r - r0] += diag[r] * xp[r + o];
    }
    for (std::int64_t r = r0; r < r1; ++r) {
      if (!is_finite_value(sum[r - r0])) {  // the row without its padded slots (formats/padding.hpp)
        sum[r - r0] = V(0);
        for (std::size_t d = 0; d < a.offsets.size(); ++d) {
          const std::int64_t c = r + a.offsets[d];
          if (c >= 0 && c < cols) sum[r - r0] += entry_product(vals[d * static_cast<std::size_t>(rows) + static_cast<std::size_t>(r)], xp[c]);
        }
      }
      y[r] = detail::combine_output(alpha, sum[r - r0], beta, y[r]);
    }
  }
}

#define HSPARSE_INSTANTIATE(V, I)                                                   \
  template void ell_spmv(V, const Ell<V, I>&, std::span<const V>, V, std::span<V>); \
  template void hyb_spmv(V, const Hyb<V, I>&, std::span<const V>, V, std::span<V>); \
  template void dia_spmv(V, const Dia<V, I>&, std::span<const V>, V, std::span<V>);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
