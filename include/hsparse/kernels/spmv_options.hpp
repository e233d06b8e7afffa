#pragma once
/// @file
/// What an SpMV plan is asked for (SpmvOptions: format, kernel, layout and
/// the kernels' knobs) and what a backend's builder gives back (SpmvParts:
/// the product and what the plan reports). They sit with the kernels,
/// below the plans (plans/spmv_plan.hpp), because the backends' builders
/// (backends/*/spmv_plan.cpp) take the one and return the other.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "hsparse/backends/cuda/csr_spmv.hpp"
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
  /// CUDA only (ignored by the CPU, which has no such kernels):
  cuda::CsrVectorParams vector{0, 0, 0};  ///< CSR vector: a zero field is the fixed rule's
  int threads_per_row = 4;                ///< SELL "threads" kernel
  int bcsr_lanes = 0;                     ///< BCSR by-column: lanes per block row, 4, 8, 16 or 32 (0: from the mean block row)
  int slabs = 0;                          ///< CSR slabs: column slabs, 1..64 (0: x's bytes over a third of L2, kernels/csr_slabs.hpp)
  bool convert_on_device = true;          ///< COO, ELL, HYB, DIA, BCSR, SELL, CSR16, CSR panels: upload the CSR and convert on the GPU
  bool cusparse_preprocess = true;        ///< cuSPARSE CSR ALG1/ALG2: cusparseSpMV_preprocess at setup
  /// Keep x in L2 during each product (an access-policy window on the
  /// stream, backends/cuda/l2_window.hpp): `automatic` lets the backend
  /// decide (cuda::keep_x_in_l2), `on` / `off` force it. Never applied to the
  /// cuSPARSE baselines, which run as their users run them.
  enum class XInL2 { automatic, on, off };
  XInL2 x_in_l2 = XInL2::automatic;  ///< CUDA: x kept in L2 (XInL2)
};

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
