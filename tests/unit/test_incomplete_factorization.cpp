// ILU(0), IC(0) and sparse triangular solves (kernels/incomplete_factorization.hpp,
// backends/cuda/triangular_solve.hpp). The serial reference is held to
// dense checks: (L U)(i, j) = A(i, j) and (L L^H)(i, j) = A(i, j) on the
// pattern, T x = b by its residual. Every other backend is held to the
// reference: IncompleteFactorization.*/cpu (OpenMP, bit for bit) and
// .../cuda; TriangularSolve.*/cpu (OpenMP, bit for bit),
// .../cuda_level_scheduled and .../cuda_sync_free (within rounding). The
// cuda instances skip with "skipped: no CUDA device" where there is none.
// Outputs are NaN-poisoned first, so an entry a kernel leaves unwritten fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <iostream>
#include <limits>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/backends/cuda/triangular_solve.hpp"
#include "hsparse/core/backend.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/generators/hash.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/kernels/incomplete_factorization.hpp"
#include "support/test_support.hpp"

namespace hsparse {
namespace {

template <class V>
double tolerance() {
  return std::is_same_v<real_type_t<V>, float> ? 1e-4 : 1e-12;
}

template <class V>
bool finite(V v) {
  return std::isfinite(std::abs(v));
}

template <class V>
std::vector<V> poisoned(std::size_t n) {
  return std::vector<V>(n, V(std::numeric_limits<real_type_t<V>>::quiet_NaN()));
}

// max |x - y| / max |y|; infinite where x has a non-finite entry.
template <class V>
double relative_difference(const std::vector<V>& x, const std::vector<V>& y) {
  if (x.size() != y.size()) return std::numeric_limits<double>::infinity();
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!finite(x[i])) return std::numeric_limits<double>::infinity();
    diff = std::max(diff, static_cast<double>(std::abs(x[i] - y[i])));
    scale = std::max(scale, static_cast<double>(std::abs(y[i])));
  }
  return scale > 0 ? diff / scale : diff;
}

// A hashed off-diagonal value; hermitian: a function of the unordered pair,
// conjugated below the diagonal.
template <class V>
V off_diagonal(std::int64_t i, std::int64_t j, bool hermitian) {
  const auto a = static_cast<std::uint64_t>(hermitian ? std::min(i, j) : i), b = static_cast<std::uint64_t>(hermitian ? std::max(i, j) : j);
  const double re = -0.2 - 0.8 * generators::hash_uniform(7, a, b);
  if constexpr (is_complex_v<V>) {
    const double im = (0.6 * generators::hash_uniform(8, a, b) - 0.3) * (hermitian && i > j ? -1 : 1);
    return V(static_cast<real_type_t<V>>(re), static_cast<real_type_t<V>>(im));
  } else {
    return V(re);
  }
}

// pattern's off-diagonal entries with off_diagonal() values and a diagonal
// of 1 + sum_j |a_ij|: strictly dominant, so ILU(0) exists; hermitian: HPD,
// so IC(0) exists too.
template <class V, class I>
Csr<V, I> dominant(const Csr<double, std::int64_t>& pattern, bool hermitian) {
  Coo<V, I> coo;
  coo.rows = coo.cols = static_cast<I>(pattern.rows);
  auto add = [&](std::int64_t i, std::int64_t j, V v) {
    coo.row_idx.push_back(static_cast<I>(i));
    coo.col_idx.push_back(static_cast<I>(j));
    coo.values.push_back(v);
  };
  for (std::int64_t i = 0; i < pattern.rows; ++i) {
    double sum = 1;
    for (auto p = pattern.row_ptr[i]; p < pattern.row_ptr[i + 1]; ++p) {
      if (pattern.col_idx[p] == i) continue;
      const V v = off_diagonal<V>(i, pattern.col_idx[p], hermitian);
      add(i, pattern.col_idx[p], v);
      sum += std::abs(v);
    }
    add(i, i, V(static_cast<real_type_t<V>>(sum)));
  }
  return coo_to_csr(coo);
}

template <class V, class I>
Csr<V, I> stencil(std::int64_t nx, std::int64_t ny) {
  return dominant<V, I>(generators::stencil_2d<double, std::int64_t>(nx, ny, 5), true);
}
template <class V, class I>
Csr<V, I> nonsymmetric(std::int64_t n, std::int64_t per_row, std::uint64_t seed) {
  return dominant<V, I>(generators::random_uniform<double, std::int64_t>(n, n, per_row, seed), false);
}

// The entries of a in `which` triangle, with or without the diagonal.
template <class V, class I>
Csr<V, I> triangle(const Csr<V, I>& a, Triangle which, bool diagonal) {
  Csr<V, I> t;
  t.rows = t.cols = a.rows;
  for (I i = 0; i < a.rows; ++i) {
    for (I p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      const I j = a.col_idx[p];
      if (j == i ? diagonal : (which == Triangle::lower) == (j < i)) {
        t.col_idx.push_back(j);
        t.values.push_back(a.values[p]);
      }
    }
    t.row_ptr.push_back(static_cast<I>(t.values.size()));
  }
  return t;
}

