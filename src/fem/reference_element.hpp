#pragma once
// The Q_p reference element on [-1, 1]^2 (fem/poisson.hpp): tensor-product
// Lagrange basis on the Gauss-Lobatto-Legendre points, Gauss-Legendre
// quadrature with q points per direction, and the bilinear map of an
// element's four corners (order (-1,-1), (1,-1), (-1,1), (1,1)).
#include <array>
#include <cmath>
#include <numbers>
#include <span>
#include <vector>

namespace hsparse::fem {

// The corners of element (ex, ey) of an N x N mesh from its (N + 1)^2
// vertices (a fastest), in the bilinear map's order.
inline void element_corners(const std::vector<double>& vertex_x, const std::vector<double>& vertex_y, long long n, long long ex, long long ey,
                            std::array<double, 4>& x, std::array<double, 4>& y) {
  const auto v0 = static_cast<std::size_t>(ey * (n + 1) + ex), up = static_cast<std::size_t>(n) + 1;
  x = {vertex_x[v0], vertex_x[v0 + 1], vertex_x[v0 + up], vertex_x[v0 + up + 1]};
  y = {vertex_y[v0], vertex_y[v0 + 1], vertex_y[v0 + up], vertex_y[v0 + up + 1]};
}

class ReferenceElement {
 public:
  ReferenceElement(int degree, int quadrature_points) : p_(degree), q_(quadrature_points) {
    nodes_ = lobatto_points(p_);
    gauss(q_, points_, weights_);
    const int q1 = p_ + 1;
    phi_.resize(static_cast<std::size_t>(q_ * q1));
    dphi_.resize(phi_.size());
    for (int g = 0; g < q_; ++g) {
      for (int i = 0; i < q1; ++i) {
        phi_[at(g, i)] = lagrange(i, points_[static_cast<std::size_t>(g)]);
        dphi_[at(g, i)] = lagrange_derivative(i, points_[static_cast<std::size_t>(g)]);
      }
    }
  }

  // K_e(a, b) = integral of grad phi_a . grad phi_b (eq. 10, kappa = 1) and
  // l_e(a) = integral of f phi_a (eq. 11) over the element, a = j (p+1) + i.
  template <class F>
  void element_matrices(const std::array<double, 4>& vx, const std::array<double, 4>& vy, F&& f, std::vector<double>& ke,
                        std::vector<double>& le) const {
    const int q1 = p_ + 1, m = q1 * q1;
    std::fill(ke.begin(), ke.end(), 0.0);
    std::fill(le.begin(), le.end(), 0.0);
    std::vector<double> gx(static_cast<std::size_t>(m)), gy(static_cast<std::size_t>(m));
    for (int gj = 0; gj < q_; ++gj) {
      for (int gi = 0; gi < q_; ++gi) {
        const Map mp = map(vx, vy, points_[static_cast<std::size_t>(gi)], points_[static_cast<std::size_t>(gj)]);
        const double w = weights_[static_cast<std::size_t>(gi)] * weights_[static_cast<std::size_t>(gj)] * std::abs(mp.det);
        const double fw = f(mp.x, mp.y) * w;
        for (int j = 0; j < q1; ++j) {
          for (int i = 0; i < q1; ++i) {
            const auto a = static_cast<std::size_t>(j * q1 + i);
            const double dxi = dphi_[at(gi, i)] * phi_[at(gj, j)], deta = phi_[at(gi, i)] * dphi_[at(gj, j)];
            gx[a] = (mp.yeta * dxi - mp.yxi * deta) / mp.det;  // grad phi = J^-T (d/dxi, d/deta)
            gy[a] = (-mp.xeta * dxi + mp.xxi * deta) / mp.det;
            le[a] += fw * phi_[at(gi, i)] * phi_[at(gj, j)];
          }
        }
        for (int a = 0; a < m; ++a) {
          for (int b = 0; b < m; ++b) ke[static_cast<std::size_t>(a * m + b)] += w * (gx[static_cast<std::size_t>(a)] * gx[static_cast<std::size_t>(b)] + gy[static_cast<std::size_t>(a)] * gy[static_cast<std::size_t>(b)]);
        }
      }
    }
  }

  // Integral over the element of (u_h - exact)^2, u_h from the element's nodal values.
  template <class F>
  double squared_error(const std::array<double, 4>& vx, const std::array<double, 4>& vy, std::span<const double> local, F&& exact) const {
    const int q1 = p_ + 1;
    double sum = 0;
    for (int gj = 0; gj < q_; ++gj) {
      for (int gi = 0; gi < q_; ++gi) {
        const Map mp = map(vx, vy, points_[static_cast<std::size_t>(gi)], points_[static_cast<std::size_t>(gj)]);
        double uh = 0;
        for (int j = 0; j < q1; ++j) {
          for (int i = 0; i < q1; ++i) uh += local[static_cast<std::size_t>(j * q1 + i)] * phi_[at(gi, i)] * phi_[at(gj, j)];
        }
        const double d = uh - exact(mp.x, mp.y);
        sum += weights_[static_cast<std::size_t>(gi)] * weights_[static_cast<std::size_t>(gj)] * std::abs(mp.det) * d * d;
      }
    }
    return sum;
  }

