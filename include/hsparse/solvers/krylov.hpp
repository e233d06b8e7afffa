#pragma once
/// @file
/// Krylov solvers for A x = b: CG (BLAS-style, a kernel per operation),
/// pipelined CG (Rupp's rearranged recurrences, ../shared/seeds/
/// cg-kernel-fusion-rupp.md: one fused vector kernel updating x, r, p with
/// <r, z> and <r, r>, one SpMV followed by <p, Ap> and <Ap, M^-1 Ap>, so one
/// reduction point per iteration) and restarted GMRES(m) whose classical
/// Gram-Schmidt is two passes of mdot/maxpy (CGS2), the seed's motivating case
/// for the multiple dot product.
///
/// The operator is any hsparse SpMV plan (format and kernel chosen by the
/// caller or format=auto); the optional preconditioner is Jacobi (the
/// inverse diagonal; a zero or missing diagonal entry is an error).
/// Stopping: ||r|| / ||b|| <= tolerance (the recurrence residual, checked
/// against the true residual at the end by the caller if wanted), the
/// iteration limit, or a breakdown (p'Ap <= 0 in CG: not positive definite;
/// a non-finite scalar): never a NaN reported as converged.
///
/// One implementation per method for both executors: the algorithms
/// (src/solvers/krylov_algorithms.hpp) run over vector operations dispatched
/// by the plan's executor (src/solvers/krylov_ops.hpp). On a GPU, CG and
/// GMRES take their scalars to the host (two and 2(j+1)+1 synchronisations
/// per iteration); pipelined CG keeps them on the device and synchronises
/// every options.check_every iterations. Real value types.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "hsparse/core/array.hpp"
#include "hsparse/formats/csr.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/solvers/linear_operator.hpp"

