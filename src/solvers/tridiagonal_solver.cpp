// The tridiagonal entry point (solvers/tridiagonal.hpp): the executor's
// backend decides which solver runs; the algorithm names are checked here,
// once, for both.
#include "hsparse/solvers/tridiagonal.hpp"

#include <span>

#include "hsparse/backends/cuda/tridiagonal.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse {

const std::vector<std::string>& tridiagonal_algorithms(Backend backend) {
  static const std::vector<std::string> cpu = {"auto", "thomas", "reference"};
  static const std::vector<std::string> gpu = {"auto", "thomas", "cr", "pcr", "hybrid", "partition", "cusparse"};
  return backend == Backend::cuda ? gpu : cpu;
}

namespace {
void check_algorithm(Backend backend, const std::string& algorithm) {
  std::string known;
  for (const auto& a : tridiagonal_algorithms(backend)) {
    if (a == algorithm) return;
    known += (known.empty() ? "" : ", ") + a;
  }
  throw Error(ErrorCode::invalid_argument, "tridiagonal algorithm '" + algorithm + "' on " + to_string(backend) + " (known there: " + known + ")");
}
}  // namespace

template <class V>
TridiagonalSolver<V>::TridiagonalSolver(ExecutorPtr ex) : ex_(std::move(ex)) {
  if (!ex_) throw Error(ErrorCode::invalid_argument, "a tridiagonal solver needs an executor (null given)");
  if (ex_->backend() == Backend::cuda) device_ = std::make_shared<cuda::TridiagonalSolver<V>>(cuda_executor(*ex_, "a GPU tridiagonal solver"));
}

template <class V>
TridiagonalSolver<V>::~TridiagonalSolver() = default;
template <class V>
TridiagonalSolver<V>::TridiagonalSolver(TridiagonalSolver&&) noexcept = default;
template <class V>
TridiagonalSolver<V>& TridiagonalSolver<V>::operator=(TridiagonalSolver&&) noexcept = default;

template <class V>
void TridiagonalSolver<V>::solve(const TridiagonalSystems<V>& s, const V* d, V* x, const TridiagonalOptions& o) {
  check_algorithm(ex_->backend(), o.algorithm);
  check_tridiagonal_shape(s);
  const auto n = static_cast<std::size_t>(s.entries());
  switch (ex_->backend()) {
    case Backend::cpu:
      if (o.algorithm == "reference") {
        reference::tridiagonal_solve<V>(s, std::span<const V>(d, n), std::span<V>(x, n));
        description_ = "thomas (serial reference)";
      } else {
        openmp::tridiagonal_solve<V>(s, std::span<const V>(d, n), std::span<V>(x, n));
        description_ = "thomas (openmp)";
      }
      return;
    case Backend::cuda: {
      auto& gpu = *std::static_pointer_cast<cuda::TridiagonalSolver<V>>(device_);
      if (o.algorithm == "cusparse") {
        if (s.size < 3 && s.count > 0) {
          throw Error(ErrorCode::invalid_argument, "tridiagonal algorithm cusparse: cuSPARSE's gtsv2 takes systems of at least 3 unknowns, this batch has " +
                                                       std::to_string(s.size));
        }
        gpu.cusparse_solve(s, d, x);
        description_ = "cusparse gtsv2 (with its copies)";
        return;
      }
      cuda::TridiagonalOptions co;
      co.algorithm = o.algorithm == "auto" ? cuda::TridiagonalAlgorithm::automatic : cuda::parse_tridiagonal_algorithm(o.algorithm);
      if (o.hybrid_switch > 0) co.hybrid_switch = o.hybrid_switch;
      if (o.partition_rows > 0) co.partition_rows = o.partition_rows;
      gpu.solve(s, d, x, co);
      description_ = gpu.description();
      return;
    }
  }
}

template <class V>
void TridiagonalSolver<V>::check() {
  if (device_) std::static_pointer_cast<cuda::TridiagonalSolver<V>>(device_)->check();
}

template class TridiagonalSolver<float>;
template class TridiagonalSolver<double>;

}  // namespace hsparse
