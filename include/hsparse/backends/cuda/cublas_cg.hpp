#pragma once
// The baseline of the solver benchmark: unpreconditioned CG built from
// cuSPARSE's CSR SpMV (generic API, default algorithm) and cuBLAS
// dot/axpy/scal/copy in host pointer mode, the textbook "BLAS-based" CG of
// Rupp's lecture. CUDA builds only.
#include <cstdint>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/solvers/krylov.hpp"

namespace hsparse::cuda {

// b and x: device vectors of a.rows entries (x: the initial guess).
template <class V>
SolverResult cusparse_cublas_cg(const Executor& ex, const Csr<V, std::int32_t>& a, const V* b, V* x, const SolverOptions& options);

}  // namespace hsparse::cuda
