#pragma once
// The local matrix approach as a solver operator (solvers/linear_operator.hpp):
// y = alpha A^T (K_e (A x)) + beta y (kernels/lma_spmv.hpp) on an executor,
// so CG and pipelined CG run on it like on any SpMV plan (issue 17).
#include <memory>
#include <vector>

#include "hsparse/core/executor.hpp"
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

}  // namespace hsparse::fem
