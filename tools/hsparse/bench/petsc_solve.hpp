#pragma once
// PETSc's KSP as the CPU baseline of hsparse bench --solvers' time to
// solution (solution_bench.hpp): the same method, preconditioner, stopping
// test and starting vector as hsparse's rows, on one process
// (PETSC_COMM_SELF, a SeqAIJ matrix copied from the CSR arrays). PETSc from
// Debian (petsc-dev, found at configure time); without it, `available` is
// false and `why_not` says so.
//
// The stopping test is hsparse's, ||b - A x|| / ||b|| <= rtol from x = 0:
// the unpreconditioned residual norm (KSP_NORM_UNPRECONDITIONED), which
// KSPCG keeps with left preconditioning and KSPBCGS and KSPGMRES with right
// (PC_RIGHT, as hsparse's BiCGStab and GMRES are); absolute tolerance 0,
// divergence at 1e5 (hsparse's divergence_tolerance).
#include <cstdint>
#include <string>
#include <vector>

#include "hsparse/formats/csr.hpp"

namespace hsparse::bench {

struct PetscSolveRow {
  bool available = false;
  std::string why_not;      // when not available
  std::string version;      // "PETSc 3.18.5"
  std::string description;  // what PETSc ran: "KSPCG + PCICC (IC(0), natural ordering)"
  double matrix_s = 0;      // the CSR arrays copied into a SeqAIJ matrix
  double setup_s = 0;       // KSPSetUp and KSPSetUpOnBlocks: the preconditioner, its factorisation
  double solve_s = 0;       // KSPSolve
  int iterations = 0;
  std::string reason;       // KSPConvergedReasons: "CONVERGED_RTOL", "DIVERGED_ITS", ...
  bool converged = false;   // the reason is a convergence (KSPConvergedReason > 0)
  double true_relative_residual = 0;  // ||b - A x|| / ||b||, on the host in double
};

// One solve of A x = b from x = 0, timed after one untimed warm-up solve
// (both from the matrix's creation on). method: cg, bicgstab or gmres
// (GMRES(restart) with classical Gram-Schmidt refined twice, hsparse's
// CGS2); pc: none, jacobi, ilu (ILU(0)), icc (IC(0)) or bjacobi (on one
// process a single block with ILU(0): PETSc's default sub-solver, not
// hsparse's block-jacobi). An unknown method or pc is Error(invalid_argument);
// a matrix beyond PETSc's 32-bit indices is not available, with the reason.
PetscSolveRow petsc_solve(const Csr<double, std::int64_t>& a, const std::vector<double>& b, const std::string& method, const std::string& pc,
                          double rtol, int max_iterations, int restart);

}  // namespace hsparse::bench
