#pragma once
// The baseline of the solver benchmark: unpreconditioned CG built from
// cuSPARSE's CSR SpMV (generic API, default algorithm) and cuBLAS
// dot/axpy/scal/copy in host pointer mode, the textbook "BLAS-based" CG of
// Rupp's lecture. It reports in its own small struct: the solvers' types
// sit in a layer above the backends (the bench converts, bench/baseline_cg.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include "hsparse/backends/cuda/device.hpp"

namespace hsparse::cuda {

/// Why the baseline stopped, and where.
struct BaselineCgResult {
  enum class Stop { converged, max_iterations, breakdown, non_finite };
  Stop stop = Stop::max_iterations;
  int iterations = 0;              ///< iterations completed
  double relative_residual = 0;    ///< the recurrence's ||r|| / ||b||
  std::vector<double> history;     ///< before the first iteration and after each (with record_history)
  double seconds = 0;              ///< the iterations
  double setup_seconds = 0;        ///< upload, cuSPARSE's preprocessing, the first residual
  std::string message;             ///< why it stopped, in words
};

// b and x: device vectors of a.rows entries (x: the initial guess).
template <class V>
BaselineCgResult cusparse_cublas_cg(const Executor& ex, const Csr<V, std::int32_t>& a, const V* b, V* x, double tolerance, int max_iterations,
                                    bool record_history = false);

}  // namespace hsparse::cuda
