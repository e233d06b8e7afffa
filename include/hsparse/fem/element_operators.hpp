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

// Keeps its own copy of the local matrices (shared with the operators it
// hands out; on a GPU executor uploaded once). CPU: the OpenMP kernel
// (colouring). GPU: the CUDA kernel with the chosen scatter.
template <class V, class I>
class LmaOperator {
 public:
  LmaOperator(ExecutorPtr ex, LocalMatrices<V, I> local, LmaScatter scatter = LmaScatter::atomics);
  LmaScatter scatter() const { return scatter_; }
  LinearOperator<V> op() const;
  const LocalMatrices<V, I>& local() const { return *local_; }
  // Bytes one product moves at least (the model CSR's byte count follows):
  // the local matrices and the node map once, x read and y read and
  // written once (the gathers' and scatters' reuse from cache taken as perfect).
  double bytes_per_product() const;

 private:
  ExecutorPtr ex_;
  std::shared_ptr<const LocalMatrices<V, I>> local_;
  LmaScatter scatter_;
  std::shared_ptr<const void> device_;  // cuda::DeviceLocalMatrices<V, I> on a GPU executor
};

// Keeps its own copy of the quadrature data (on a GPU executor uploaded
// once). CPU: the OpenMP kernel (colouring); GPU: the CUDA kernel with the
// chosen scatter.
template <class V, class I>
class PaOperator {
 public:
  PaOperator(ExecutorPtr ex, QuadratureData<V, I> data, LmaScatter scatter = LmaScatter::atomics);
  LinearOperator<V> op() const;
  const QuadratureData<V, I>& data() const { return *data_; }
  // The quadrature data and the node map once, x read and y read and written once.
  double bytes_per_product() const;

 private:
  ExecutorPtr ex_;
  std::shared_ptr<const QuadratureData<V, I>> data_;
  LmaScatter scatter_;
  std::shared_ptr<const void> device_;  // cuda::DeviceQuadratureData<V, I> on a GPU executor
};

}  // namespace hsparse::fem
