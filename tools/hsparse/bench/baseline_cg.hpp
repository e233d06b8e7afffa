#pragma once
// The NVIDIA-library solver baselines (backends/cuda/cublas_cg.hpp and
// cusparse_baselines.hpp) as the solvers report: a SolverResult, so the
// bench times them like its own solvers.
#include <cstdint>

#include "hsparse/backends/cuda/cublas_cg.hpp"
#include "hsparse/solvers/krylov.hpp"

namespace hsparse::bench {

// A baseline's result (every baseline reports in BaselineCgResult) as a SolverResult.
inline SolverResult to_solver_result(const cuda::BaselineCgResult& r) {
  using Stop = cuda::BaselineCgResult::Stop;
  SolverResult s;
  s.status = r.stop == Stop::converged        ? SolverStatus::converged
             : r.stop == Stop::breakdown      ? SolverStatus::breakdown
             : r.stop == Stop::non_finite     ? SolverStatus::non_finite
                                              : SolverStatus::max_iterations;
  s.iterations = r.iterations;
  s.relative_residual = r.relative_residual;
  s.history = r.history;
  s.seconds = r.seconds;
  s.setup_seconds = r.setup_seconds;
  s.message = r.message;
  return s;
}

template <class V>
SolverResult cusparse_cublas_cg(const Executor& ex, const Csr<V, std::int32_t>& a, const V* b, V* x, const SolverOptions& o) {
  return to_solver_result(
      cuda::cusparse_cublas_cg<V>(cuda_executor(ex, "the cuSPARSE + cuBLAS CG"), a, b, x, o.tolerance, o.max_iterations, o.record_history));
}

}  // namespace hsparse::bench
