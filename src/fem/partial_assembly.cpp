// Partial assembly: the quadrature-point data of the sum-factorised operator
// (fem/partial_assembly.hpp).
#include "hsparse/fem/partial_assembly.hpp"

#include <array>
#include <cmath>

#include "hsparse/core/host_system.hpp"
#include "hsparse/core/types.hpp"
#include "colour_order.hpp"
#include "reference_element.hpp"

namespace hsparse::fem {

template <class V, class I>
QuadratureData<V, I> partial_assembly(const PoissonProblem<V, I>& pr) {
  const int p = pr.options.degree, q = p + 2, q2 = q * q;
  const long long n = pr.options.elements, ne = n * n;
  require_host_memory(static_cast<std::size_t>(ne) * (3 * q2 * sizeof(V) + (p + 1) * (p + 1) * sizeof(I)), "the partial assembly's quadrature data");
  const ReferenceElement ref(p, q);
  QuadratureData<V, I> qd;
  qd.rows = pr.local.rows;
  qd.elements = pr.local.elements;
  qd.degree = p;
  qd.points = q;
  qd.element_nodes = pr.local.element_nodes;
  qd.colour_begin = pr.local.colour_begin;
  for (int g = 0; g < q; ++g) {
    for (int i = 0; i <= p; ++i) {
      qd.basis.push_back(static_cast<V>(ref.phi(g, i)));
      qd.gradient.push_back(static_cast<V>(ref.dphi(g, i)));
    }
  }
  qd.d.assign(static_cast<std::size_t>(3 * q2 * ne), V(0));
  const ColourOrder order(n);
#pragma omp parallel for schedule(static)
  for (long long ey = 0; ey < n; ++ey) {
    for (long long ex = 0; ex < n; ++ex) {
      const long long e = order.index(ex, ey);
      std::array<double, 4> vx, vy;
      element_corners(pr.vertex_x, pr.vertex_y, n, ex, ey, vx, vy);
      for (int gj = 0; gj < q; ++gj) {
        for (int gi = 0; gi < q; ++gi) {
          const auto m = ReferenceElement::map(vx, vy, ref.point(gi), ref.point(gj));
          const double s = ref.weight(gi) * ref.weight(gj) / std::abs(m.det);
          const auto at = [&](int k) { return static_cast<std::size_t>((k * q2 + gj * q + gi) * ne + e); };
          qd.d[at(0)] = static_cast<V>(s * (m.xeta * m.xeta + m.yeta * m.yeta));
          qd.d[at(1)] = static_cast<V>(-s * (m.xxi * m.xeta + m.yxi * m.yeta));
          qd.d[at(2)] = static_cast<V>(s * (m.xxi * m.xxi + m.yxi * m.yxi));
        }
      }
    }
  }
  return qd;
}

#define HSPARSE_INSTANTIATE(V, I) template QuadratureData<V, I> partial_assembly(const PoissonProblem<V, I>&);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::fem
