// The sum-factorised product's definition (kernels/pa_spmv.hpp): for each
// element and quadrature point, the reference gradient of u by a full sum
// over the element's nodes, D_q applied, and the result tested against
// every node's reference gradient. No factorisation: O(p^4) per element.
#include <string>
#include <vector>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/kernels/pa_spmv.hpp"

namespace hsparse::reference {

template <class V, class I>
void pa_spmv(V alpha, const fem::QuadratureData<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  const auto n = static_cast<std::size_t>(a.rows);
  if (x.size() != n || y.size() != n) {
    throw Error(ErrorCode::invalid_argument, "PA product: x has " + std::to_string(x.size()) + " and y " + std::to_string(y.size()) + " values for " +
                                                 std::to_string(n) + " unknowns");
  }
  for (auto& v : y) v = beta == V(0) ? V(0) : beta * v;
  const int q1 = a.degree + 1, q = a.points, m = q1 * q1, q2 = q * q;
  const auto ne = static_cast<std::size_t>(a.elements);
  const auto b = [&](int g, int i) { return static_cast<double>(a.basis[static_cast<std::size_t>(g * q1 + i)]); };
  const auto g1 = [&](int g, int i) { return static_cast<double>(a.gradient[static_cast<std::size_t>(g * q1 + i)]); };
  std::vector<double> u(static_cast<std::size_t>(m)), out(static_cast<std::size_t>(m));
  for (std::size_t e = 0; e < ne; ++e) {
    for (int k = 0; k < m; ++k) {
      const I node = a.element_nodes[static_cast<std::size_t>(k) * ne + e];
      u[static_cast<std::size_t>(k)] = node < 0 ? 0.0 : static_cast<double>(x[static_cast<std::size_t>(node)]);
      out[static_cast<std::size_t>(k)] = 0;
    }
    for (int gj = 0; gj < q; ++gj) {
      for (int gi = 0; gi < q; ++gi) {
        double uxi = 0, ueta = 0;
        for (int j = 0; j < q1; ++j) {
          for (int i = 0; i < q1; ++i) {
            uxi += g1(gi, i) * b(gj, j) * u[static_cast<std::size_t>(j * q1 + i)];
            ueta += b(gi, i) * g1(gj, j) * u[static_cast<std::size_t>(j * q1 + i)];
          }
        }
        const int qp = gj * q + gi;
        const auto d = [&](int k) { return static_cast<double>(a.d[static_cast<std::size_t>(k * q2 + qp) * ne + e]); };
        const double vxi = d(0) * uxi + d(1) * ueta, veta = d(1) * uxi + d(2) * ueta;
        for (int j = 0; j < q1; ++j) {
          for (int i = 0; i < q1; ++i) out[static_cast<std::size_t>(j * q1 + i)] += g1(gi, i) * b(gj, j) * vxi + b(gi, i) * g1(gj, j) * veta;
        }
      }
    }
    for (int k = 0; k < m; ++k) {
      const I node = a.element_nodes[static_cast<std::size_t>(k) * ne + e];
      if (node >= 0) y[static_cast<std::size_t>(node)] += alpha * static_cast<V>(out[static_cast<std::size_t>(k)]);
    }
  }
}

#define HSPARSE_INSTANTIATE(V, I) template void pa_spmv(V, const fem::QuadratureData<V, I>&, std::span<const V>, V, std::span<V>);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::reference
