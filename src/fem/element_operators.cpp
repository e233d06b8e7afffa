// The element-by-element solver operators (fem/element_operators.hpp).
#include "hsparse/fem/element_operators.hpp"

#include <cmath>
#include <span>
#include <string>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/kernels/lma_spmv.hpp"
#include "hsparse/kernels/pa_spmv.hpp"
#ifdef HSPARSE_HAVE_CUDA
#include "hsparse/backends/cuda/lma_spmv.hpp"
#endif

namespace hsparse::fem {

template <class V, class I>
std::vector<V> lma_inverse_diagonal(const LocalMatrices<V, I>& a) {
  const auto m = static_cast<std::size_t>(a.nodes_per_element), ne = static_cast<std::size_t>(a.elements);
  std::vector<double> diag(static_cast<std::size_t>(a.rows), 0.0);
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t e = 0; e < ne; ++e) {
      const I node = a.element_nodes[i * ne + e];
      if (node >= 0) diag[static_cast<std::size_t>(node)] += static_cast<double>(a.values[(i * m + i) * ne + e]);
    }
  }
  std::vector<V> inv(diag.size());
  for (std::size_t r = 0; r < diag.size(); ++r) {
    if (diag[r] == 0.0 || !std::isfinite(diag[r])) {
      throw Error(ErrorCode::invalid_matrix, "LMA: the diagonal of unknown " + std::to_string(r) + " is " + std::to_string(diag[r]) + ": no Jacobi");
    }
    inv[r] = static_cast<V>(1.0 / diag[r]);
  }
  return inv;
}

template <class V, class I>
LmaOperator<V, I>::LmaOperator(ExecutorPtr ex, LocalMatrices<V, I> local, LmaScatter scatter)
    : ex_(std::move(ex)), local_(std::make_shared<const LocalMatrices<V, I>>(std::move(local))), scatter_(scatter) {
  if (!ex_) throw Error(ErrorCode::invalid_argument, "LmaOperator: no executor");
  local_->validate();
  if (ex_->backend() == Backend::cpu) return;
#ifdef HSPARSE_HAVE_CUDA
  (void)cuda_executor(*ex_, "the GPU LMA operator");
  device_ = std::make_shared<const cuda::DeviceLocalMatrices<V, I>>(cuda::DeviceLocalMatrices<V, I>::upload(*local_));
#else
  throw Error(ErrorCode::unsupported, "the LMA operator on " + ex_->description() + ": this build has no CUDA");
#endif
}

template <class V, class I>
LinearOperator<V> LmaOperator<V, I>::op() const {
  const auto local = local_;
  const auto n = static_cast<std::size_t>(local->rows);
  const std::string name = "LMA Q" + std::to_string(static_cast<int>(std::lround(std::sqrt(local->nodes_per_element))) - 1) + ", " +
                           std::to_string(local->elements) + " elements, ";
  if (ex_->backend() == Backend::cpu) {
    return LinearOperator<V>(
        ex_, static_cast<long long>(n),
        [local, n](V alpha, const V* x, V beta, V* y) { openmp::lma_spmv<V, I>(alpha, *local, std::span<const V>(x, n), beta, std::span<V>(y, n)); },
        name + "coloured (CPU)");
  }
#ifdef HSPARSE_HAVE_CUDA
  const auto dev = std::static_pointer_cast<const cuda::DeviceLocalMatrices<V, I>>(device_);
  const cuda::Executor* cex = &cuda_executor(*ex_, "the GPU LMA operator");
  const LmaScatter scatter = scatter_;
  return LinearOperator<V>(
      ex_, static_cast<long long>(n), [dev, cex, scatter](V alpha, const V* x, V beta, V* y) { cuda::lma_spmv<V, I>(*cex, scatter, alpha, *dev, x, beta, y); },
      name + to_string(scatter) + " (GPU)");
#else
  throw Error(ErrorCode::internal, "LmaOperator: a GPU executor in a build without CUDA");
#endif
}

template <class V, class I>
double LmaOperator<V, I>::bytes_per_product() const {
  return static_cast<double>(local_->bytes()) + 3.0 * static_cast<double>(local_->rows) * sizeof(V);
}

template <class V, class I>
PaOperator<V, I>::PaOperator(ExecutorPtr ex, QuadratureData<V, I> data, LmaScatter scatter)
    : ex_(std::move(ex)), data_(std::make_shared<const QuadratureData<V, I>>(std::move(data))), scatter_(scatter) {
  if (!ex_) throw Error(ErrorCode::invalid_argument, "PaOperator: no executor");
  if (ex_->backend() == Backend::cpu) return;
#ifdef HSPARSE_HAVE_CUDA
  (void)cuda_executor(*ex_, "the GPU sum-factorised operator");
  device_ = std::make_shared<const cuda::DeviceQuadratureData<V, I>>(cuda::DeviceQuadratureData<V, I>::upload(*data_));
#else
  throw Error(ErrorCode::unsupported, "the sum-factorised operator on " + ex_->description() + ": this build has no CUDA");
#endif
}

template <class V, class I>
LinearOperator<V> PaOperator<V, I>::op() const {
  const auto data = data_;
  const auto n = static_cast<std::size_t>(data->rows);
  const std::string name = "sum-factorised Q" + std::to_string(data->degree) + ", " + std::to_string(data->elements) + " elements, " +
                           std::to_string(data->points) + "^2 points each, ";
  if (ex_->backend() == Backend::cpu) {
    return LinearOperator<V>(
        ex_, static_cast<long long>(n),
        [data, n](V alpha, const V* x, V beta, V* y) { openmp::pa_spmv<V, I>(alpha, *data, std::span<const V>(x, n), beta, std::span<V>(y, n)); },
        name + "coloured (CPU)");
  }
#ifdef HSPARSE_HAVE_CUDA
  const auto dev = std::static_pointer_cast<const cuda::DeviceQuadratureData<V, I>>(device_);
  const cuda::Executor* cex = &cuda_executor(*ex_, "the GPU sum-factorised operator");
  const LmaScatter scatter = scatter_;
  return LinearOperator<V>(
      ex_, static_cast<long long>(n), [dev, cex, scatter](V alpha, const V* x, V beta, V* y) { cuda::pa_spmv<V, I>(*cex, scatter, alpha, *dev, x, beta, y); },
      name + to_string(scatter) + " (GPU)");
#else
  throw Error(ErrorCode::internal, "PaOperator: a GPU executor in a build without CUDA");
#endif
}

template <class V, class I>
double PaOperator<V, I>::bytes_per_product() const {
  return static_cast<double>(data_->bytes()) + 3.0 * static_cast<double>(data_->rows) * sizeof(V);
}

#define HSPARSE_INSTANTIATE(V, I)                                                    \
  template std::vector<V> lma_inverse_diagonal(const LocalMatrices<V, I>&);          \
  template class LmaOperator<V, I>;                                                  \
  template class PaOperator<V, I>;
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::fem
