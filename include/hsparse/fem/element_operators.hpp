#pragma once
// The element-by-element operators of the Poisson problem as solver
// operators (solvers/linear_operator.hpp), so CG and pipelined CG run on
// them like on any SpMV plan (issue 17):
//  - LmaOperator: the local matrix approach, y = alpha A^T (K_e (A x)) + beta y (kernels/lma_spmv.hpp);
//  - PaOperator: the matrix-free, sum-factorised product (kernels/pa_spmv.hpp).
#include <memory>
#include <vector>

#include "hsparse/core/executor.hpp"
#include "hsparse/fem/partial_assembly.hpp"
#include "hsparse/fem/poisson.hpp"
#include "hsparse/kernels/lma_spmv.hpp"
#include "hsparse/solvers/linear_operator.hpp"

namespace hsparse::fem {

// Jacobi's M^-1 from the local matrices: 1 / sum over the elements holding
// a node of K_e(i, i). Error(invalid_matrix) naming the first node whose
// diagonal is zero or not finite.
template <class V, class I>
std::vector<V> lma_inverse_diagonal(const LocalMatrices<V, I>& a);

// Bytes an element product moves under the model: the data and the node map
// once, x read and y read and written once (the gathers' and scatters'
// reuse from cache taken as perfect; CSR's model counts the same way). With
// `element_traffic`, also every element's m gathered and m scattered values,
// which the GPU's reuse does not make free: the count `hsparse fem
// --operator auto` compares (docs/fem.md).
template <class V, class Data>
double element_product_bytes(const Data& d, bool element_traffic = false) {
  const double base = static_cast<double>(d.bytes()) + 3.0 * static_cast<double>(d.rows) * sizeof(V);
  return element_traffic ? base + 2.0 * static_cast<double>(d.element_nodes.size()) * sizeof(V) : base;
}

// An element-by-element operator over its data (LocalMatrices: the LMA
// product; QuadratureData: the sum-factorised one). Keeps its own copy of
// the data (shared with the operators it hands out; on a GPU executor
// uploaded once). CPU: the OpenMP kernel (colouring); GPU: the CUDA kernel
// with the chosen scatter. The kernels per data type are chosen in
// src/fem/element_operators.cpp.
template <class V, class Data>
class ElementOperator {
 public:
  ElementOperator(ExecutorPtr ex, Data data, LmaScatter scatter = LmaScatter::atomics);
  LmaScatter scatter() const { return scatter_; }
  LinearOperator<V> op() const;
  const Data& data() const { return *data_; }
  double bytes_per_product() const { return element_product_bytes<V>(*data_); }  // the minimum (above)

 private:
  ExecutorPtr ex_;
  std::shared_ptr<const Data> data_;
  LmaScatter scatter_;
  std::shared_ptr<const void> device_;  // the data's device copy on a GPU executor
};

template <class V, class I>
using LmaOperator = ElementOperator<V, LocalMatrices<V, I>>;
template <class V, class I>
using PaOperator = ElementOperator<V, QuadratureData<V, I>>;

}  // namespace hsparse::fem
