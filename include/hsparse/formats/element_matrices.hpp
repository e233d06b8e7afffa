#pragma once
/// @file
/// The element formats of the finite-element operators (Reguly and Giles,
/// section 8; fem/poisson.hpp builds them): the local matrix approach's
/// per-element matrices (LocalMatrices, eq. 12) and partial assembly's
/// quadrature-point data (QuadratureData, fem/partial_assembly.hpp). They
/// sit with the formats because the kernels of every backend
/// (kernels/lma_spmv.hpp, kernels/pa_spmv.hpp, backends/cuda/lma_spmv.hpp)
/// read them, below the FEM layer that assembles them.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hsparse/core/aligned_vector.hpp"
#include "hsparse/core/host_device.hpp"

namespace hsparse::fem {

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

// Partial assembly's data (fem/partial_assembly.hpp): per element the
// quadrature-point values D_q, with LMA's node map and colours.
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

}  // namespace hsparse::fem
