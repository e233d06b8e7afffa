#pragma once
/// @file
/// What an SpMV plan is asked for (SpmvOptions: format, kernel, layout and
/// the kernels' knobs) and what a backend's builder gives back (SpmvParts:
/// the product and what the plan reports). They sit with the kernels,
/// below the plans (plans/spmv_plan.hpp), because the backends' builders
/// (backends/*/spmv_plan.cpp) take the one and return the other.
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "hsparse/dense/dense_matrix.hpp"
#include "hsparse/formats/format.hpp"

namespace hsparse {

/// How an SpmvPlan stores the matrix and which kernel it runs.
struct SpmvOptions {
  /// The storage format. Empty ("auto"): the library chooses format, kernel
  /// and layout, once, in SpmvPlan's constructor (resolve_spmv_options: the
  /// one place "auto" is decided), for `spmv_count` products; layout fields
  /// set here still apply, and a kernel may not be named (it belongs to a format).
  std::optional<Format> format = Format::csr;
  std::string kernel;     ///< empty: the format's default on the executor's backend (kernels/spmv_registry.hpp)
  long long spmv_count = 1000;  ///< "auto": the products the choice must pay off over (setup included), >= 1
  double value_tolerance = 0;   ///< "auto": lossy formats (csr16-single) only where their rounding is within this
  /// The layout: BCSR block (0: the fewest bytes in 1..8), SELL C (0: the
  /// backend's: the SIMD width on the CPU, a warp of 32 on the GPU) and
  /// sigma (0: the backend's: 256 on the CPU, 1 on the GPU), HYB's ELL
  /// width, the fill limit (0: the format's).
  FormatOptions layout;
  /// The chosen kernel's own parameters by name, each one the kernel
  /// registers (kernels/spmv_registry.hpp, SpmvKernel::params; `hsparse info
  /// --formats` lists them), within its range: CUDA CSR vector's coop,
  /// repeat and block, SELL threads' threads, BCSR by-column's lanes, CSR
  /// slabs' slabs, the cuSPARSE baselines' preprocess, and every CUDA
  /// kernel's x_in_l2 and (formats converted on the GPU) convert_on_device.
  /// A parameter the kernel does not take is an error, never ignored.
  /// Absent: the kernel's own rule.
  std::map<std::string, long long> params;
};

/// A kernel parameter's value, or `fallback` where the options leave it to the kernel.
inline long long kernel_param(const SpmvOptions& o, const std::string& name, long long fallback) {
  const auto p = o.params.find(name);
  return p == o.params.end() ? fallback : p->second;
}

/// @cond HSPARSE_INTERNAL
/// What a backend's builder hands the plan; not for users.
template <class V>
struct SpmvParts {
  std::function<void(V, const V*, V, V*)> apply;
  std::function<void(V, const ConstDenseView<V>&, V, const DenseView<V>&)> apply_block;  ///< SpMM; empty: column by column
  std::shared_ptr<const void> storage;  ///< the converted matrix and workspace, kept alive
  std::string description;
  std::size_t bytes = 0, stored = 0;
};
/// @endcond

}  // namespace hsparse