// max_j |A(i, j)|: the scale of row i's defects.
template <class V, class I>
double row_scale(const Csr<V, I>& a, std::size_t i) {
  double scale = 0;
  for (I p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) scale = std::max(scale, static_cast<double>(std::abs(a.values[p])));
  return scale;
}

// The dense check of a factor: max over the factor's pattern (A's for
// ILU(0), its lower triangle's for IC(0)) of |(L U)(i, j) - A(i, j)| or
// |(L L^H)(i, j) - A(i, j)|, over max_j |A(i, j)|; IC(0)'s diagonal real and positive.
template <class V, class I>
double factor_defect(detail::Factorization f, const Csr<V, I>& a, const Csr<V, I>& factor) {
  const bool ilu = f == detail::Factorization::ilu0;
  const auto pattern = ilu ? a : triangle(a, Triangle::lower, true);
  EXPECT_EQ(factor.row_ptr, pattern.row_ptr);
  EXPECT_EQ(factor.col_idx, pattern.col_idx);
  const auto n = static_cast<std::size_t>(a.rows);
  const auto d = test::to_dense(factor);
  const auto entry = [&](std::size_t i, std::size_t j) {  // of L U or L L^H
    V s(0);
    for (std::size_t k = 0; k <= std::min(i, j); ++k) s += ilu ? (k == i ? V(1) : d[i * n + k]) * d[k * n + j] : d[i * n + k] * conj_value(d[j * n + k]);
    return s;
  };
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!ilu) EXPECT_TRUE(std::real(d[i * n + i]) > 0 && std::imag(d[i * n + i]) == 0) << "row " << i << ": " << d[i * n + i];
    const double scale = row_scale(a, i);
    for (I p = pattern.row_ptr[i]; p < pattern.row_ptr[i + 1]; ++p) {
      const auto j = static_cast<std::size_t>(pattern.col_idx[p]);
      worst = std::max(worst, static_cast<double>(std::abs(entry(i, j) - pattern.values[p])) / scale);
    }
  }
  return worst;
}
template <class V, class I>
double ilu_defect(const Csr<V, I>& a, const Csr<V, I>& lu) {
  return factor_defect(detail::Factorization::ilu0, a, lu);
}
template <class V, class I>
double ic_defect(const Csr<V, I>& a, const Csr<V, I>& l) {
  return factor_defect(detail::Factorization::ic0, a, l);
}

// The componentwise backward error of a factor, computed sparsely (for the
// shared matrices, too large for the dense check): max over its pattern of
// |(L U - A)(i, j)| / (|L| |U|)(i, j), or with L L^H for IC(0).
template <class V, class I>
double sparse_defect(detail::Factorization f, const Csr<V, I>& a, const Csr<V, I>& m) {
  const bool ilu = f == detail::Factorization::ilu0;
  const auto pattern = ilu ? a : triangle(a, Triangle::lower, true);
  const auto n = static_cast<std::size_t>(a.rows);
  std::vector<V> sum(n), row(n);
  std::vector<double> size(n);
  std::vector<std::size_t> touched;
  const auto add = [&](std::size_t j, V x, V y) {
    sum[j] += x * y;
    size[j] += static_cast<double>(std::abs(x) * std::abs(y));
    touched.push_back(j);
  };
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (I p = m.row_ptr[i]; p < m.row_ptr[i + 1]; ++p) {
      const auto k = static_cast<std::size_t>(m.col_idx[p]);
      if (!ilu) {
        row[k] = m.values[p];
      } else if (k >= i) {
        add(k, V(1), m.values[p]);  // L(i, i) = 1
      } else {
        for (I q = m.row_ptr[k]; q < m.row_ptr[k + 1]; ++q) {
          if (static_cast<std::size_t>(m.col_idx[q]) >= k) add(static_cast<std::size_t>(m.col_idx[q]), m.values[p], m.values[q]);
        }
      }
    }
    for (I p = m.row_ptr[i]; p < m.row_ptr[i + 1] && !ilu; ++p) {
      const auto j = static_cast<std::size_t>(m.col_idx[p]);
      for (I q = m.row_ptr[j]; q < m.row_ptr[j + 1]; ++q) add(j, row[static_cast<std::size_t>(m.col_idx[q])], conj_value(m.values[q]));
    }
    for (I p = pattern.row_ptr[i]; p < pattern.row_ptr[i + 1]; ++p) {
      const auto j = static_cast<std::size_t>(pattern.col_idx[p]);
      worst = std::max(worst, static_cast<double>(std::abs(sum[j] - pattern.values[p])) / std::max(size[j], std::numeric_limits<double>::min()));
    }
    for (const std::size_t j : touched) sum[j] = V(0), size[j] = 0;
    for (I p = m.row_ptr[i]; p < m.row_ptr[i + 1]; ++p) row[static_cast<std::size_t>(m.col_idx[p])] = V(0);
    touched.clear();
  }
  return worst;
}

