#pragma once
// Checks a computed y = alpha*A*x + beta*y0 against a serial reference
// evaluated in double precision (complex<double> for complex types).
//
// The bound is the standard forward error bound of a dot product of length
// n_i (Higham, Accuracy and Stability, eq. 3.5), per row:
//   |y_i - ref_i| <= (n_i + 2) * u * (|alpha| (|A||x|)_i + |beta| |y0_i|) * safety
// with u the unit roundoff of the tested value type and safety = 2. It holds
// for any summation order, so it accepts every correct kernel and rejects
// wrong indexing, missed entries and unwritten (NaN-poisoned) outputs.
// A format that stores its values rounded (relative rounding r per value,
// FormatTraits::value_rounding: 2^-24 for single-precision storage) adds
// r |alpha| (|A||x|)_i * safety to the bound: the products' own error, the
// rest of the check unchanged.
#include <complex>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "hsparse/core/types.hpp"
#include "hsparse/formats/csr.hpp"

namespace hsparse {

struct SpmvCheck {
  bool passed = false;
  double relative_error = 0;  // ||y - ref||_2 / ||ref||_2 (0 when ref is 0 and y is exact)
  double worst_bound_ratio = 0;  // max_i |y_i - ref_i| / bound_i (passes when <= 1)
  long long worst_row = -1;
  std::string message;  // empty when passed; otherwise names the worst row
};

// The reference and its per-row bounds, computed once, for checking many
// results of the same product (hsparse bench checks every kernel against one).
template <class V, class I>
class SpmvReference {
 public:
  SpmvReference(const Csr<V, I>& a, std::span<const V> x, V alpha, V beta, std::span<const V> y0);
  SpmvCheck check(std::span<const V> y, double value_rounding = 0) const;

 private:
  using W = std::conditional_t<is_complex_v<V>, std::complex<double>, double>;
  std::vector<W> ref_;
  std::vector<double> bound_, product_scale_;  // product_scale_: |alpha| (|A||x|)_i
};

template <class V, class I>
SpmvCheck check_spmv_result(const Csr<V, I>& a, std::span<const V> x, V alpha, V beta, std::span<const V> y0,
                            std::span<const V> y, double value_rounding = 0);

}  // namespace hsparse
