#pragma once
// The element-by-element products on the GPU: LMA and the sum-factorised
// (matrix-free) one.
//
// The local matrix approach's product on the GPU (kernels/lma_spmv.hpp;
// Reguly and Giles, section 8.2, eq. 12): a block takes 32 consecutive
// elements and gathers their m nodal values of x into shared memory; warp i
// then forms row i of K_e x_e for the 32 elements (the n-th entry of
// consecutive elements is contiguous: every load is coalesced) and
// scatter-adds it to y.
// Two scatters (section 8.3): native atomicAdd (float, and double, which
// Fermi lacked and Hopper has), or element colouring (a launch per colour;
// elements of one colour share no node, so plain adds suffice).
#include <vector>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/formats/element_matrices.hpp"
#include "hsparse/kernels/lma_spmv.hpp"

namespace hsparse::cuda {

template <class V, class I>
struct DeviceLocalMatrices {
  I rows = 0, elements = 0;
  int nodes_per_element = 0;
  bool symmetric = false;
  DeviceArray<I> element_nodes;
  DeviceArray<V> values;
  std::vector<I> colour_begin;  // host: the colours' element ranges
  static DeviceLocalMatrices upload(const fem::LocalMatrices<V, I>& a) {
    return DeviceLocalMatrices{a.rows, a.elements, a.nodes_per_element, a.symmetric, DeviceArray<I>(a.element_nodes),
                               DeviceArray<V>(a.values), a.colour_begin};
  }
};

// y = alpha A^T K_e A x + beta y on the executor's stream, x and y device
// pointers of a.rows values (beta == 0: y not read). Q1-Q4 (m = 4, 9, 16, 25).
template <class V, class I>
void lma_spmv(const Executor& ex, LmaScatter scatter, V alpha, const DeviceLocalMatrices<V, I>& a, const V* x, V beta, V* y);

// The sum-factorised product (kernels/pa_spmv.hpp): 32 elements a block,
// the stages of sum factorisation shared by Q rows of threads through shared
// memory (src/backends/cuda/pa_spmv.cu), the quadrature data read coalesced,
// the same scatters as LMA's.
template <class V, class I>
struct DeviceQuadratureData {
  I rows = 0, elements = 0;
  int degree = 0, points = 0;
  DeviceArray<I> element_nodes;
  DeviceArray<V> d, basis, gradient;
  std::vector<I> colour_begin;
  static DeviceQuadratureData upload(const fem::QuadratureData<V, I>& a) {
    return DeviceQuadratureData{a.rows, a.elements, a.degree, a.points, DeviceArray<I>(a.element_nodes), DeviceArray<V>(a.d),
                                DeviceArray<V>(a.basis), DeviceArray<V>(a.gradient), a.colour_begin};
  }
};
template <class V, class I>
void pa_spmv(const Executor& ex, LmaScatter scatter, V alpha, const DeviceQuadratureData<V, I>& a, const V* x, V beta, V* y);

}  // namespace hsparse::cuda
