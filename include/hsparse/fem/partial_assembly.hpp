#pragma once
// Matrix-free, sum-factorised operator of the Poisson problem (issue 17's
// stretch; the "partial assembly" of MFEM and libCEED): per element only the
// quadrature-point data D_q = w_q |J_q|^-1 [[x_eta^2 + y_eta^2, -(x_xi x_eta + y_xi y_eta)], [., x_xi^2 + y_xi^2]]
// (3 values per point, Q = p + 2 points per direction, the assembly's rule),
// so that K_e u = sum_q grad_ref(phi)^T D_q grad_ref(u): the same operator as
// the assembled K (eq. 10) up to rounding. Sum factorisation evaluates the
// reference gradients direction by direction: O(p^3) work per element
// instead of the local matrix's O(p^4), and 3 Q^2 stored values instead of
// (p + 1)^4 (Q4: 108 against 625). Storage interleaved like LMA's (entry k of
// consecutive elements contiguous); the element-to-node map and the colours
// are LMA's (fem/poisson.hpp).
#include <vector>

#include "hsparse/core/aligned_vector.hpp"
#include "hsparse/fem/poisson.hpp"

namespace hsparse::fem {

template <class V, class I>
struct QuadratureData {
  I rows = 0, elements = 0;
  int degree = 0, points = 0;    // p, Q per direction
  std::vector<I> element_nodes;  // as LocalMatrices: node n of element e at [n * elements + e], -1 Dirichlet
  AlignedVector<V> d;            // D_q entries (00, 01, 11): entry k of point q of element e at [(k * Q^2 + q) * elements + e]
  std::vector<V> basis, gradient;  // 1-D tables, Q x (p + 1): phi_i and phi_i' at point g at [g * (p + 1) + i]
  std::vector<I> colour_begin;   // LMA's colours

  std::size_t bytes() const { return d.size() * sizeof(V) + element_nodes.size() * sizeof(I); }
};

// From the assembled problem's geometry and node map.
template <class V, class I>
QuadratureData<V, I> partial_assembly(const PoissonProblem<V, I>& problem);

}  // namespace hsparse::fem
