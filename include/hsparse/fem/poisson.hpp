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
#include "hsparse/core/host_device.hpp"
#include "hsparse/formats/csr.hpp"

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

// Where K_e(i, j) sits among an element's stored entries (m nodes): i m + j
// for the full matrix; for the symmetric storage the upper triangle row by
// row (row i holds j = i..m-1), (i, j) and (j, i) sharing one entry.
HSPARSE_HOST_DEVICE constexpr int local_entry(int i, int j, int m, bool symmetric) {
  if (!symmetric) return i * m + j;
  const int r = i < j ? i : j, c = i < j ? j : i;
  return r * m - r * (r - 1) / 2 + (c - r);
}
HSPARSE_HOST_DEVICE constexpr int local_entries(int m, bool symmetric) { return symmetric ? m * (m + 1) / 2 : m * m; }

// The LMA data (eq. 12), stored like ELLPACK transposed (section 8.2): the
// n-th entry of every element is one contiguous block, so consecutive
// threads (elements) read consecutive words. Elements are numbered colour
// by colour: colour c = (ex % 2) + 2 (ey % 2) holds elements
// [colour_begin[c], colour_begin[c + 1]), and two elements of one colour
// share no node (a scatter without atomics, as the paper does in double).
template <class V, class I>
struct LocalMatrices {
  I rows = 0;                   // unknowns (the interior nodes)
  I elements = 0;
  int nodes_per_element = 0;    // m = (p + 1)^2
  bool symmetric = false;       // values hold the upper triangle only (upper_triangle below)
  std::vector<I> element_nodes; // m x elements: node n of element e at [n * elements + e]; -1 = a Dirichlet node
  AlignedVector<V> values;      // local_entries(m) x elements: K_e(i, j) at [local_entry(i, j) * elements + e]
  std::vector<I> colour_begin;  // 5 entries: the 4 colours' element ranges

  // Bytes an LMA product streams: the local matrices and the node map (x and y come on top).
  std::size_t bytes() const { return values.size() * sizeof(V) + element_nodes.size() * sizeof(I); }
  void validate() const;  // Error(invalid_matrix) naming the first violated rule
};

// The same operator with each K_e's upper triangle only: m (m + 1) / 2
// entries per element instead of m^2 (0.52x the bytes at Q4), which the
// paper's LMA does not do (it stores K_e as is; bench --fem shows both).
// Error(invalid_matrix) naming the element and entry where K_e is not
// symmetric (to 1e-12 of its largest entry), or when `full` is packed already.
template <class V, class I>
LocalMatrices<V, I> upper_triangle(const LocalMatrices<V, I>& full);

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
