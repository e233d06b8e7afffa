// The sum-factorised product on the CPU (kernels/pa_spmv.hpp; the partial
// assembly of MFEM and libCEED): per element, the reference gradients at the
// Q x Q points one direction at a time (xi, then eta: 2 Q (p+1) (p+1 + Q)
// multiply-adds instead of 2 Q^2 (p+1)^2), D_q applied pointwise, and the
// transpose the same way back. Colour by colour, elements of a colour in
// parallel (no shared nodes: no atomics).
#include <array>
#include <string>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/kernels/pa_spmv.hpp"

namespace hsparse::openmp {

namespace {

// One colour's elements for degree P (Q = P + 2 points): the sizes are
// compile-time, so the small loops unroll and the arrays stay in registers
// (with runtime sizes, measured on the build machine at 250 k unknowns,
// Q1 ran at 47 CG iterations/s).
template <int P, class V, class I>
void pa_colour(V alpha, const fem::QuadratureData<V, I>& a, std::span<const V> x, std::span<V> y, long long first, long long last) {
  constexpr int q1 = P + 1, q = P + 2, q2 = q * q, kMaxNodes1d = q1, kMaxPoints1d = q;
  const auto ne = static_cast<std::size_t>(a.elements);
  const V* B = a.basis.data();
  const V* G = a.gradient.data();
  {
#pragma omp parallel for schedule(static)
    for (long long el = first; el < last; ++el) {
      const auto e = static_cast<std::size_t>(el);
      std::array<std::array<V, kMaxNodes1d>, kMaxNodes1d> u{};                 // [j][i]
      std::array<std::array<V, kMaxPoints1d>, kMaxNodes1d> tb{}, tg{};         // [j][gi]: along xi
      std::array<std::array<V, kMaxPoints1d>, kMaxPoints1d> uxi{}, ueta{};     // [gj][gi]
      for (int j = 0; j < q1; ++j) {
        for (int i = 0; i < q1; ++i) {
          const I node = a.element_nodes[static_cast<std::size_t>(j * q1 + i) * ne + e];
          u[j][i] = node < 0 ? V(0) : x[static_cast<std::size_t>(node)];
        }
      }
      for (int j = 0; j < q1; ++j) {  // xi: values and derivatives at the points gi, for each node row j
        for (int gi = 0; gi < q; ++gi) {
          V sb(0), sg(0);
          for (int i = 0; i < q1; ++i) {
            sb += B[gi * q1 + i] * u[j][i];
            sg += G[gi * q1 + i] * u[j][i];
          }
          tb[j][gi] = sb;
          tg[j][gi] = sg;
        }
      }
      for (int gj = 0; gj < q; ++gj) {  // eta, then D_q
        for (int gi = 0; gi < q; ++gi) {
          V dx(0), de(0);
          for (int j = 0; j < q1; ++j) {
            dx += B[gj * q1 + j] * tg[j][gi];
            de += G[gj * q1 + j] * tb[j][gi];
          }
          const std::size_t qp = static_cast<std::size_t>(gj * q + gi);
          const V d0 = a.d[qp * ne + e], d1 = a.d[(static_cast<std::size_t>(q2) + qp) * ne + e], d2 = a.d[(2 * static_cast<std::size_t>(q2) + qp) * ne + e];
          uxi[gj][gi] = d0 * dx + d1 * de;
          ueta[gj][gi] = d1 * dx + d2 * de;
        }
      }
      for (int j = 0; j < q1; ++j) {  // the transpose: eta back to node rows j
        for (int gi = 0; gi < q; ++gi) {
          V sg(0), sb(0);
          for (int gj = 0; gj < q; ++gj) {
            sg += B[gj * q1 + j] * uxi[gj][gi];
            sb += G[gj * q1 + j] * ueta[gj][gi];
          }
          tg[j][gi] = sg;
          tb[j][gi] = sb;
        }
      }
      for (int j = 0; j < q1; ++j) {  // xi back to the nodes, then the scatter
        for (int i = 0; i < q1; ++i) {
          V s(0);
          for (int gi = 0; gi < q; ++gi) s += G[gi * q1 + i] * tg[j][gi] + B[gi * q1 + i] * tb[j][gi];
          const I node = a.element_nodes[static_cast<std::size_t>(j * q1 + i) * ne + e];
          if (node >= 0) y[static_cast<std::size_t>(node)] += alpha * s;
        }
      }
    }
  }
}

}  // namespace

template <class V, class I>
void pa_spmv(V alpha, const fem::QuadratureData<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  const auto n = static_cast<long long>(a.rows);
  if (static_cast<long long>(x.size()) != n || static_cast<long long>(y.size()) != n) {
    throw Error(ErrorCode::invalid_argument, "PA product: x has " + std::to_string(x.size()) + " and y " + std::to_string(y.size()) + " values for " +
                                                 std::to_string(n) + " unknowns");
  }
  if (a.degree < 1 || a.degree > 4 || a.points != a.degree + 2) {
    throw Error(ErrorCode::invalid_argument, "PA product: degree " + std::to_string(a.degree) + " with " + std::to_string(a.points) + " points (Q1-Q4 with p + 2 points)");
  }
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < n; ++i) y[static_cast<std::size_t>(i)] = beta == V(0) ? V(0) : beta * y[static_cast<std::size_t>(i)];
  for (std::size_t c = 0; c + 1 < a.colour_begin.size(); ++c) {
    const auto first = static_cast<long long>(a.colour_begin[c]), last = static_cast<long long>(a.colour_begin[c + 1]);
    switch (a.degree) {
      case 1: pa_colour<1>(alpha, a, x, y, first, last); break;
      case 2: pa_colour<2>(alpha, a, x, y, first, last); break;
      case 3: pa_colour<3>(alpha, a, x, y, first, last); break;
      default: pa_colour<4>(alpha, a, x, y, first, last); break;
    }
  }
}

#define HSPARSE_INSTANTIATE(V, I) template void pa_spmv(V, const fem::QuadratureData<V, I>&, std::span<const V>, V, std::span<V>);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
