#include "support/nonfinite.hpp"

#include <cmath>
#include <complex>
#include <limits>
#include <sstream>

#include "hsparse/generators/generators.hpp"

namespace hsparse::test {

namespace {

using Triplets = std::vector<std::tuple<std::int64_t, std::int64_t, double>>;

// A's entries with every `hole`-th removed and every `zero`-th stored as an
// explicit 0 (hole, zero > 1).
Csr<double, std::int64_t> with_holes_and_zeros(const Csr<double, std::int64_t>& a, std::int64_t hole, std::int64_t zero) {
  Triplets t;
  std::int64_t k = 0;
  for (std::int64_t r = 0; r < a.rows; ++r) {
    for (std::int64_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p, ++k) {
      if (k % hole == 1) continue;
      t.emplace_back(r, a.col_idx[p], k % zero == 2 ? 0.0 : a.values[p]);
    }
  }
  return from_triplets(a.rows, a.cols, t);
}

}  // namespace

std::vector<NamedMatrix> nonfinite_cases() {
  using namespace generators;
  std::vector<NamedMatrix> m;
  // The example: rows 0 and 1 never reference columns 2 and 3.
  m.push_back({"issue_3x4", from_triplets(3, 4, {{0, 0, 1.0}, {1, 1, 2.0}})});
  m.push_back({"explicit_zero_times_inf", from_triplets(3, 4, {{0, 0, 1.0}, {0, 3, 0.0}, {1, 1, 2.0}, {2, 2, 0.0}})});
  m.push_back({"banded_with_holes", with_holes_and_zeros(banded<double, std::int64_t>(300, 3, 7), 5, 11)});
  m.push_back({"stencil2d_with_holes", with_holes_and_zeros(stencil_2d<double, std::int64_t>(20, 15, 9), 4, 13)});
  m.push_back({"fem_block3_with_holes", with_holes_and_zeros(fem_blocks<double, std::int64_t>(4, 3, 3, 3, 5), 3, 7)});
  {
    Triplets t;  // every third row empty, the others two entries, one of them a stored zero
    for (std::int64_t r = 0; r < 90; ++r) {
      if (r % 3 == 0) continue;
      t.emplace_back(r, (r * 7) % 60 + 1, 1.0 + r);
      t.emplace_back(r, (r * 13) % 60 + 1, r % 2 ? 0.0 : -2.0);
    }
    m.push_back({"empty_rows_and_zeros", from_triplets(90, 61, t)});
  }
  m.push_back({"random_300x200", with_holes_and_zeros(random_uniform<double, std::int64_t>(300, 200, 4, 9), 9, 5)});
  return m;
}

template <class V>
std::vector<V> nonfinite_vector(std::size_t n) {
  using R = real_type_t<V>;
  auto x = test_vector<V>(n, 77);
  const R inf = std::numeric_limits<R>::infinity(), nan = std::numeric_limits<R>::quiet_NaN();
  if (n > 6) x[0] = V(nan);  // ELL and SELL pad an empty row at column 0
  for (std::size_t i = 2; i < n; i += 17) x[i] = V(nan);
  for (std::size_t i = 3; i < n; i += 23) x[i] = V(inf);
  for (std::size_t i = 5; i < n; i += 29) x[i] = V(-inf);
  return x;
}

namespace {
template <class R>
std::string real_mismatch(R ref, R got, double bound) {
  std::ostringstream s;
  if (std::isnan(ref)) {
    if (!std::isnan(got)) s << "expected NaN, got " << got;
  } else if (std::isinf(ref)) {
    if (got != ref) s << "expected " << ref << ", got " << got;
  } else if (!std::isfinite(got) || std::abs(static_cast<double>(got) - static_cast<double>(ref)) > bound) {
    s << "expected " << ref << ", got " << got;
  }
  return s.str();
}
template <class R>
R part(R v, int) { return v; }
template <class R>
R part(std::complex<R> v, int which) { return which == 0 ? v.real() : v.imag(); }
}  // namespace

template <class V>
std::string ieee_mismatch(const std::vector<V>& reference, const std::vector<V>& y, double tolerance) {
  using R = real_type_t<V>;
  if (reference.size() != y.size()) return "size " + std::to_string(y.size()) + ", expected " + std::to_string(reference.size());
  double scale = 0;
  for (const V& v : reference) {
    for (int p = 0; p < (is_complex_v<V> ? 2 : 1); ++p) {
      const R r = part(v, p);
      if (std::isfinite(r)) scale = std::max(scale, std::abs(static_cast<double>(r)));
    }
  }
  const double bound = tolerance * std::max(1.0, scale);
  for (std::size_t i = 0; i < y.size(); ++i) {
    for (int p = 0; p < (is_complex_v<V> ? 2 : 1); ++p) {
      const std::string m = real_mismatch(part(reference[i], p), part(y[i], p), bound);
      if (!m.empty()) return "y[" + std::to_string(i) + "]" + (is_complex_v<V> ? (p == 0 ? ".real" : ".imag") : "") + ": " + m;
    }
  }
  return "";
}

#define HSPARSE_INSTANTIATE(V)                              \
  template std::vector<V> nonfinite_vector<V>(std::size_t); \
  template std::string ieee_mismatch<V>(const std::vector<V>&, const std::vector<V>&, double);
HSPARSE_INSTANTIATE(float)
HSPARSE_INSTANTIATE(double)
HSPARSE_INSTANTIATE(std::complex<float>)
HSPARSE_INSTANTIATE(std::complex<double>)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::test