// ||b - T x||_inf / (||T||_inf ||x||_inf + ||b||_inf), the unit diagonal implied when asked.
template <class V, class I>
double solve_defect(const Csr<V, I>& t, bool unit_diagonal, const std::vector<V>& b, const std::vector<V>& x) {
  double r = 0, tnorm = unit_diagonal ? 1 : 0, xnorm = 0, bnorm = 0;
  for (I i = 0; i < t.rows; ++i) {
    V s = unit_diagonal ? x[i] : V(0);
    double row = unit_diagonal ? 1 : 0;
    for (I p = t.row_ptr[i]; p < t.row_ptr[i + 1]; ++p) {
      s += t.values[p] * x[t.col_idx[p]];
      row += std::abs(t.values[p]);
    }
    if (!finite(x[i])) return std::numeric_limits<double>::infinity();
    r = std::max(r, static_cast<double>(std::abs(b[i] - s)));
    tnorm = std::max(tnorm, row);
    xnorm = std::max(xnorm, static_cast<double>(std::abs(x[i])));
    bnorm = std::max(bnorm, static_cast<double>(std::abs(b[i])));
  }
  return r > 0 ? r / (tnorm * xnorm + bnorm) : 0;
}

struct TriangleCase {
  std::string name;
  Csr<double, std::int32_t> t;
  Triangle which;
  bool unit;
};

// Every triangle of each source (lower unit and non-unit, upper unit and
// non-unit), and the two factors of its ILU(0).
std::vector<TriangleCase> triangle_cases() {
  using M = Csr<double, std::int32_t>;
  std::vector<std::pair<std::string, M>> sources;
  sources.emplace_back("stencil2d_30x30", stencil<double, std::int32_t>(30, 30));
  sources.emplace_back("stencil3d_12_7pt", generators::stencil_3d<double, std::int32_t>(12, 12, 12, 7));
  sources.emplace_back("nonsymmetric_2000", nonsymmetric<double, std::int32_t>(2000, 6, 3));
  {
    // Bidiagonal: a chain of n levels; |sub-diagonal / diagonal| < 1 keeps x bounded.
    Coo<double, std::int32_t> c;
    c.rows = c.cols = 3000;
    for (std::int32_t i = 0; i < 3000; ++i) {
      c.row_idx.push_back(i), c.col_idx.push_back(i), c.values.push_back(2 + std::sin(i));
      if (i > 0) c.row_idx.push_back(i), c.col_idx.push_back(i - 1), c.values.push_back(std::cos(i));
      if (i + 1 < 3000) c.row_idx.push_back(i), c.col_idx.push_back(i + 1), c.values.push_back(-0.9 * std::cos(i));
    }
    sources.emplace_back("bidiagonal_3000", coo_to_csr(c));
  }
  // The diagonal alone: one level.
  sources.emplace_back("diagonal_1000", triangle(triangle(nonsymmetric<double, std::int32_t>(1000, 3, 5), Triangle::lower, true), Triangle::upper, true));
  sources.emplace_back("one_by_one", dominant<double, std::int32_t>(test::from_triplets(1, 1, {{0, 0, 1.0}}), false));
  sources.emplace_back("empty_0x0", M{});
  {
    // The last row couples to every other row (the first row, for the upper triangle).
    std::vector<std::tuple<std::int64_t, std::int64_t, double>> e;
    for (std::int64_t j = 0; j < 2000; ++j) e.emplace_back(1999, j, 1.0), e.emplace_back(0, j, 1.0), e.emplace_back(j, (j * 7) % 2000, 1.0);
    sources.emplace_back("long_row_2000", dominant<double, std::int32_t>(test::from_triplets(2000, 2000, e), false));
  }
  std::vector<TriangleCase> cases;
  for (const auto& [name, a] : sources) {
    for (Triangle which : {Triangle::lower, Triangle::upper}) {
      const char* side = which == Triangle::lower ? "lower" : "upper";
      cases.push_back({name + " " + side + " unit", triangle(a, which, false), which, true});
      cases.push_back({name + " " + side, triangle(a, which, true), which, false});
    }
    auto [l, u] = split_lu(reference::ilu0(a));
    cases.push_back({name + " ILU(0) L", std::move(l), Triangle::lower, true});
    cases.push_back({name + " ILU(0) U", std::move(u), Triangle::upper, false});
  }
  return cases;
}

// ---- The reference against dense checks --------------------------------

