#pragma once
// The per-entry arithmetic of pipelined BiCGStab's two fused kernels
// (kernels/pipelined_bicgstab.hpp), shared by the serial and OpenMP loops so
// that both compute each entry the same way: the loops differ only in how
// they split the entries and add the sums.
#include <array>
#include <complex>

#include "hsparse/core/types.hpp"
#include "hsparse/kernels/pipelined_bicgstab.hpp"

namespace hsparse::detail {

// conj(a) b in the sums' type.
template <class V>
dot_t<V> conj_product(V a, V b) {
  return conj_value(static_cast<dot_t<V>>(a)) * static_cast<dot_t<V>>(b);
}

// Entry i of the directions kernel; adds <y, q> and <y, y> into sums.
template <class V>
inline void pipelined_bicgstab_directions_at(std::size_t i, bool first, V alpha, V beta, V omega, const PipelinedBicgstabVectors<V>& v,
                                             std::array<dot_t<V>, 2>& sums) {
  if (first) {
    v.p2[i] = v.r2[i];
    v.s[i] = v.w[i];
    v.s2[i] = v.w2[i];
    v.z[i] = v.t[i];
  } else {
    v.p2[i] = v.r2[i] + beta * (v.p2[i] - omega * v.s2[i]);
    v.s[i] = v.w[i] + beta * (v.s[i] - omega * v.z[i]);
    v.s2[i] = v.w2[i] + beta * (v.s2[i] - omega * v.z2[i]);
    v.z[i] = v.t[i] + beta * (v.z[i] - omega * v.v[i]);
  }
  const V q = v.r[i] - alpha * v.s[i], y = v.w[i] - alpha * v.z[i];
  v.q[i] = q;
  v.q2[i] = v.r2[i] - alpha * v.s2[i];
  v.y[i] = y;
  sums[0] += conj_product(y, q);
  sums[1] += conj_product(y, y);
}

// Entry i of the residuals kernel; adds its five sums.
template <class V>
inline void pipelined_bicgstab_residuals_at(std::size_t i, V alpha, V omega, const PipelinedBicgstabVectors<V>& v, std::array<dot_t<V>, 5>& sums) {
  v.x[i] += alpha * v.p2[i] + omega * v.q2[i];
  const V r = v.q[i] - omega * v.y[i];
  v.r[i] = r;
  v.r2[i] = v.q2[i] - omega * (v.w2[i] - alpha * v.z2[i]);
  const V w = v.y[i] - omega * (v.t[i] - alpha * v.v[i]);
  v.w[i] = w;
  const V rh = v.rhat[i];
  sums[0] += conj_product(rh, r);
  sums[1] += conj_product(rh, v.s[i]);
  sums[2] += conj_product(rh, w);
  sums[3] += conj_product(rh, v.z[i]);
  sums[4] += conj_product(r, r);
}

}  // namespace hsparse::detail
