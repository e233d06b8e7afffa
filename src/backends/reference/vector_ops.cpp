// Serial definitions of the solvers' vector kernels (kernels/vector_ops.hpp):
// one loop each, sums in double, in index order. The oracle the OpenMP and
// CUDA versions are tested against.
#include "hsparse/kernels/vector_ops.hpp"

#include <cmath>

#include "../common/vector_checks.hpp"

namespace hsparse::reference {

template <class V>
dot_t<V> dot(std::span<const V> a, std::span<const V> b) {
  detail::check_same_length("dot", a.size(), b.size());
  using S = dot_t<V>;
  S s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += conj_value(static_cast<S>(a[i])) * static_cast<S>(b[i]);
  return s;
}

template <class V>
double norm2(std::span<const V> a) {
  return std::sqrt(std::real(dot<V>(a, a)));
}

template <class V>
void axpy(V alpha, std::span<const V> x, std::span<V> y) {
  detail::check_same_length("axpy", x.size(), y.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] += alpha * x[i];
}

template <class V>
void axpby(V alpha, std::span<const V> x, V beta, std::span<V> y) {
  detail::check_same_length("axpby", x.size(), y.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = beta == V(0) ? alpha * x[i] : alpha * x[i] + beta * y[i];
}

template <class V>
void mdot(std::span<const V> w, const std::vector<const V*>& vs, std::span<dot_t<V>> out) {
  detail::check_batch("mdot", vs, out.size(), w.size());
  for (std::size_t k = 0; k < vs.size(); ++k) out[k] = dot<V>(std::span<const V>(vs[k], w.size()), w);
}

template <class V>
void maxpy_sub(std::span<const dot_t<V>> coef, const std::vector<const V*>& vs, std::span<V> y) {
  detail::check_batch("maxpy", vs, coef.size(), y.size());
  for (std::size_t k = 0; k < vs.size(); ++k) {
    for (std::size_t i = 0; i < y.size(); ++i) y[i] -= static_cast<V>(coef[k]) * vs[k][i];
  }
}

template <class V>
PipelinedCgUpdateDots pipelined_cg_update(V alpha, V beta, std::span<const V> ap, std::span<const V> dinv, std::span<V> x,
                                          std::span<V> r, std::span<V> z, std::span<V> p) {
  const std::size_t n = x.size();
  for (std::size_t m : {ap.size(), r.size(), z.size(), p.size()}) detail::check_same_length("pipelined CG update", n, m);
  if (!dinv.empty()) detail::check_same_length("pipelined CG update (Jacobi)", n, dinv.size());
  PipelinedCgUpdateDots d;
  for (std::size_t i = 0; i < n; ++i) {
    x[i] += alpha * p[i];
    r[i] -= alpha * ap[i];
    z[i] = dinv.empty() ? r[i] : dinv[i] * r[i];
    p[i] = z[i] + beta * p[i];
    d.rz += static_cast<double>(r[i]) * static_cast<double>(z[i]);
    d.rr += static_cast<double>(r[i]) * static_cast<double>(r[i]);
  }
  return d;
}

template <class V>
PipelinedCgSpmvDots pipelined_cg_dots(std::span<const V> p, std::span<const V> ap, std::span<const V> dinv) {
  detail::check_same_length("pipelined CG dots", p.size(), ap.size());
  if (!dinv.empty()) detail::check_same_length("pipelined CG dots (Jacobi)", p.size(), dinv.size());
  PipelinedCgSpmvDots d;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double a = ap[i];
    d.pap += static_cast<double>(p[i]) * a;
    d.apmap += a * a * (dinv.empty() ? 1.0 : static_cast<double>(dinv[i]));
  }
  return d;
}

HSPARSE_INSTANTIATE_VECTOR_OPS(float)
HSPARSE_INSTANTIATE_VECTOR_OPS(double)
HSPARSE_INSTANTIATE_BASIC_VECTOR_OPS(std::complex<float>)
HSPARSE_INSTANTIATE_BASIC_VECTOR_OPS(std::complex<double>)

}  // namespace hsparse::reference
