#pragma once
// Chebyshev polynomial preconditioning (Saad, Iterative Methods for Sparse
// Linear Systems, 2nd ed., section 12.3; PETSc's KSPCHEBYSHEV): z = p(D^-1 A)
// D^-1 r, p of degree d the Chebyshev approximation of 1/lambda on an
// interval [lmin, lmax] holding D^-1 A's eigenvalues, run as d steps of the
// Chebyshev iteration from z = 0: d - 1 SpMVs and a few vector updates, no
// inner products, so no reduction and no host synchronisation per
// application. For symmetric positive definite A, p(D^-1 A) D^-1 is
// symmetric and positive definite as long as lmax is not below the largest
// eigenvalue: then 1 - lambda p(lambda) stays in (-1, 1) on (0, lmax], so
// CG may use it. An lmin above the smallest eigenvalue only weakens it.
//
// The bounds come from a few steps of Jacobi-preconditioned CG (Lanczos in
// disguise): the extreme eigenvalues of its tridiagonal matrix (the Ritz
// values) bound the spectrum from inside, so the largest is raised by 10%
// (PETSc's factor) and the smallest kept.
//
// Ops: KrylovOps (krylov_ops.hpp), on pointers in the executor's memory:
// spmv_ptr(in, out), axpby(a, x, b, y), scale_diagonal(r, z), dot(a, b),
// vector(), size().
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <tuple>
#include <string>
#include <vector>

#include "hsparse/core/error.hpp"

