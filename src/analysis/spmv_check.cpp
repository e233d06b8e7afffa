#include "hsparse/analysis/spmv_check.hpp"

#include <cmath>
#include <limits>

#include "hsparse/core/error.hpp"
#include "hsparse/kernels/csr_spmv.hpp"

namespace hsparse {

template <class V, class I>
SpmvReference<V, I>::SpmvReference(const Csr<V, I>& a, std::span<const V> x, V alpha, V beta, std::span<const V> y0) {
  check_spmv_sizes(a, x.size(), static_cast<std::size_t>(a.rows));
  if (beta != V(0) && y0.size() != static_cast<std::size_t>(a.rows)) throw Error(ErrorCode::invalid_argument, "check_spmv_result: y0 size");
  const double u = std::numeric_limits<real_type_t<V>>::epsilon() / 2;
  const W wa = static_cast<W>(alpha), wb = static_cast<W>(beta);
  ref_.resize(static_cast<std::size_t>(a.rows));
  bound_.resize(static_cast<std::size_t>(a.rows));
  product_scale_.resize(static_cast<std::size_t>(a.rows));
  for (I r = 0; r < a.rows; ++r) {
    W sum = 0;
    double magnitude = 0;
    for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const W product = static_cast<W>(a.values[k]) * static_cast<W>(x[a.col_idx[k]]);
      sum += product;
      magnitude += std::abs(product);
    }
    W ref = wa * sum;
    double scale = std::abs(wa) * magnitude;
    product_scale_[static_cast<std::size_t>(r)] = scale;
    if (beta != V(0)) {
      ref += wb * static_cast<W>(y0[r]);
      scale += std::abs(wb) * std::abs(static_cast<W>(y0[r]));
    }
    const double n = static_cast<double>(a.row_ptr[r + 1] - a.row_ptr[r]) + 2;
    // Values of the tested type below its smallest normal lose relative accuracy: allow that floor.
    ref_[static_cast<std::size_t>(r)] = ref;
    bound_[static_cast<std::size_t>(r)] = 2 * n * u * scale + 4 * static_cast<double>(std::numeric_limits<real_type_t<V>>::min());
  }
}

template <class V, class I>
SpmvCheck SpmvReference<V, I>::check(std::span<const V> y, double value_rounding) const {
  if (y.size() != ref_.size()) throw Error(ErrorCode::invalid_argument, "check_spmv_result: y has " + std::to_string(y.size()) +
                                                                         " entries, the product " + std::to_string(ref_.size()));
  SpmvCheck c;
  double err2 = 0, ref2 = 0;
  for (std::size_t r = 0; r < ref_.size(); ++r) {
    const double err = std::abs(static_cast<W>(y[r]) - ref_[r]);
    const double bound = bound_[r] + 2 * value_rounding * product_scale_[r];
    const double ratio = std::isnan(err) ? std::numeric_limits<double>::infinity() : err / bound;
    if (c.worst_row < 0 || ratio > c.worst_bound_ratio) {
      c.worst_bound_ratio = ratio;
      c.worst_row = static_cast<long long>(r);
    }
    err2 += err * err;
    ref2 += std::norm(ref_[r]);
  }
  c.relative_error = ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
  c.passed = c.worst_bound_ratio <= 1;
  if (!c.passed) {
    c.message = "row " + std::to_string(c.worst_row) + " exceeds the error bound by a factor " +
                std::to_string(c.worst_bound_ratio) + " (relative error " + std::to_string(c.relative_error) + ")";
  }
  return c;
}

template <class V, class I>
SpmvCheck check_spmv_result(const Csr<V, I>& a, std::span<const V> x, V alpha, V beta, std::span<const V> y0,
                            std::span<const V> y, double value_rounding) {
  check_spmv_sizes(a, x.size(), y.size());
  return SpmvReference<V, I>(a, x, alpha, beta, y0).check(y, value_rounding);
}

#define HSPARSE_INSTANTIATE(V, I)                                                                              \
  template class SpmvReference<V, I>;                                                                   \
  template SpmvCheck check_spmv_result(const Csr<V, I>&, std::span<const V>, V, V, std::span<const V>, \
                                       std::span<const V>, double);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
