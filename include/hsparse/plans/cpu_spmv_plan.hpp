#pragma once
// A CPU SpMV plan: a matrix converted once into a chosen format, with the
// kernel chosen once, reused for every product (Kokkos Kernels' handle
// idea: the second call costs nothing extra). The CLI and the benchmark go
// through it; tests exercise the kernels directly as well.
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hsparse/formats/csr.hpp"
#include "hsparse/formats/format.hpp"

namespace hsparse {

struct CpuSpmvOptions {
  Format format = Format::csr;
  std::string kernel;             // empty: the format's default (plans/spmv_kernels.hpp)
  int block = 0;                  // BCSR block size; 0: the one with the fewest bytes (1..8)
  bool align_blocks = false;      // BCSR padded/aligned variant
  int chunk = 0;                  // SELL C; 0: the SIMD width (AVX-512: 8 double / 16 float; else 4 / 8)
  long long sigma = 256;          // SELL sorting scope
  std::optional<long long> hyb_width;  // unset: cusp's rule
  double max_fill = 0;            // DIA/ELL/BCSR fill limit; 0: each format's default
};

template <class V, class I>
class CpuSpmvPlan {
 public:
  // Converts `a` (copied where the format is CSR). Throws Error(invalid_argument)
  // for an unknown kernel or a format refusing the matrix, Error(unsupported)
  // for a SIMD kernel this CPU (or this value type) lacks.
  CpuSpmvPlan(const Csr<V, I>& a, const CpuSpmvOptions& options);

  // y = alpha*A*x + beta*y in the original ordering.
  void apply(V alpha, std::span<const V> x, V beta, std::span<V> y) const { apply_(alpha, x, beta, y); }

  const std::string& description() const { return description_; }  // e.g. "sell-8-256/avx512"
  std::size_t matrix_bytes() const { return bytes_; }               // bytes of the stored format
  double setup_seconds() const { return setup_s_; }                 // conversion time
  std::size_t stored_entries() const { return stored_; }            // including padding / fill

 private:
  std::function<void(V, std::span<const V>, V, std::span<V>)> apply_;
  std::shared_ptr<const void> matrix_;  // keeps the converted matrix alive
  std::string description_;
  std::size_t bytes_ = 0, stored_ = 0;
  double setup_s_ = 0;
};

}  // namespace hsparse
