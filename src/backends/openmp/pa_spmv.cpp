// The sum-factorised product on the CPU (kernels/pa_spmv.hpp; the partial
// assembly of MFEM and libCEED): per element (pa_element.hpp), the
// reference gradients at the Q x Q points one direction at a time (2 Q (p+1)
// (p+1 + Q) multiply-adds instead of 2 Q^2 (p+1)^2), D_q applied pointwise,
// and the transpose the same way back. Colour by colour, elements of a
// colour in parallel (no shared nodes: no atomics).
#include <string>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "pa_element.hpp"
#include "hsparse/kernels/pa_spmv.hpp"

namespace hsparse::openmp {

namespace {

// One colour's elements for degree P (the element: pa_element.hpp;
// with runtime sizes, measured on the build machine at 250 k unknowns, Q1 ran
// at 47 CG iterations/s, with compile-time ones 166).
template <int P, class V, class I>
void pa_colour(V alpha, const fem::QuadratureData<V, I>& a, std::span<const V> x, std::span<V> y, long long first, long long last) {
  const auto ne = static_cast<std::size_t>(a.elements);
#pragma omp parallel for schedule(static)
  for (long long el = first; el < last; ++el) {
    detail::pa_element<P, V, I>(
        static_cast<std::size_t>(el), ne, a.element_nodes.data(), a.d.data(), a.basis.data(), a.gradient.data(),
        [&](I node) { return x[static_cast<std::size_t>(node)]; }, [&](I node, V v) { y[static_cast<std::size_t>(node)] += alpha * v; });
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
