#pragma once
// The local matrix approach's product (Reguly and Giles, section 8.2, eq. 12):
// y = alpha A^T (K_e (A x)) + beta y, A the element-to-node map (gather of
// each element's m nodal values, Dirichlet nodes as 0), K_e the element
// matrices (fem/poisson.hpp's LocalMatrices), A^T the scatter-add of the m
// products back to the nodes. beta == 0: y is not read.
//
//   hsparse::reference::lma_spmv  src/backends/reference/lma_spmv.cpp  element by element, the definition
//   hsparse::openmp::lma_spmv     src/backends/openmp/lma_spmv.cpp     colour by colour, elements of a colour in parallel
//                                                                      (they share no node: no atomics)
//   hsparse::cuda::lma_spmv       backends/cuda/lma_spmv.hpp           32 elements a block, a warp per row of K_e;
//                                                                      atomics or colouring
#include <span>
#include <string>

#include "hsparse/formats/element_matrices.hpp"

namespace hsparse {

// How the GPU product avoids racing scatter-adds (section 8.3): native
// atomicAdd, or a launch per element colour. The CPU always colours.
enum class LmaScatter { atomics, colouring };
const char* to_string(LmaScatter s);
LmaScatter parse_lma_scatter(const std::string& name);  // atomics, colouring; Error(invalid_argument) naming both

// Error(invalid_argument) unless x and y hold a.rows values.
template <class V, class I>
void check_lma_sizes(const fem::LocalMatrices<V, I>& a, std::size_t x, std::size_t y);

namespace reference {
template <class V, class I>
void lma_spmv(V alpha, const fem::LocalMatrices<V, I>& a, std::span<const V> x, V beta, std::span<V> y);
}
namespace openmp {
template <class V, class I>
void lma_spmv(V alpha, const fem::LocalMatrices<V, I>& a, std::span<const V> x, V beta, std::span<V> y);
}

}  // namespace hsparse
