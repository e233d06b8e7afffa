#pragma once
// The matrix-free, sum-factorised product (fem/partial_assembly.hpp):
// y = alpha sum_e A_e^T B_e^T D_e B_e A_e x + beta y, B_e the reference
// gradients at the quadrature points. beta == 0: y is not read.
//
//   hsparse::reference::pa_spmv  src/backends/reference/pa_spmv.cpp  element by element, gradients by full sums (O(p^4)): the definition
//   hsparse::openmp::pa_spmv     src/backends/openmp/pa_spmv.cpp     colour by colour, gradients one direction at a time (O(p^3))
#include <span>

#include "hsparse/formats/element_matrices.hpp"

namespace hsparse {

namespace reference {
template <class V, class I>
void pa_spmv(V alpha, const fem::QuadratureData<V, I>& a, std::span<const V> x, V beta, std::span<V> y);
}
namespace openmp {
template <class V, class I>
void pa_spmv(V alpha, const fem::QuadratureData<V, I>& a, std::span<const V> x, V beta, std::span<V> y);
}

}  // namespace hsparse