template <class V, class I>
void check_reference_factorizations() {
  const double tol = tolerance<V>();
  for (const auto& a : {stencil<V, I>(12, 11), generators::stencil_3d<V, I>(6, 5, 4, 7), generators::stencil_2d<V, I>(9, 9, 9)}) {
    EXPECT_LE(ilu_defect(a, reference::ilu0(a)), tol) << a.rows;
    EXPECT_LE(ic_defect(a, reference::ic0(a)), tol) << a.rows;
  }
  const auto a = nonsymmetric<V, I>(300, 7, 2);
  EXPECT_LE(ilu_defect(a, reference::ilu0(a)), tol);
  // The sparse check (for matrices too large for the dense one) agrees, and sees a wrong entry.
  for (auto f : {detail::Factorization::ilu0, detail::Factorization::ic0}) {
    const auto h = stencil<V, I>(12, 11);
    auto m = f == detail::Factorization::ilu0 ? reference::ilu0(h) : reference::ic0(h);
    EXPECT_LE(sparse_defect(f, h, m), tol);
    m.values[m.values.size() / 2] *= real_type_t<V>(1.01);
    EXPECT_GT(sparse_defect(f, h, m), 1e-4);
  }
}

TEST(IncompleteFactorizationReference, ReproducesAOnItsPatternDouble) { check_reference_factorizations<double, std::int32_t>(); }
TEST(IncompleteFactorizationReference, ReproducesAOnItsPatternFloat) { check_reference_factorizations<float, std::int64_t>(); }

// Hermitian positive definite and nonsymmetric complex matrices, on the reference and on OpenMP.
TEST(IncompleteFactorizationReference, ComplexFactorsReproduceAOnReferenceAndOpenmp) {
  using C = std::complex<double>;
  const auto hpd = stencil<C, std::int32_t>(14, 13);
  const auto general = nonsymmetric<C, std::int32_t>(400, 6, 9);
  for (const auto& l : {reference::ic0(hpd), openmp::ic0(hpd)}) EXPECT_LE(ic_defect(hpd, l), 1e-12);
  for (const auto& a : {hpd, general}) {
    for (const auto& lu : {reference::ilu0(a), openmp::ilu0(a)}) EXPECT_LE(ilu_defect(a, lu), 1e-12);
  }
}

TEST(IncompleteFactorizationReference, IgnoresTheUpperTriangleInIc0) {
  const auto a = stencil<double, std::int32_t>(10, 10);
  EXPECT_EQ(reference::ic0(a).values, reference::ic0(triangle(a, Triangle::lower, true)).values);
}

TEST(TriangularSolveReference, SolvesEveryCaseToItsResidual) {
  for (const auto& c : triangle_cases()) {
    const auto b = test::test_vector<double>(static_cast<std::size_t>(c.t.rows), 4);
    auto x = poisoned<double>(b.size());
    reference::triangular_solve<double, std::int32_t>(c.t, c.which, c.unit, b, x);
    EXPECT_LE(solve_defect(c.t, c.unit, b, x), 1e-13) << c.name;
    auto in_place = b;  // x may be b
    reference::triangular_solve<double, std::int32_t>(c.t, c.which, c.unit, in_place, in_place);
    EXPECT_EQ(in_place, x) << c.name;
  }
}

TEST(TriangularLevels, GroupRowsByTheirDeepestDependency) {
  const auto bidiagonal = test::from_triplets(4, 4, {{0, 0, 1.0}, {1, 0, 1.0}, {1, 1, 1.0}, {2, 1, 1.0}, {2, 2, 1.0}, {3, 2, 1.0}, {3, 3, 1.0}});
  EXPECT_EQ(triangular_levels(bidiagonal, Triangle::lower).levels(), 4);
  EXPECT_EQ(triangular_levels(bidiagonal, Triangle::upper).levels(), 1);  // the lower entries are ignored
  const auto s = triangular_levels(generators::stencil_2d<double, std::int64_t>(7, 5, 5), Triangle::lower);
  EXPECT_EQ(s.levels(), 7 + 5 - 1);  // the anti-diagonals of the grid
  EXPECT_EQ(s.level_ptr[1], 1);
  for (std::int64_t l = 0; l < s.levels(); ++l) {
    EXPECT_TRUE(std::is_sorted(s.rows.begin() + s.level_ptr[l], s.rows.begin() + s.level_ptr[l + 1])) << l;
  }
  const auto u = triangular_levels(generators::stencil_2d<double, std::int64_t>(7, 5, 5), Triangle::upper);
  EXPECT_EQ(u.levels(), 11);
  EXPECT_EQ(u.rows[0], 34);  // the last row depends on nothing
  EXPECT_EQ(triangular_levels(Csr<double, std::int64_t>{}, Triangle::lower).levels(), 0);
}

TEST(TriangularLevels, SplitLuSeparatesTheStrictLowerPartFromTheRest) {
  const auto a = nonsymmetric<double, std::int32_t>(50, 5, 1);
  const auto [l, u] = split_lu(a);
  EXPECT_EQ(l.nnz() + u.nnz(), a.nnz());
  EXPECT_EQ(l.row_ptr, triangle(a, Triangle::lower, false).row_ptr);
  EXPECT_EQ(u.values, triangle(a, Triangle::upper, true).values);
  l.validate();
  u.validate();
}

