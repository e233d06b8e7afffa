#pragma once
// One element of the sum-factorised product on the CPU (kernels/pa_spmv.hpp):
// the element's nodal values gathered, the
// reference gradients at the Q x Q points one direction at a time (xi, then
// eta), D_q applied, and the transpose the same way back to the nodes,
// which are scattered. P is compile-time (Q = P + 2): the loops unroll and
// the arrays stay in registers. gather(node) gives x at a node (node >= 0);
// scatter(node, v) adds alpha v to y there.
#include <cstddef>

namespace hsparse::detail {

template <int P, class V, class I, class Gather, class Scatter>
inline void pa_element(std::size_t e, std::size_t ne, const I* nodes, const V* d, const V* B, const V* G, Gather&& gather,
                                              Scatter&& scatter) {
  constexpr int q1 = P + 1, q = P + 2, q2 = q * q;
  V u[q1][q1], tb[q1][q], tg[q1][q], uxi[q][q], ueta[q][q];
  for (int j = 0; j < q1; ++j) {
    for (int i = 0; i < q1; ++i) {
      const I node = nodes[static_cast<std::size_t>(j * q1 + i) * ne + e];
      u[j][i] = node < 0 ? V(0) : gather(node);
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
      const V d0 = d[qp * ne + e], d1 = d[(q2 + qp) * ne + e], d2 = d[(2 * q2 + qp) * ne + e];
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
      const I node = nodes[static_cast<std::size_t>(j * q1 + i) * ne + e];
      if (node >= 0) scatter(node, s);
    }
  }
}

}  // namespace hsparse::detail