namespace hsparse::detail {

struct ChebyshevBounds {
  double lmin = 0, lmax = 0;          // the interval the polynomial is built on
  double ritz_min = 0, ritz_max = 0;  // the Lanczos estimates
  int steps = 0;                      // Lanczos steps taken
};

// The smallest and largest eigenvalues of the symmetric tridiagonal matrix
// (diag, off) by Sturm-sequence bisection.
inline std::pair<double, double> tridiagonal_extremes(const std::vector<double>& diag, const std::vector<double>& off) {
  const std::size_t k = diag.size();
  double lo = diag[0], hi = diag[0];
  for (std::size_t i = 0; i < k; ++i) {  // Gershgorin
    const double radius = (i > 0 ? std::abs(off[i - 1]) : 0.0) + (i + 1 < k ? std::abs(off[i]) : 0.0);
    lo = std::min(lo, diag[i] - radius);
    hi = std::max(hi, diag[i] + radius);
  }
  auto below = [&](double x) {  // eigenvalues < x
    int count = 0;
    double q = 1;
    for (std::size_t i = 0; i < k; ++i) {
      q = diag[i] - x - (i > 0 ? off[i - 1] * off[i - 1] / q : 0.0);
      if (q == 0) q = 1e-300;
      count += q < 0 ? 1 : 0;
    }
    return count;
  };
  auto kth = [&](int target) {  // the eigenvalue with `target` eigenvalues below it
    double a = lo, b = hi;
    for (int it = 0; it < 200 && b - a > 1e-14 * std::max(std::abs(a), std::abs(b)); ++it) {
      const double mid = 0.5 * (a + b);
      (below(mid) > target ? b : a) = mid;
    }
    return 0.5 * (a + b);
  };
  return {kth(0), kth(static_cast<int>(k) - 1)};
}

template <class Ops>
ChebyshevBounds chebyshev_bounds(const Ops& ops, int steps) {
  using V = typename Ops::value_type;
  const std::size_t n = ops.size();
  // A pseudo-random start (splitmix64 of the index): every eigenvector in
  // it, so the largest Ritz value closes in on the largest eigenvalue (a
  // smooth start left a 2D Laplacian's top eigenvalue out of the interval).
  std::vector<V> start(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t z = (static_cast<std::uint64_t>(i) + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    start[i] = static_cast<V>(static_cast<double>(z >> 11) * 0x1.0p-53 - 0.5);
  }
  auto r = ops.vector(), z = ops.vector(), p = ops.vector(), ap = ops.vector();
  ops.upload(start, r);
  ops.scale_diagonal(r.data(), z.data());
  ops.axpby(V(1), z.data(), V(0), p.data());
  double rz = std::real(ops.dot(r.data(), z.data()));
  std::vector<double> diag, off;
  double alpha_old = 0, beta_old = 0;
  for (int j = 0; j < steps && rz > 0; ++j) {
    ops.spmv_ptr(p.data(), ap.data());
    const double pap = std::real(ops.dot(p.data(), ap.data()));
    if (!(pap > 0) || !std::isfinite(pap)) {
      throw Error(ErrorCode::invalid_matrix, "Chebyshev: its eigenvalue estimate met p'Ap = " + std::to_string(pap) + " in Lanczos step " +
                                                 std::to_string(j + 1) + ": D^-1 A is not positive definite, which the polynomial needs; try ilu0 or block-jacobi");
    }
    const double alpha = rz / pap;
    diag.push_back(1.0 / alpha + (j > 0 ? beta_old / alpha_old : 0.0));
    ops.axpby(static_cast<V>(-alpha), ap.data(), V(1), r.data());
    ops.scale_diagonal(r.data(), z.data());
    const double rz_new = std::real(ops.dot(r.data(), z.data()));
    const double beta = rz_new / rz;
    if (j + 1 < steps && rz_new > 0) off.push_back(std::sqrt(beta) / alpha);
    ops.axpby(V(1), z.data(), static_cast<V>(beta), p.data());
    alpha_old = alpha;
    beta_old = beta;
    rz = rz_new;
  }
  ChebyshevBounds b;
  b.steps = static_cast<int>(diag.size());
  if (diag.empty()) {  // r = 0 at once (n == 0): any interval will do
    b.lmin = b.lmax = b.ritz_min = b.ritz_max = 1;
    return b;
  }
  off.resize(diag.size() - 1);
  std::tie(b.ritz_min, b.ritz_max) = tridiagonal_extremes(diag, off);
  b.lmax = 1.1 * b.ritz_max;
  b.lmin = std::min(b.ritz_min, b.lmax / 2);  // a one-step estimate has ritz_min == ritz_max
  return b;
}

// z = p(D^-1 A) D^-1 r: `degree` steps of the Chebyshev iteration for
// A z = r from z = 0 (Saad, Algorithm 12.1), on the work vectors res, d, t.
template <class Ops, class Vector>
void chebyshev_apply(const Ops& ops, const ChebyshevBounds& b, int degree, const typename Ops::value_type* r, typename Ops::value_type* z,
                     Vector& res, Vector& d, Vector& t) {
  using V = typename Ops::value_type;
  const double theta = 0.5 * (b.lmax + b.lmin), delta = 0.5 * (b.lmax - b.lmin);
  const double sigma = theta / delta;
  double rho = 1.0 / sigma;
  ops.axpby(V(1), r, V(0), res.data());       // res = r - A z, z = 0
  ops.scale_diagonal(res.data(), t.data());
  ops.axpby(static_cast<V>(1.0 / theta), t.data(), V(0), d.data());
  ops.axpby(V(1), d.data(), V(0), z);
  for (int k = 1; k < degree; ++k) {
    ops.spmv_ptr(d.data(), t.data());
    ops.axpby(V(-1), t.data(), V(1), res.data());  // res -= A d
    const double rho_new = 1.0 / (2.0 * sigma - rho);
    ops.scale_diagonal(res.data(), t.data());
    ops.axpby(static_cast<V>(2.0 * rho_new / delta), t.data(), static_cast<V>(rho_new * rho), d.data());
    ops.axpby(V(1), d.data(), V(1), z);
    rho = rho_new;
  }
}

inline std::string describe_chebyshev(const ChebyshevBounds& b, int degree) {
  char s[256];
  std::snprintf(s, sizeof s, "Chebyshev of degree %d on D^-1 A, eigenvalues taken in [%.4g, %.4g] (%d Lanczos steps: Ritz values %.4g to %.4g, the upper one raised 10%%)",
                degree, b.lmin, b.lmax, b.steps, b.ritz_min, b.ritz_max);
  return s;
}

}  // namespace hsparse::detail