// ---- Factorisations on every backend, against the reference -------------

class IncompleteFactorization : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    if (GetParam() == Backend::cuda) {
      if (!cuda::device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << cuda::device_description();
      ex = cuda::make_cuda_executor();
    }
  }
  template <class V, class I>
  Csr<V, I> factor(detail::Factorization f, const Csr<V, I>& a) const {
    const bool ilu = f == detail::Factorization::ilu0;
    if (GetParam() == Backend::cpu) return ilu ? openmp::ilu0(a) : openmp::ic0(a);
    return ilu ? cuda::ilu0(*ex, a) : cuda::ic0(*ex, a);
  }
  // The backend's factor against the reference's: bit for bit on the CPU.
  template <class V, class I>
  void expect_reference(detail::Factorization f, const Csr<V, I>& a, const std::string& what) const {
    const auto want = f == detail::Factorization::ilu0 ? reference::ilu0(a) : reference::ic0(a);
    const auto got = factor(f, a);
    EXPECT_EQ(got.col_idx, want.col_idx) << what;
    if (GetParam() == Backend::cpu) {
      EXPECT_EQ(got.values, want.values) << what;
    } else {
      EXPECT_LE(relative_difference(got.values, want.values), tolerance<V>()) << what;
    }
  }
  // The backend's Error is the reference's, word for word.
  template <class V, class I>
  void expect_same_error(detail::Factorization f, const Csr<V, I>& a, const std::string& expected) const {
    std::string want;
    try {
      f == detail::Factorization::ilu0 ? reference::ilu0(a) : reference::ic0(a);
      ADD_FAILURE() << "the reference did not refuse: " << expected;
    } catch (const Error& e) {
      want = e.what();
      EXPECT_NE(want.find(expected), std::string::npos) << want;
    }
    try {
      factor(f, a);
      ADD_FAILURE() << "no error: " << expected;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()), want);
    }
  }
  std::shared_ptr<const cuda::Executor> ex;
};

template <class V, class I>
void each_factor_case(const std::function<void(detail::Factorization, const Csr<V, I>&, const std::string&)>& check) {
  using F = detail::Factorization;
  const auto hermitian = stencil<V, I>(40, 40);
  check(F::ilu0, hermitian, "stencil 40x40");
  check(F::ic0, hermitian, "stencil 40x40");
  const auto laplacian = generators::stencil_3d<V, I>(16, 16, 16, 7);  // 46 levels of ~90 rows: the parallel path
  check(F::ilu0, laplacian, "stencil3d 16^3");
  check(F::ic0, laplacian, "stencil3d 16^3");
  check(F::ic0, generators::stencil_2d<V, I>(50, 50, 9), "stencil2d 9-point 50x50");
  check(F::ilu0, nonsymmetric<V, I>(5000, 6, 11), "nonsymmetric 5000");
  check(F::ilu0, nonsymmetric<V, I>(1, 1, 11), "1x1");
  check(F::ic0, Csr<V, I>{}, "0x0");
}

TEST_P(IncompleteFactorization, EqualsTheReferenceDouble) {
  each_factor_case<double, std::int32_t>([&](auto f, const auto& a, const auto& w) { expect_reference(f, a, w); });
}
TEST_P(IncompleteFactorization, EqualsTheReferenceDoubleInt64) {
  each_factor_case<double, std::int64_t>([&](auto f, const auto& a, const auto& w) { expect_reference(f, a, w); });
}
TEST_P(IncompleteFactorization, EqualsTheReferenceFloat) {
  each_factor_case<float, std::int32_t>([&](auto f, const auto& a, const auto& w) { expect_reference(f, a, w); });
}
TEST_P(IncompleteFactorization, EqualsTheReferenceComplexDouble) {
  each_factor_case<std::complex<double>, std::int32_t>([&](auto f, const auto& a, const auto& w) { expect_reference(f, a, w); });
}

