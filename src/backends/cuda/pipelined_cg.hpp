#pragma once
// Pipelined CG with its scalars on the device (solvers/krylov.hpp): per
// iteration one fused update kernel (x, r, z, p and <r, z>, <r, r>), the
// SpMV, and one dot kernel (<p, Ap>, <Ap, M^-1 Ap>) whose last block computes
// the next alpha and beta: no host synchronisation inside the loop. The host
// reads the state every options.check_every iterations; iterations after
// convergence or a breakdown are no-ops on the device.
#include <functional>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/solvers/krylov.hpp"

namespace hsparse::cuda {

// spmv(p, ap): ap = A p on ex's stream. dinv: Jacobi's inverse diagonal on
// the device, or null. b, x: device vectors of n entries (x: the initial guess).
template <class V>
SolverResult pipelined_cg_on_device(const Executor& ex, long long n, const std::function<void(const V*, V*)>& spmv, const V* dinv,
                                    const V* b, V* x, const SolverOptions& options);

}  // namespace hsparse::cuda
