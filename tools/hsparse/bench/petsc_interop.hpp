#pragma once
// What the PETSc baselines share (petsc_baseline.cpp: MatMult and KSPCG over
// MPI; petsc_solve.cpp: KSP's time to solution on one process): PETSc's
// start, its error codes as hsparse's Error, its version, and hsparse's CSR
// rows as an AIJ matrix. Internal to the bench: only the files compiled with
// HSPARSE_HAVE_PETSC include it (tools/hsparse/CMakeLists.txt).
#include <petscksp.h>

#include <cstdint>
#include <string>

#include "hsparse/formats/csr.hpp"

namespace hsparse::bench::petsc {

// Throws Error(internal) naming the call when e is not 0.
void check(PetscErrorCode e, const char* what);

// Starts PETSc once per process, after hsparse's MPI (world_communicator),
// and ends it at exit, before hsparse's MPI.
void start();

// "PETSc 3.18.5".
std::string version();

// Why `rows` cannot go to PETSc (PetscInt is 32-bit in Debian's build:
// refused, not wrapped), or empty when they can.
std::string index_refusal(const Csr<double, std::int64_t>& rows);

// `rows` (this process's rows, global column indices) as a matrix of `type`
// on comm: MATSEQAIJ on one process, MATMPIAIJ (PETSc's diagonal and
// off-diagonal blocks) for a row partition over comm's ranks. PETSc copies
// the arrays. The caller destroys it (MatDestroy).
Mat aij_matrix(MPI_Comm comm, MatType type, const Csr<double, std::int64_t>& rows, std::int64_t global_rows);

}  // namespace hsparse::bench::petsc
