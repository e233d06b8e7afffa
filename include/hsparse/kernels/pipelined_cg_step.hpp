#pragma once
// Pipelined CG's scalar recurrence (Rupp, ../shared/seeds/
// cg-kernel-fusion-rupp.md), written once for the host and the device: the
// state the solver keeps between its two reduction points and the two
// steps that advance it. The CPU runs them on the host after its fused
// kernels; the GPU's fused kernels run them in their last block, so the
// scalars never leave the device inside the loop (solvers/krylov.hpp).
//
//   after the fused update (x += alpha p; r -= alpha Ap; z = M^-1 r;
//   p = z + beta p) with its sums <r, z>, <r, r>:   iteration + 1, convergence
//   after Ap = A p with <p, Ap>, <Ap, M^-1 Ap>:
//     alpha = <r, z> / <p, Ap>,
//     beta  = (alpha^2 <Ap, M^-1 Ap> - <r, z>) / <r, z>.
#include <cmath>

#include "hsparse/core/host_device.hpp"

namespace hsparse {

enum PipelinedCgStatus : int { pcg_running = 0, pcg_converged = 1, pcg_breakdown = 2, pcg_non_finite = 3 };

struct PipelinedCgState {
  double alpha = 0, beta = 0, rz = 0, rr = 0, pap = 0, apmap = 0;
  double bnorm = 1, tolerance = 0;
  int iteration = 0;  // completed iterations
  int done = pcg_running;
};

// Finite without <cmath>'s host-only overloads: inf - inf and NaN are NaN.
HSPARSE_HOST_DEVICE inline bool pcg_finite(double v) { return v - v == 0.0; }

// After the fused update of iteration state.iteration + 1; history[i] gets
// ||r_i|| / ||b|| for i < history_size (null: none kept).
HSPARSE_HOST_DEVICE inline void pipelined_cg_after_update(PipelinedCgState& st, double rz, double rr, double* history, int history_size) {
  const int it = st.iteration + 1;
  st.iteration = it;
  st.rz = rz;
  st.rr = rr;
  const double rel = sqrt(rr) / st.bnorm;
  if (history != nullptr && it < history_size) history[it] = rel;
  if (!pcg_finite(rel)) {
    st.done = pcg_non_finite;
  } else if (rel <= st.tolerance) {
    st.done = pcg_converged;
  }
}

// After Ap = A p and its dots: the next alpha and beta, or a breakdown
// (p'Ap <= 0: not positive definite) or a non-finite scalar.
HSPARSE_HOST_DEVICE inline void pipelined_cg_after_dots(PipelinedCgState& st, double pap, double apmap) {
  st.pap = pap;
  st.apmap = apmap;
  if (!pcg_finite(pap) || !pcg_finite(apmap)) {
    st.done = pcg_non_finite;
  } else if (pap <= 0) {
    st.done = pcg_breakdown;
  } else {
    const double alpha = st.rz / pap;
    st.alpha = alpha;
    st.beta = (alpha * alpha * apmap - st.rz) / st.rz;
  }
}

}  // namespace hsparse
