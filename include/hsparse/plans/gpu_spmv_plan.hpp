#pragma once
// A GPU SpMV plan: a host CSR matrix converted to a format (COO, ELL and HYB
// on the GPU after uploading the CSR; the others on the host, by the CPU's
// conversions) and kept on the device, with the kernel, its
// parameters and its workspace chosen once. apply() launches on the
// executor's stream with device pointers. CUDA builds only.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hsparse/backends/cuda/csr_spmv.hpp"
#include "hsparse/plans/cpu_spmv_plan.hpp"

namespace hsparse::cuda {

struct GpuSpmvOptions {
  Format format = Format::csr;
  std::string kernel;            // empty: the format's default (plans/spmv_kernels.hpp)
  CsrVectorParams vector{0, 0, 0};  // CSR vector: any zero field is taken from the fixed rule
  int chunk = 32;                // SELL C (32: a warp per chunk)
  long long sigma = 1;           // SELL sorting scope
  int threads_per_row = 4;       // SELL "threads" kernel
  int block = 0;                 // BCSR block size; 0: the one with the fewest bytes (1..8)
  std::optional<long long> hyb_width;
  double max_fill = 0;           // 0: each format's default limit
  bool convert_on_device = true; // COO, ELL, HYB: upload CSR and convert on the GPU (faster; same result)
  bool cusparse_preprocess = true;  // cuSPARSE CSR ALG1/ALG2: run cusparseSpMV_preprocess at setup
};

template <class V, class I>
class GpuSpmvPlan {
 public:
  GpuSpmvPlan(const Executor& ex, const Csr<V, I>& a, const GpuSpmvOptions& options);
  ~GpuSpmvPlan();
  GpuSpmvPlan(GpuSpmvPlan&&) noexcept;
  // y = alpha*A*x + beta*y, x and y device pointers in the original ordering.
  void apply(V alpha, const V* x, V beta, V* y) const { apply_(alpha, x, beta, y); }
  const std::string& description() const { return description_; }
  double setup_seconds() const { return setup_s_; }  // conversion + upload + preprocessing
  std::size_t matrix_bytes() const { return bytes_; }     // device bytes of the stored format (no workspace)
  std::size_t stored_entries() const { return stored_; }  // values stored, padding and block fill included

 private:
  struct Storage;
  std::unique_ptr<Storage> storage_;
  std::function<void(V, const V*, V, V*)> apply_;
  std::string description_;
  double setup_s_ = 0;
  std::size_t bytes_ = 0, stored_ = 0;
};

}  // namespace hsparse::cuda
