// OpenMP + SIMD versions of the solvers' vector kernels
// (kernels/vector_ops.hpp). Static schedules: each thread touches the same
// part of every vector in every kernel, so first-touch placement holds.
#include "hsparse/kernels/vector_ops.hpp"
#include "tall_skinny.hpp"

#include <cmath>
#include <complex>

#include "../common/batches.hpp"
#include "../common/vector_checks.hpp"

namespace hsparse::openmp {

namespace {
using Index = long long;

// y -= sum_k c_k v_k, y loaded and stored once per batch.
template <int B, class V>
void maxpy_batch(const dot_t<V>* c, const V* const* v, Index n, V* y) {
  V cv[B];
  for (int k = 0; k < B; ++k) cv[k] = static_cast<V>(c[k]);
#pragma omp parallel for simd schedule(static)
  for (Index i = 0; i < n; ++i) {
    V t = y[i];
    for (int k = 0; k < B; ++k) t -= cv[k] * v[k][i];
    y[i] = t;
  }
}

}  // namespace

template <class V>
dot_t<V> dot(std::span<const V> a, std::span<const V> b) {
  detail::check_same_length("dot", a.size(), b.size());
  const Index n = static_cast<Index>(a.size());
  const V* x = a.data();
  const V* y = b.data();
  if constexpr (is_complex_v<V>) {  // conj(x) y, its two parts reduced apart (OpenMP reduces arithmetic types)
    double re = 0, im = 0;
#pragma omp parallel for schedule(static) reduction(+ : re, im)
    for (Index i = 0; i < n; ++i) {
      const std::complex<double> p = std::conj(std::complex<double>(x[i])) * std::complex<double>(y[i]);
      re += p.real();
      im += p.imag();
    }
    return {re, im};
  } else {
    double s = 0;
#pragma omp parallel for simd schedule(static) reduction(+ : s)
    for (Index i = 0; i < n; ++i) s += static_cast<double>(x[i]) * static_cast<double>(y[i]);
    return s;
  }
}

template <class V>
double norm2(std::span<const V> a) {
  return std::sqrt(std::real(dot<V>(a, a)));
}

template <class V>
void axpy(V alpha, std::span<const V> x, std::span<V> y) {
  detail::check_same_length("axpy", x.size(), y.size());
  const Index n = static_cast<Index>(x.size());
  const V* xs = x.data();
  V* ys = y.data();
#pragma omp parallel for simd schedule(static)
  for (Index i = 0; i < n; ++i) ys[i] += alpha * xs[i];
}

template <class V>
void axpby(V alpha, std::span<const V> x, V beta, std::span<V> y) {
  detail::check_same_length("axpby", x.size(), y.size());
  const Index n = static_cast<Index>(x.size());
  const V* xs = x.data();
  V* ys = y.data();
  if (beta == V(0)) {
#pragma omp parallel for simd schedule(static)
    for (Index i = 0; i < n; ++i) ys[i] = alpha * xs[i];
  } else {
#pragma omp parallel for simd schedule(static)
    for (Index i = 0; i < n; ++i) ys[i] = alpha * xs[i] + beta * ys[i];
  }
}

template <class V>
void mdot(std::span<const V> w, const std::vector<const V*>& vs, std::span<dot_t<V>> out) {
  detail::check_batch("mdot", vs, out.size(), w.size());
  if constexpr (is_complex_v<V>) {  // the tall-skinny kernel is real: one conjugated dot per vector
    for (std::size_t k = 0; k < vs.size(); ++k) out[k] = dot<V>(std::span<const V>(vs[k], w.size()), w);
  } else {
    // V^T w with V's columns given as pointers: the tall-skinny product's
    // kernel (tall_skinny.cpp), which reads w and each v once per row block
    // and adds the thread partials in order.
    const V* wp = w.data();
    block_dots<V, double>(vs.data(), static_cast<long long>(vs.size()), &wp, 1, static_cast<long long>(w.size()), out.data());
  }
}

template <class V>
void maxpy_sub(std::span<const dot_t<V>> coef, const std::vector<const V*>& vs, std::span<V> y) {
  detail::check_batch("maxpy", vs, coef.size(), y.size());
  const Index n = static_cast<Index>(y.size());
  detail::for_each_batch(vs.size(), [&](std::size_t k, int b) {
    const V* const* v = vs.data() + k;
    switch (b) {
      case 8: maxpy_batch<8>(coef.data() + k, v, n, y.data()); break;
      case 4: maxpy_batch<4>(coef.data() + k, v, n, y.data()); break;
      case 3: maxpy_batch<3>(coef.data() + k, v, n, y.data()); break;
      case 2: maxpy_batch<2>(coef.data() + k, v, n, y.data()); break;
      default: maxpy_batch<1>(coef.data() + k, v, n, y.data()); break;
    }
  });
}

template <class V>
PipelinedCgUpdateDots pipelined_cg_update(V alpha, V beta, std::span<const V> ap, std::span<const V> dinv, std::span<V> x,
                                          std::span<V> r, std::span<V> z, std::span<V> p) {
  const std::size_t size = x.size();
  for (std::size_t m : {ap.size(), r.size(), z.size(), p.size()}) detail::check_same_length("pipelined CG update", size, m);
  if (!dinv.empty()) detail::check_same_length("pipelined CG update (Jacobi)", size, dinv.size());
  const Index n = static_cast<Index>(size);
  const V* aps = ap.data();
  const V* d = dinv.empty() ? nullptr : dinv.data();
  V* xs = x.data();
  V* rs = r.data();
  V* zs = z.data();
  V* ps = p.data();
  double rz = 0, rr = 0;
#pragma omp parallel for simd schedule(static) reduction(+ : rz, rr)
  for (Index i = 0; i < n; ++i) {
    xs[i] += alpha * ps[i];
    const V ri = rs[i] - alpha * aps[i];
    rs[i] = ri;
    const V zi = d ? d[i] * ri : ri;
    zs[i] = zi;
    ps[i] = zi + beta * ps[i];
    rz += static_cast<double>(ri) * static_cast<double>(zi);
    rr += static_cast<double>(ri) * static_cast<double>(ri);
  }
  return {rz, rr};
}

template <class V>
PipelinedCgSpmvDots pipelined_cg_dots(std::span<const V> p, std::span<const V> ap, std::span<const V> dinv) {
  detail::check_same_length("pipelined CG dots", p.size(), ap.size());
  if (!dinv.empty()) detail::check_same_length("pipelined CG dots (Jacobi)", p.size(), dinv.size());
  const Index n = static_cast<Index>(p.size());
  const V* ps = p.data();
  const V* aps = ap.data();
  const V* d = dinv.empty() ? nullptr : dinv.data();
  double pap = 0, apmap = 0;
#pragma omp parallel for simd schedule(static) reduction(+ : pap, apmap)
  for (Index i = 0; i < n; ++i) {
    const double a = aps[i];
    pap += static_cast<double>(ps[i]) * a;
    apmap += a * a * (d ? static_cast<double>(d[i]) : 1.0);
  }
  return {pap, apmap};
}

HSPARSE_INSTANTIATE_VECTOR_OPS(float)
HSPARSE_INSTANTIATE_VECTOR_OPS(double)
HSPARSE_INSTANTIATE_BASIC_VECTOR_OPS(std::complex<float>)
HSPARSE_INSTANTIATE_BASIC_VECTOR_OPS(std::complex<double>)

}  // namespace hsparse::openmp