  // The bilinear map at (xi, eta): the point and the Jacobian's entries.
  struct Map {
    double x, y, xxi, xeta, yxi, yeta, det;
  };
  static Map map(const std::array<double, 4>& vx, const std::array<double, 4>& vy, double xi, double eta) {
    const std::array<double, 4> n{(1 - xi) * (1 - eta) / 4, (1 + xi) * (1 - eta) / 4, (1 - xi) * (1 + eta) / 4, (1 + xi) * (1 + eta) / 4};
    const std::array<double, 4> nxi{-(1 - eta) / 4, (1 - eta) / 4, -(1 + eta) / 4, (1 + eta) / 4};
    const std::array<double, 4> neta{-(1 - xi) / 4, -(1 + xi) / 4, (1 - xi) / 4, (1 + xi) / 4};
    Map mp{};
    for (std::size_t c = 0; c < 4; ++c) {
      mp.x += vx[c] * n[c];
      mp.y += vy[c] * n[c];
      mp.xxi += vx[c] * nxi[c];
      mp.xeta += vx[c] * neta[c];
      mp.yxi += vy[c] * nxi[c];
      mp.yeta += vy[c] * neta[c];
    }
    mp.det = mp.xxi * mp.yeta - mp.xeta * mp.yxi;
    return mp;
  }
  int points() const { return q_; }
  double weight(int g) const { return weights_[static_cast<std::size_t>(g)]; }
  double point(int g) const { return points_[static_cast<std::size_t>(g)]; }
  double phi(int g, int i) const { return phi_[at(g, i)]; }    // 1-D basis i at point g
  double dphi(int g, int i) const { return dphi_[at(g, i)]; }  // its derivative

 private:
  // Gauss-Lobatto-Legendre points of degree p (p + 1 points, the ends included).
  static std::vector<double> lobatto_points(int p) {
    switch (p) {
      case 1: return {-1, 1};
      case 2: return {-1, 0, 1};
      case 3: return {-1, -1 / std::sqrt(5.0), 1 / std::sqrt(5.0), 1};
      default: return {-1, -std::sqrt(3.0 / 7.0), 0, std::sqrt(3.0 / 7.0), 1};
    }
  }
  // Gauss-Legendre points and weights: Newton on P_q from the Chebyshev-like guess.
  static void gauss(int q, std::vector<double>& x, std::vector<double>& w) {
    x.resize(static_cast<std::size_t>(q));
    w.resize(static_cast<std::size_t>(q));
    for (int i = 0; i < q; ++i) {
      double t = std::cos(std::numbers::pi * (i + 0.75) / (q + 0.5)), dp = 0;
      for (int it = 0; it < 100; ++it) {
        double p0 = 1, p1 = t;
        for (int k = 2; k <= q; ++k) {
          const double p2 = ((2 * k - 1) * t * p1 - (k - 1) * p0) / k;
          p0 = p1;
          p1 = p2;
        }
        dp = q * (t * p1 - p0) / (t * t - 1);
        const double step = p1 / dp;
        t -= step;
        if (std::abs(step) < 1e-16) break;
      }
      x[static_cast<std::size_t>(i)] = t;
      w[static_cast<std::size_t>(i)] = 2 / ((1 - t * t) * dp * dp);
    }
  }
  double lagrange(int i, double x) const {
    double v = 1;
    for (int k = 0; k <= p_; ++k) {
      if (k != i) v *= (x - nodes_[static_cast<std::size_t>(k)]) / (nodes_[static_cast<std::size_t>(i)] - nodes_[static_cast<std::size_t>(k)]);
    }
    return v;
  }
  double lagrange_derivative(int i, double x) const {
    double sum = 0;
    for (int l = 0; l <= p_; ++l) {
      if (l == i) continue;
      double term = 1 / (nodes_[static_cast<std::size_t>(i)] - nodes_[static_cast<std::size_t>(l)]);
      for (int k = 0; k <= p_; ++k) {
        if (k != i && k != l) term *= (x - nodes_[static_cast<std::size_t>(k)]) / (nodes_[static_cast<std::size_t>(i)] - nodes_[static_cast<std::size_t>(k)]);
      }
      sum += term;
    }
    return sum;
  }
  std::size_t at(int g, int i) const { return static_cast<std::size_t>(g * (p_ + 1) + i); }

  int p_, q_;
  std::vector<double> nodes_, points_, weights_, phi_, dphi_;
};

}  // namespace hsparse::fem
