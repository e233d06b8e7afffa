#pragma once
// More baselines of the solver benchmark from NVIDIA's libraries alone, next
// to the CG of cublas_cg.hpp: preconditioned CG and BiCGStab from cuSPARSE's
// CSR SpMV and cuBLAS level-1 calls (host pointer mode), with cuSPARSE's
// incomplete factorisations ILU(0) (csrilu02) and IC(0) (csric02) as
// preconditioners, applied by its triangular solves (the generic SpSV API).
// What every cuSPARSE user can build; hsparse's own solvers and triangular
// solves are compared against them in the same run.
//
// Each run reports in BaselineCgResult (stop, iterations, the recurrence's
// ||r|| / ||b||, history; `setup_seconds`: upload, SpMV preprocessing,
// the factorisation and the analyses, the first residual; `seconds`: the
// iterations) and, when `times` is given, the factorisation's parts and
// one triangular-solve pair. Errors: hsparse::Error naming the failed
// cuSPARSE or cuBLAS call; Error(invalid_matrix) "cuSPARSE ILU(0): zero pivot
// in row N (1-based)" (or IC(0)) for a structural or numerical zero pivot;
// Error(invalid_argument) for a matrix that is not square.
#include <cstdint>

#include "hsparse/backends/cuda/cublas_cg.hpp"
#include "hsparse/backends/cuda/device.hpp"

namespace hsparse::cuda {

/// The result of every baseline solve (the name is CG's, which came first).
using BaselineSolveResult = BaselineCgResult;

/// The baselines' preconditioner: none, ILU(0) (cusparseXcsrilu02: M = LU,
/// L unit lower, in A's pattern) or IC(0) (cusparseXcsric02: M = L L^T, for
/// a symmetric positive definite A; only its lower triangle is read).
enum class BaselinePreconditioner { none, ilu0, ic0 };

/// "none", "ILU(0)" or "IC(0)".
inline const char* preconditioner_name(BaselinePreconditioner p) {
  switch (p) {
    case BaselinePreconditioner::none: return "none";
    case BaselinePreconditioner::ilu0: return "ILU(0)";
    case BaselinePreconditioner::ic0: return "IC(0)";
  }
  return "?";
}

/// The incomplete factorisation's time, split (host clock, after the stream's work).
struct BaselineFactorTimes {
  double factor_seconds = 0;           ///< the numerical factorisation (csrilu02 / csric02) and its zero-pivot check
  double analysis_seconds = 0;         ///< the factorisation's analysis and both triangular solves' (SpSV) analyses
  double triangular_pair_seconds = 0;  ///< one L then U (or L then L^T) solve, averaged over back-to-back repetitions (CUDA events)
};

/// Preconditioned CG (Saad, Iterative Methods, 2nd ed., Alg. 9.1) on the
/// device: b and x are device vectors of a.rows entries (x: the initial
/// guess, then the solution); stops when ||r|| / ||b|| <= tolerance, r the
/// recurrence's (unpreconditioned) residual. pre: none (plain CG), ic0 (the
/// usual choice for an SPD matrix) or ilu0. times: when not null, the
/// factorisation's times and one triangular-solve pair (timed after the
/// iterations, over 10 repetitions; counted in neither setup nor solve).
template <class V>
BaselineCgResult cusparse_cublas_pcg(const Executor& ex, const Csr<V, std::int32_t>& a, BaselinePreconditioner pre, const V* b, V* x, double tolerance,
                                     int max_iterations, bool record_history = false, BaselineFactorTimes* times = nullptr);

/// BiCGStab (van der Vorst 1992; Saad, Alg. 7.7), right-preconditioned
/// (A M^-1 u = b, x = M^-1 u), so the recurrence's r is the true residual's
/// and the test is the same as PCG's. r0hat = r0. Converging at the half
/// step (||s|| / ||b|| <= tolerance) counts as that iteration. A breakdown
/// ((r0hat, v) = 0, omega = 0, (t, t) = 0 or rho = (r0hat, r) = 0) stops
/// with Stop::breakdown and a message naming the quantity and the iteration.
/// Arguments as cusparse_cublas_pcg; pre: none, ilu0 (the usual choice) or ic0.
template <class V>
BaselineCgResult cusparse_cublas_bicgstab(const Executor& ex, const Csr<V, std::int32_t>& a, BaselinePreconditioner pre, const V* b, V* x,
                                          double tolerance, int max_iterations, bool record_history = false,
                                          BaselineFactorTimes* times = nullptr);

/// The factorisation and one triangular-solve pair alone (no Krylov
/// iterations), for comparing triangular solves: x = U^-1 L^-1 b (ILU(0))
/// or L^-T L^-1 b (IC(0)), b and x distinct device vectors of a.rows
/// entries. The pair is run `repetitions` times back to back (after one
/// untimed run); triangular_pair_seconds is their average.
/// Error(invalid_argument) for pre == none or repetitions < 1.
template <class V>
BaselineFactorTimes cusparse_factor_and_apply(const Executor& ex, const Csr<V, std::int32_t>& a, BaselinePreconditioner pre, const V* b, V* x,
                                              int repetitions);

}  // namespace hsparse::cuda
