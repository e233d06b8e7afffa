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

#include "hsparse/fem/poisson.hpp"
#include "hsparse/formats/element_matrices.hpp"

namespace hsparse::fem {

// From the assembled problem's geometry and node map.
template <class V, class I>
QuadratureData<V, I> partial_assembly(const PoissonProblem<V, I>& problem);

}  // namespace hsparse::fem