TEST_P(IncompleteFactorization, ErrorsNameTheRowAndWhatToTry) {
  using F = detail::Factorization;
  using T = std::vector<std::tuple<std::int64_t, std::int64_t, double>>;
  // [[0, 1], [1, 0]] with its zero diagonal stored: the first pivot is 0.
  const auto swap = test::from_triplets(2, 2, {{0, 0, 0.0}, {0, 1, 1.0}, {1, 0, 1.0}, {1, 1, 0.0}});
  expect_same_error(F::ilu0, swap, "ILU(0): the pivot of row 1 (1-based) is 0: ILU(0) broke down");
  expect_same_error(F::ilu0, test::from_triplets(2, 2, {{0, 0, 1.0}, {0, 1, 1.0}, {1, 0, 1.0}, {1, 1, 1.0}}), "pivot of row 2 (1-based) is 0");
  expect_same_error(F::ilu0, test::from_triplets(2, 2, {{0, 1, 1.0}, {1, 0, 1.0}}), "ILU(0): row 1 (1-based) has no diagonal entry");
  expect_same_error(F::ic0, test::from_triplets(2, 2, {{0, 0, 1.0}, {0, 1, 1.0}}), "IC(0): row 2 (1-based) has no diagonal entry");
  // Indefinite: 16 positive rows, then -3.2 on row 17; and a pivot made negative by the elimination.
  T e;
  for (std::int64_t i = 0; i < 16; ++i) e.emplace_back(i, i, 2.0);
  e.emplace_back(16, 16, -3.2);
  expect_same_error(F::ic0, test::from_triplets(17, 17, e),
                    "IC(0): the pivot of row 17 (1-based) is -3.2 <= 0: the matrix is not positive definite, or IC(0) broke down; try ILU(0) or Jacobi");
  expect_same_error(F::ic0, test::from_triplets(2, 2, {{0, 0, 1.0}, {0, 1, 2.0}, {1, 0, 2.0}, {1, 1, 1.0}}), "pivot of row 2 (1-based) is -3 <= 0");
  // The lowest failing row is reported, whatever its level: row 3 (level 1,
  // U(2, 2) = 1 - 1 * 1) fails, and row 5 (level 0) too.
  const auto first = test::from_triplets(5, 5, {{0, 0, 1.0}, {1, 1, 1.0}, {2, 0, 1.0}, {2, 2, 1.0}, {0, 2, 1.0}, {4, 4, 0.0}, {3, 3, 1.0}});
  expect_same_error(F::ilu0, first, "pivot of row 3 (1-based)");
  // Shapes and order.
  for (F f : {F::ilu0, F::ic0}) {
    try {
      factor(f, test::from_triplets(3, 4, {{0, 0, 1.0}}));
      ADD_FAILURE() << "a 3 x 4 matrix was factorised";
    } catch (const Error& err) {
      EXPECT_EQ(err.code(), ErrorCode::invalid_argument);
      EXPECT_NE(std::string(err.what()).find("is 3 x 4, not square"), std::string::npos) << err.what();
    }
    auto unsorted = test::from_triplets(2, 2, {{0, 0, 2.0}, {0, 1, 1.0}, {1, 0, 1.0}, {1, 1, 2.0}});
    std::swap(unsorted.col_idx[0], unsorted.col_idx[1]);
    std::swap(unsorted.values[0], unsorted.values[1]);
    expect_same_error(f, unsorted, "row 0 has column indices not strictly increasing");
  }
}

// Every square real shared matrix with a stored, nonzero diagonal and at most
// kSharedNnz entries: ILU(0) equal to the reference's, or, where it breaks
// down, the same Error naming the same row; IC(0) likewise on the
// symmetric ones.
constexpr std::int64_t kSharedNnz = 600000;

template <class Check>
void each_shared_matrix(const Check& check) {
  const auto dir = test::shared_matrix_dir();
  if (!dir) GTEST_SKIP() << "skipped: shared matrices folder not found (set HSPARSE_MATRICES)";
  int used = 0;
  for (const auto& m : test::read_manifest(*dir)) {
    if (m.rows != m.cols || m.field == "complex" || m.nnz > kSharedNnz) continue;
    const auto a = io::load_matrix<double, std::int32_t>(*dir + "/" + m.name + ".mtx.gz");
    bool full = true;
    for (std::int32_t i = 0; i < a.rows && full; ++i) {
      const auto begin = a.col_idx.begin() + a.row_ptr[i], end = a.col_idx.begin() + a.row_ptr[i + 1];
      const auto d = std::lower_bound(begin, end, i);
      full = d != end && *d == i && a.values[d - a.col_idx.begin()] != 0;
    }
    if (!full) continue;
    ++used;
    check(m, a);
  }
  EXPECT_GT(used, 0) << "no shared matrix qualified";
}

