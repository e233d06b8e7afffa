// PETSc's MatMult and KSPCG as the distributed bench's CPU baseline
// (petsc_baseline.hpp). The matrix goes to PETSc as an MPIAIJ matrix with
// hsparse's partition (petsc_interop.hpp: local CSR rows, global columns),
// so both split the rows into PETSc's diagonal and off-diagonal blocks the
// same way and exchange the same halo.
#include "petsc_baseline.hpp"

#include "hsparse/core/communicator.hpp"
#include "hsparse/core/timer.hpp"

#ifdef HSPARSE_HAVE_PETSC
#include "petsc_interop.hpp"
#endif

namespace hsparse::bench {

#ifdef HSPARSE_HAVE_PETSC

namespace {

using petsc::check;

// The slowest rank's seconds.
double slowest(double seconds) {
  std::int64_t ns = static_cast<std::int64_t>(seconds * 1e9);
  world_communicator()->allreduce_max(&ns, 1);
  return static_cast<double>(ns) * 1e-9;
}

}  // namespace

PetscFigures petsc_baseline(const Csr<double, std::int64_t>& rows, const distributed::RowPartition& partition, int cg_iterations, bool jacobi,
                            double min_time_s) {
  PetscFigures f;
  petsc::start();
  const int me = world_communicator()->rank();
  f.version = petsc::version();
  f.why_not = petsc::index_refusal(rows);
  if (!f.why_not.empty()) return f;
  const auto m = static_cast<PetscInt>(partition.size(me));
  Mat a = petsc::aij_matrix(PETSC_COMM_WORLD, MATMPIAIJ, rows, partition.rows());
  Vec x, y, b;
  check(MatCreateVecs(a, &x, &y), "MatCreateVecs");
  check(VecDuplicate(y, &b), "VecDuplicate");
  // x[i] = 1 + (i * 7919 mod 1000) / 1000, the bench's default vector.
  PetscScalar* xs;
  check(VecGetArray(x, &xs), "VecGetArray");
  for (PetscInt i = 0; i < m; ++i) xs[i] = 1.0 + static_cast<double>(((partition.begin(me) + i) * 7919) % 1000) / 1000.0;
  check(VecRestoreArray(x, &xs), "VecRestoreArray");
  // MatMult: a warm-up, then repetitions until min_time_s.
  check(MatMult(a, x, y), "MatMult");
  double total = 0;
  long long count = 0;
  do {
    std::int64_t barrier = 0;  // the ranks start each batch together
    world_communicator()->allreduce_max(&barrier, 1);
    Stopwatch w;
    for (int i = 0; i < 10; ++i) check(MatMult(a, x, y), "MatMult");
    total += slowest(w.seconds());
    count += 10;
  } while (total < min_time_s);
  f.matmult_s = total / static_cast<double>(count);
  // KSPCG from x = 0 on b = A x*, tolerance 0: exactly cg_iterations iterations.
  check(MatMult(a, x, b), "MatMult");
  KSP ksp;
  PC pc;
  check(KSPCreate(PETSC_COMM_WORLD, &ksp), "KSPCreate");
  check(KSPSetOperators(ksp, a, a), "KSPSetOperators");
  check(KSPSetType(ksp, KSPCG), "KSPSetType");
  check(KSPGetPC(ksp, &pc), "KSPGetPC");
  check(PCSetType(pc, jacobi ? PCJACOBI : PCNONE), "PCSetType");
  check(KSPSetTolerances(ksp, 0.0, 0.0, PETSC_DEFAULT, cg_iterations), "KSPSetTolerances");
  check(KSPSetUp(ksp), "KSPSetUp");
  check(VecSet(y, 0.0), "VecSet");
  Stopwatch w;
  check(KSPSolve(ksp, b, y), "KSPSolve");
  const double solve_s = slowest(w.seconds());
  PetscInt its = 0;
  check(KSPGetIterationNumber(ksp, &its), "KSPGetIterationNumber");
  f.cg_iterations = static_cast<int>(its);
  f.cg_iteration_s = its > 0 ? solve_s / static_cast<double>(its) : 0;
  KSPDestroy(&ksp);
  VecDestroy(&b);
  VecDestroy(&y);
  VecDestroy(&x);
  MatDestroy(&a);
  f.available = true;
  return f;
}

std::string petsc_missing_reason() { return ""; }

#else

std::string petsc_missing_reason() { return "this hsparse was built without PETSc (install petsc-dev: scripts/install-deps.sh)"; }

PetscFigures petsc_baseline(const Csr<double, std::int64_t>&, const distributed::RowPartition&, int, bool, double) {
  PetscFigures f;
  f.why_not = petsc_missing_reason();
  return f;
}

#endif

}  // namespace hsparse::bench
