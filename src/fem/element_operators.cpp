// The element-by-element solver operators (fem/element_operators.hpp).
#include "hsparse/fem/element_operators.hpp"

#include <cmath>
#include <span>
#include <string>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/kernels/lma_spmv.hpp"
#include "hsparse/kernels/pa_spmv.hpp"
#include "hsparse/backends/cuda/lma_spmv.hpp"

namespace hsparse::fem {

template <class V, class I>
std::vector<V> lma_inverse_diagonal(const LocalMatrices<V, I>& a) {
  const auto ne = static_cast<std::size_t>(a.elements);
  std::vector<double> diag(static_cast<std::size_t>(a.rows), 0.0);
  for (int i = 0; i < a.nodes_per_element; ++i) {
    const auto entry = static_cast<std::size_t>(local_entry(i, i, a.nodes_per_element, a.symmetric)) * ne;
    for (std::size_t e = 0; e < ne; ++e) {
      const I node = a.element_nodes[static_cast<std::size_t>(i) * ne + e];
      if (node >= 0) diag[static_cast<std::size_t>(node)] += static_cast<double>(a.values[entry + e]);
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

namespace {

// Per data type: its check, its name, and its CPU and GPU kernels.
template <class Data>
struct Kernels;

template <class V, class I>
struct Kernels<LocalMatrices<V, I>> {
  static void check(const LocalMatrices<V, I>& d) { d.validate(); }
  static std::string name(const LocalMatrices<V, I>& d) {
    return "LMA Q" + std::to_string(static_cast<int>(std::lround(std::sqrt(d.nodes_per_element))) - 1) + ", " + std::to_string(d.elements) + " elements, " +
           (d.symmetric ? "upper triangles, " : "");
  }
  static void cpu(V al, const LocalMatrices<V, I>& d, std::span<const V> x, V be, std::span<V> y) { openmp::lma_spmv<V, I>(al, d, x, be, y); }
  using Device = cuda::DeviceLocalMatrices<V, I>;
  static void gpu(const cuda::Executor& ex, LmaScatter s, V al, const Device& d, const V* x, V be, V* y) { cuda::lma_spmv<V, I>(ex, s, al, d, x, be, y); }
};

template <class V, class I>
struct Kernels<QuadratureData<V, I>> {
  static void check(const QuadratureData<V, I>&) {}  // built by partial_assembly from a checked problem
  static std::string name(const QuadratureData<V, I>& d) {
    return "sum-factorised Q" + std::to_string(d.degree) + ", " + std::to_string(d.elements) + " elements, " + std::to_string(d.points) + "^2 points each, ";
  }
  static void cpu(V al, const QuadratureData<V, I>& d, std::span<const V> x, V be, std::span<V> y) { openmp::pa_spmv<V, I>(al, d, x, be, y); }
  using Device = cuda::DeviceQuadratureData<V, I>;
  static void gpu(const cuda::Executor& ex, LmaScatter s, V al, const Device& d, const V* x, V be, V* y) { cuda::pa_spmv<V, I>(ex, s, al, d, x, be, y); }
};

}  // namespace

template <class V, class Data>
ElementOperator<V, Data>::ElementOperator(ExecutorPtr ex, Data data, LmaScatter scatter)
    : ex_(std::move(ex)), data_(std::make_shared<const Data>(std::move(data))), scatter_(scatter) {
  if (!ex_) throw Error(ErrorCode::invalid_argument, "element operator: no executor");
  Kernels<Data>::check(*data_);
  if (ex_->backend() == Backend::cpu) return;
  (void)cuda_executor(*ex_, "a GPU element operator");
  using Device = typename Kernels<Data>::Device;
  device_ = std::make_shared<const Device>(Device::upload(*data_));
}

template <class V, class Data>
LinearOperator<V> ElementOperator<V, Data>::op() const {
  const auto data = data_;
  const auto n = static_cast<std::size_t>(data->rows);
  const std::string name = Kernels<Data>::name(*data);
  if (ex_->backend() == Backend::cpu) {
    return LinearOperator<V>(
        ex_, static_cast<long long>(n),
        [data, n](V alpha, const V* x, V beta, V* y) { Kernels<Data>::cpu(alpha, *data, std::span<const V>(x, n), beta, std::span<V>(y, n)); },
        name + "coloured (CPU)");
  }
  using Device = typename Kernels<Data>::Device;
  const auto dev = std::static_pointer_cast<const Device>(device_);
  const cuda::Executor* cex = &cuda_executor(*ex_, "a GPU element operator");
  const LmaScatter scatter = scatter_;
  return LinearOperator<V>(
      ex_, static_cast<long long>(n), [dev, cex, scatter](V alpha, const V* x, V beta, V* y) { Kernels<Data>::gpu(*cex, scatter, alpha, *dev, x, beta, y); },
      name + to_string(scatter) + " (GPU)");
}

#define HSPARSE_INSTANTIATE(V, I)                                                    \
  template std::vector<V> lma_inverse_diagonal(const LocalMatrices<V, I>&);          \
  template class ElementOperator<V, LocalMatrices<V, I>>;                            \
  template class ElementOperator<V, QuadratureData<V, I>>;
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::fem