TEST_P(IncompleteFactorization, EqualsTheReferenceOnSharedMatrices) {
  int matrices = 0, ilu_breakdowns = 0, ic_breakdowns = 0;
  each_shared_matrix([&](const test::ManifestEntry& m, const Csr<double, std::int32_t>& a) {
    ++matrices;
    for (auto f : {detail::Factorization::ilu0, detail::Factorization::ic0}) {
      const bool ilu = f == detail::Factorization::ilu0;
      if (!ilu && m.symmetry != "symmetric") continue;
      Csr<double, std::int32_t> want;
      try {
        want = ilu ? reference::ilu0(a) : reference::ic0(a);
      } catch (const Error& e) {
        ++(ilu ? ilu_breakdowns : ic_breakdowns);
        EXPECT_NE(std::string(e.what()).find("(1-based)"), std::string::npos) << m.name << ": " << e.what();
        expect_same_error(f, a, "the pivot of row");
        continue;
      }
      EXPECT_LE(sparse_defect(f, a, want), 1e-12) << m.name;
      const std::string what = m.name + (ilu ? " ILU(0)" : " IC(0)");
      if (GetParam() == Backend::cpu) {
        expect_reference(f, a, what);
      } else {
        // Ill-conditioned factors (ex10hs, ex15) amplify the rounding of
        // another order of operations far past 1e-12: the device's factor is
        // held to what any ILU(0) / IC(0) of A is, a backward error of a few
        // rounding units, as the reference's is.
        const auto got = factor(f, a);
        EXPECT_EQ(got.col_idx, (ilu ? a : triangle(a, Triangle::lower, true)).col_idx) << what;
        EXPECT_LE(sparse_defect(f, a, got), 1e-12) << what;
      }
    }
  });
  std::cout << "shared matrices: " << matrices << " factorised; ILU(0) broke down on " << ilu_breakdowns << ", IC(0) on " << ic_breakdowns
            << " (each naming its row)\n";
}

INSTANTIATE_TEST_SUITE_P(, IncompleteFactorization, ::testing::ValuesIn(all_backends()),
                         [](const ::testing::TestParamInfo<Backend>& info) { return std::string(to_string(info.param)); });

// ---- Triangular solves on every backend, against the reference ----------

enum class SolveVariant { cpu, cuda_level_scheduled, cuda_sync_free };