namespace hsparse {

/// The Krylov method: cg, pipelined_cg (Rupp's fused recurrences),
/// pipelined_cg_gv (Ghysels and Vanroose's: its one reduction overlapped
/// with the preconditioner and the SpMV, for many ranks), gmres
/// (restarted, CGS2), bicgstab (van der Vorst's BiCGStab, right-
/// preconditioned: for nonsymmetric systems without GMRES's basis) or
/// pipelined_bicgstab (Cools and Vanroose's: two reduction points per
/// iteration, each overlapped with a preconditioner and an SpMV, the vector
/// updates fused).
enum class KrylovMethod { cg, pipelined_cg, gmres, pipelined_cg_gv, bicgstab, pipelined_bicgstab };
/// M^-1, applied to a vector as z = M^-1 r:
///   none;
///   jacobi: the inverse diagonal;
///   block_jacobi: the inverses of the diagonal blocks (SolverOptions::block_size);
///   chebyshev: a polynomial in D^-1 A of SolverOptions::chebyshev_degree,
///     needing SpMVs only, on eigenvalue bounds from a few Lanczos steps;
///   ilu0, ic0: incomplete LU / Cholesky on A's pattern, applied by two
///     sparse triangular solves.
enum class Preconditioner { none, jacobi, block_jacobi, chebyshev, ilu0, ic0 };
/// Why a solve stopped.
enum class SolverStatus {
  converged,       ///< ||r|| / ||b|| <= tolerance
  max_iterations,  ///< the limit came first
  breakdown,       ///< p'Ap <= 0 (CG on a matrix that is not SPD), or GMRES lost its basis
  non_finite,      ///< a NaN or infinity appeared in a scalar
  diverged,        ///< ||r|| / ||b|| passed SolverOptions::divergence_tolerance
};
/// "cg", "pipecg", "pipecg-gv", "gmres", "bicgstab" or "pipebicgstab" (what parse_krylov_method takes).
const char* to_string(KrylovMethod m);
/// "none", "jacobi", "block-jacobi", "chebyshev", "ilu0" or "ic0".
const char* to_string(Preconditioner p);
/// The status in words, e.g. "converged".
const char* to_string(SolverStatus s);
KrylovMethod parse_krylov_method(const std::string& name);  ///< cg, pipecg, pipecg-gv, gmres, bicgstab, pipebicgstab
Preconditioner parse_preconditioner(const std::string& name);  ///< none, jacobi, block-jacobi, chebyshev, ilu0, ic0

/// How solve() runs and when it stops.
struct SolverOptions {
  KrylovMethod method = KrylovMethod::cg;  ///< the method
  Preconditioner preconditioner = Preconditioner::none;  ///< the preconditioner
  double tolerance = 1e-8;   ///< on ||r|| / ||b||
  /// Stop as diverged once ||r|| / ||b|| exceeds this (PETSc's dtol
  /// default): a residual grown 10^5-fold will not come back, and
  /// iterating on costs time and ends in overflow. Not checked by pipelined
  /// CG, whose scalars stay on the device.
  double divergence_tolerance = 1e5;
  int max_iterations = 10000;  ///< the iteration limit
  int restart = 30;          ///< GMRES(m): m, capped at the number of unknowns (gmres_restart())
  /// Block Jacobi's block size, 1..32; 0: detected (block_jacobi_size()).
  int block_size = 0;
  /// Chebyshev's polynomial degree (SpMVs per application: degree - 1), 1..64.
  int chebyshev_degree = 4;
  /// ILU(0) and IC(0): how their triangular factors are applied.
  ///   "auto": exact solves, each triangle the faster of its backend's two
  ///     algorithms (GPU: level-scheduled, sync-free; CPU: level-scheduled,
  ///     serial), timed at setup;
  ///   "level-scheduled", "sync-free" (GPU) or "serial" (CPU): that one;
  ///   "jacobi": `triangular_sweeps` sweeps of Jacobi's iteration on each
  ///     triangle (Anzt, Chow and Dongarra, "Iterative sparse triangular
  ///     solves for preconditioning", Euro-Par 2015): SpMVs with the strict
  ///     triangles and no level synchronisation, an approximate M^-1 that may
  ///     cost iterations.
  std::string triangular = "auto";
  int triangular_sweeps = 3;  ///< "jacobi": sweeps per triangle, 1..50
  /// ILU(0) and IC(0) with triangular = "jacobi": the strict triangles
  /// stored in single precision (the csr16-single format, applied in
  /// double), which halves the bytes the sweeps read.
  bool single_factors = false;
  bool record_history = true;  ///< keep ||r||/||b|| of every iteration in SolverResult::history
  /// GPU pipelined CG keeps its scalars on the device and the host looks at
  /// them every `check_every` iterations (one synchronisation per check);
  /// iterations after convergence are skipped on the device, so the count and
  /// the solution are those of the converged iteration.
  int check_every = 16;
  /// Called with (completed iterations, ||r||/||b||) as the solve goes: every
  /// iteration on the CPU, at every host check of the GPU's pipelined CG.
  /// For progress display; it must not throw.
  std::function<void(int, double)> progress;
};

/// The GMRES(m) restart used for `unknowns` unknowns: min(restart,
/// unknowns), at least 1. In exact arithmetic GMRES finds the solution
/// within n steps, so a basis of more than n vectors cannot help, while each
/// vector costs n values and an inner product per iteration (a restart of
/// 100000 on 125 unknowns took seconds per iteration). solve() applies it.
int gmres_restart(int restart, std::int64_t unknowns);

/// What a solve did.
struct SolverResult {
  SolverStatus status = SolverStatus::max_iterations;  ///< why it stopped
  int iterations = 0;  ///< iterations completed
  double relative_residual = 0;   ///< the solver's own (recurrence) ||r|| / ||b||
  std::vector<double> history;    ///< ||r|| / ||b|| before the first iteration and after each
  double seconds = 0;             ///< the iterations (setup excluded)
  double setup_seconds = 0;       ///< preconditioner, workspace, first residual
  std::string message;            ///< why it stopped, in words
  std::string preconditioner;     ///< what M^-1 was, in words (e.g. Chebyshev's eigenvalue bounds); empty without one
  /// status == converged.
  bool converged() const { return status == SolverStatus::converged; }
};

/// Block Jacobi's block size for `a` where none is given: the largest b in
/// 2..32 dividing the rows such that each aligned group of b rows shares one
/// column pattern (the unknowns per node of a finite-element or BCSR-born
/// matrix); without such groups, 4: an inverted 4 x 4 block stores 4 values
/// per row, so one application costs about what a 7-point stencil's SpMV
/// does, while coupling neighbouring unknowns that Jacobi leaves apart.
template <class V, class I>
int block_jacobi_size(const Csr<V, I>& a);

/// Jacobi's M^-1: the inverse of A's diagonal. Error(invalid_matrix) naming
/// the first row whose diagonal entry is missing or zero; the matrix must be square.
template <class V, class I>
std::vector<V> inverse_diagonal(const Csr<V, I>& a);

/// Solves A x = b from the x given (the initial guess) with the plan `op` as
/// the operator, on the plan's executor. `a` is the host matrix the plan was
/// made from (its sizes; its diagonal for Jacobi). b and x: Arrays on the
/// plan's executor, or host spans (copied to the executor and x back).
template <class V, class I>
SolverResult solve(const Csr<V, I>& a, const SpmvPlan<V, I>& op, const Array<V>& b, Array<V>& x, const SolverOptions& options);
template <class V, class I>
/// The same with b and x host spans (copied to the plan's executor, x copied back).
SolverResult solve(const Csr<V, I>& a, const SpmvPlan<V, I>& op, std::span<const V> b, std::span<V> x, const SolverOptions& options);
/// The same with any operator (solvers/linear_operator.hpp), e.g. the
/// finite-element LMA product; b and x on its executor. Jacobi takes the
/// operator's inverse diagonal from the caller (its size checked; ignored
/// without options.preconditioner == jacobi).
template <class V>
SolverResult solve(const LinearOperator<V>& op, const std::vector<V>& inverse_diagonal, const Array<V>& b, Array<V>& x, const SolverOptions& options);

/// A X = B for k right-hand sides at once (the columns of B and X, dense
/// matrices on the plan's executor): k CGs (Jacobi optional) in lockstep,
/// each iteration one SpMM through the plan (SpmvPlan::apply on dense
/// matrices: A read once per 32 columns where the format has an SpMM
/// kernel) for all columns still running, each column with its own alpha,
/// beta and stopping test; a column that stops is no longer updated. One
/// SolverResult per column; options.progress gets the iteration and the
/// largest ||r||/||b|| of the columns still running. options.method must be CG (Error(invalid_argument)
/// otherwise: the pipelined and GMRES recurrences are not block ones here).
template <class V, class I>
std::vector<SolverResult> solve_many(const Csr<V, I>& a, const SpmvPlan<V, I>& op, const DenseMatrix<V>& b, DenseMatrix<V>& x,
                                     const SolverOptions& options);

/// ||b - A x|| / ||b|| in double on the host (the check the solver's own residual is held to).
template <class V, class I>
double true_relative_residual(const Csr<V, I>& a, std::span<const V> b, std::span<const V> x);

}  // namespace hsparse
