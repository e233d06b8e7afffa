#pragma once
// The finite-element application of Reguly and Giles, section 8 (issue 17):
// -Laplace(u) = f on the unit square with u = 0 on the boundary, Lagrange
// Q_p elements (p = 1..4) on an N x N quadrilateral mesh, assembled two ways:
//   - the global stiffness matrix K (eq. 10) in CSR on the interior nodes
//     (the unknowns), from which every other format converts;
//   - the local matrix approach (LMA, eq. 12): y = A^T (K_e (A x)), each
//     element's (p+1)^2 x (p+1)^2 local matrix kept as is next to the
//     element-to-node map A (kernels/lma_spmv.hpp applies it).
//
// Mesh: vertices on the uniform grid, interior vertices optionally moved by
// a deterministic pseudo-random offset of up to `perturbation` x h in each
// direction (so the matrix is not a stencil); elements are the bilinear
// images of the reference square [-1, 1]^2, and an element's nodes are the
// images of the tensor Gauss-Lobatto-Legendre points, so the nodes on an
// edge are shared exactly by its two elements. Basis: tensor products of the
// 1-D Lagrange polynomials on those points. Quadrature: Gauss-Legendre with
// p + 2 points per direction (p + 3 for the error). Dirichlet nodes are not
// unknowns: rows and columns of the boundary are dropped (K stays SPD).
//
// Node numbering: lattice node (a, b), 0 <= a, b <= pN, is the unknown
// (b - 1)(pN - 1) + (a - 1) when it is interior. Interior rows hold
// (2p + 1)^2 entries at mesh vertices: 9, 25, 49, 81 for p = 1..4.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hsparse/core/aligned_vector.hpp"
#include "hsparse/formats/csr.hpp"
#include "hsparse/formats/element_matrices.hpp"

namespace hsparse::fem {

struct PoissonOptions {
  int degree = 1;             // p: 1..4
  long long elements = 8;     // N: elements per side, >= 1
  double perturbation = 0.0;  // interior vertices moved by up to this x h per direction: [0, 0.3]
};

// Error(invalid_argument) naming the option and its valid range; Error(overflow)
// when the nodes or the nonzeros do not fit the index type I.
template <class I>
void check_poisson_options(const PoissonOptions& o);

template <class V, class I>
struct PoissonProblem {
  PoissonOptions options;
  Csr<V, I> matrix;              // K on the unknowns (symmetric positive definite)
  std::vector<V> load;           // l (eq. 11) with f = 2 pi^2 sin(pi x) sin(pi y)
  LocalMatrices<V, I> local;     // the same operator, element by element
  std::vector<double> vertex_x, vertex_y;  // (N + 1)^2 mesh vertices, a fastest (the error needs the geometry)
  long long unknowns() const { return matrix.rows; }
};

// Assembles K, l and the LMA data (OpenMP over elements of one colour).
// Checks the options and that the arrays fit in host memory before allocating.
template <class V, class I>
PoissonProblem<V, I> assemble_poisson(const PoissonOptions& o);

// The manufactured solution u = sin(pi x) sin(pi y) (f = 2 pi^2 u).
double poisson_exact(double x, double y);

// || u_h - u ||_L2 over the square for the unknowns' values u (boundary nodes 0),
// by Gauss quadrature with p + 3 points per direction. Expected rate: h^(p+1).
template <class V, class I>
double l2_error(const PoissonProblem<V, I>& problem, std::span<const V> u);

}  // namespace hsparse::fem
