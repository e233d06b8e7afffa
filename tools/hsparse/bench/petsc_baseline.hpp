#pragma once
// The CPU baseline of the distributed bench (issue 64): PETSc's MatMult and
// KSPCG on the same rows, partition and ranks as hsparse's distributed
// product, in the same run. PETSc from Debian (petsc-dev, found at
// configure time); without it, `available` is false and `why_not` says so.
// Collective over MPI's world (PETSc's PETSC_COMM_WORLD).
#include <cstdint>
#include <string>

#include "hsparse/distributed/row_partition.hpp"
#include "hsparse/formats/csr.hpp"

namespace hsparse::bench {

struct PetscFigures {
  bool available = false;
  std::string why_not;          // when not available
  std::string version;          // "PETSc 3.18.5"
  double matmult_s = 0;         // one MatMult, the slowest rank's time, mean over the repetitions
  double cg_iteration_s = 0;    // one KSPCG iteration (tolerance 0: every iteration runs), the slowest rank's
  int cg_iterations = 0;        // iterations timed
};

// rows: this rank's rows with global column indices, partition the row
// (and column) partition. x is the bench's default vector. `jacobi`: PCJACOBI,
// else PCNONE. At least `min_time_s` of MatMults.
PetscFigures petsc_baseline(const Csr<double, std::int64_t>& rows, const distributed::RowPartition& partition, int cg_iterations, bool jacobi,
                            double min_time_s);

// Empty in a build with PETSc; else why the PETSc baselines do not run.
std::string petsc_missing_reason();

}  // namespace hsparse::bench