class TriangularSolve : public ::testing::TestWithParam<SolveVariant> {
 protected:
  void SetUp() override {
    if (GetParam() != SolveVariant::cpu) {
      if (!cuda::device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << cuda::device_description();
      ex = cuda::make_cuda_executor();
    }
  }
  // x = T^-1 b by the variant, x poisoned with NaN first.
  template <class V, class I>
  std::vector<V> solve(const Csr<V, I>& t, Triangle which, bool unit, const std::vector<V>& b) const {
    auto x = poisoned<V>(b.size());
    if (GetParam() == SolveVariant::cpu) {
      openmp::triangular_solve<V, I>(t, triangular_levels(t, which), which, unit, b, x);
      return x;
    }
    const auto algorithm = GetParam() == SolveVariant::cuda_sync_free ? cuda::TriangularAlgorithm::sync_free : cuda::TriangularAlgorithm::level_scheduled;
    const cuda::TriangularSolve<V, I> s(*ex, t, which, unit, algorithm);
    EXPECT_EQ(s.algorithm(), algorithm);
    EXPECT_EQ(s.levels(), triangular_levels(t, which).levels());
    cuda::DeviceArray<V> db(b), dx(x);
    for (int repeat = 0; repeat < 2; ++repeat) s.solve(db.data(), dx.data());  // the flags are reset between solves
    ex->synchronize();
    return dx.download();
  }
  // forward: the relative difference allowed on the GPU (the test's tolerance by default).
  template <class V, class I>
  void expect_reference(const Csr<V, I>& t, Triangle which, bool unit, const std::string& what, double forward = tolerance<double>()) const {
    const auto b = test::test_vector<V>(static_cast<std::size_t>(t.rows), 6);
    auto want = poisoned<V>(b.size());
    reference::triangular_solve<V, I>(t, which, unit, b, want);
    const auto got = solve(t, which, unit, b);
    if (GetParam() == SolveVariant::cpu) {
      EXPECT_EQ(got, want) << what;
    } else {
      EXPECT_LE(relative_difference(got, want), std::max(forward, tolerance<V>())) << what;
      const double backward = std::is_same_v<real_type_t<V>, float> ? 1e-5 : 1e-13;  // the reference's bound
      EXPECT_LE(solve_defect(t, unit, b, got), backward) << what;
    }
  }
  std::shared_ptr<const cuda::Executor> ex;
};

TEST_P(TriangularSolve, EqualsTheReferenceOnEveryCase) {
  for (const auto& c : triangle_cases()) expect_reference(c.t, c.which, c.unit, c.name);
}

TEST_P(TriangularSolve, EqualsTheReferenceInOtherTypes) {
  const auto a = stencil<std::complex<double>, std::int64_t>(20, 20);
  auto [l, u] = split_lu(reference::ilu0(a));
  expect_reference(l, Triangle::lower, true, "complex L");
  expect_reference(u, Triangle::upper, false, "complex U");
  const auto c = reference::ic0(a);
  expect_reference(c, Triangle::lower, false, "complex IC(0) L");
  expect_reference(transpose(c, true), Triangle::upper, false, "complex IC(0) L^H");
  const auto f = nonsymmetric<float, std::int32_t>(3000, 8, 4);
  expect_reference(triangle(f, Triangle::lower, true), Triangle::lower, false, "float lower");
  expect_reference(triangle(f, Triangle::upper, false), Triangle::upper, true, "float upper unit");
}

// The shared matrices' lower and upper triangles, and their ILU(0) factors
// where ILU(0) exists. A triangle whose solution overflows in double (a
// strict triangle of a matrix not made for it can grow like 10^100 in a few
// hundred rows) is counted and left out: it holds no backend to anything.
TEST_P(TriangularSolve, EqualsTheReferenceOnSharedMatrices) {
  int solved = 0, overflowed = 0;
  each_shared_matrix([&](const test::ManifestEntry& m, const Csr<double, std::int32_t>& a) {
    std::vector<TriangleCase> cases{{m.name + " lower", triangle(a, Triangle::lower, true), Triangle::lower, false},
                                    {m.name + " upper", triangle(a, Triangle::upper, true), Triangle::upper, false}};
    try {
      auto [l, u] = split_lu(reference::ilu0(a));
      cases.push_back({m.name + " ILU(0) L", std::move(l), Triangle::lower, true});
      cases.push_back({m.name + " ILU(0) U", std::move(u), Triangle::upper, false});
    } catch (const Error&) {
      // ILU(0) broke down: its rows are checked by IncompleteFactorization.EqualsTheReferenceOnSharedMatrices.
    }
    for (const auto& c : cases) {
      const auto b = test::test_vector<double>(static_cast<std::size_t>(c.t.rows), 6);
      std::vector<double> want(b.size());
      reference::triangular_solve<double, std::int32_t>(c.t, c.which, c.unit, b, want);
      if (!std::all_of(want.begin(), want.end(), [](double v) { return std::isfinite(v); })) {
        ++overflowed;
        continue;
      }
      ++solved;
      // On the GPU, another summation order: ill-conditioned triangles (ex10hs's
      // ILU(0) factors) amplify its rounding past 1e-12, within 1e-10; the
      // backward error stays the reference's.
      expect_reference(c.t, c.which, c.unit, c.name, 1e-10);
    }
  });
  std::cout << "shared matrices: " << solved << " triangles solved, " << overflowed << " left out (their solution overflows in double)\n";
}

// Entries outside the triangle, a missing or zero diagonal, a stored unit
// diagonal: the reference's Error, word for word, naming the lowest bad row.
TEST_P(TriangularSolve, RefusesWhatIsNotItsTriangle) {
  struct Bad {
    Csr<double, std::int64_t> t;
    Triangle which;
    bool unit;
    const char* expected;
  };
  const auto lower = triangle(nonsymmetric<double, std::int64_t>(40, 4, 8), Triangle::lower, true);
  auto zero = lower;
  zero.values[zero.row_ptr[31] - 1] = 0;  // row 30's diagonal (its last entry)
  const Bad cases[] = {
      {test::from_triplets(3, 3, {{0, 0, 1.0}, {1, 1, 1.0}, {1, 2, 1.0}, {2, 2, 1.0}}), Triangle::lower, false,
       "triangular solve (lower): row 2 (1-based) holds an entry above the diagonal"},
      {test::from_triplets(3, 3, {{0, 0, 1.0}, {1, 1, 1.0}, {2, 0, 1.0}, {2, 2, 1.0}}), Triangle::upper, false,
       "triangular solve (upper): row 3 (1-based) holds an entry below the diagonal"},
      {test::from_triplets(3, 3, {{0, 0, 1.0}, {2, 2, 1.0}}), Triangle::lower, false, "row 2 (1-based) has no diagonal entry"},
      {zero, Triangle::lower, false, "row 31 (1-based) has a zero diagonal entry"},
      {lower, Triangle::lower, true, "row 1 (1-based) stores a diagonal entry, but unit_diagonal says"},
  };
  for (const auto& c : cases) {
    std::string want;
    std::vector<double> b(static_cast<std::size_t>(c.t.rows), 1.0), x(b.size());
    try {
      reference::triangular_solve<double, std::int64_t>(c.t, c.which, c.unit, b, x);
      ADD_FAILURE() << "the reference did not refuse: " << c.expected;
    } catch (const Error& e) {
      want = e.what();
      EXPECT_EQ(e.code(), ErrorCode::invalid_matrix);
      EXPECT_NE(want.find(c.expected), std::string::npos) << want;
    }
    // The schedule of a matrix with entries on both sides is made (it ignores
    // the other triangle); the solve refuses.
    try {
      solve(c.t, c.which, c.unit, b);
      ADD_FAILURE() << "no error: " << c.expected;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()), want);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(, TriangularSolve,
                         ::testing::Values(SolveVariant::cpu, SolveVariant::cuda_level_scheduled, SolveVariant::cuda_sync_free),
                         [](const ::testing::TestParamInfo<SolveVariant>& info) -> std::string {
                           switch (info.param) {
                             case SolveVariant::cpu: return "cpu";
                             case SolveVariant::cuda_level_scheduled: return "cuda_level_scheduled";
                             case SolveVariant::cuda_sync_free: return "cuda_sync_free";
                           }
                           return "unknown";
                         });

}  // namespace
}  // namespace hsparse
