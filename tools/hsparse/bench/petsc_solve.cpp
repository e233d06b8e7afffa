// PETSc's KSP time to solution on one process (petsc_solve.hpp).
#include "petsc_solve.hpp"

#include <algorithm>
#include <span>

#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/solvers/krylov.hpp"
#include "petsc_baseline.hpp"
#include "solution_parts.hpp"

#ifdef HSPARSE_HAVE_PETSC
#include "petsc_interop.hpp"

namespace hsparse::bench {

namespace {

// petsc_solve's name for a method or preconditioner, PETSc's type, and how a row names it.
struct Named {
  const char* name;
  const char* type;
  const char* label;
  const char* notes;
};

const Named kMethods[] = {{"cg", KSPCG, "KSPCG", ""},
                          {"bicgstab", KSPBCGS, "KSPBCGS", " (right-preconditioned)"},
                          {"gmres", KSPGMRES, "KSPGMRES", " (right-preconditioned, classical Gram-Schmidt refined always)"}};
const Named kPreconditioners[] = {{"none", PCNONE, "PCNONE", ""},
                                  {"jacobi", PCJACOBI, "PCJACOBI", ""},
                                  {"ilu", PCILU, "PCILU", " (ILU(0), natural ordering)"},
                                  {"icc", PCICC, "PCICC", " (IC(0), natural ordering)"},
                                  {"bjacobi", PCBJACOBI, "PCBJACOBI", " (one process: one block, ILU(0))"}};

template <std::size_t N>
const Named& lookup(const Named (&table)[N], const std::string& name, const char* what) {
  std::string valid;
  for (const Named& n : table) {
    if (name == n.name) return n;
    valid += (valid.empty() ? "" : ", ") + std::string(n.name);
  }
  throw Error(ErrorCode::invalid_argument, std::string("petsc_solve: unknown ") + what + " '" + name + "' (" + valid + ")");
}

using petsc::check;

struct Choice {
  const Named& method;
  const Named& pc;
  int restart;
  bool is(const char* type) const { return std::string(method.type) == type; }
  std::string description() const {
    std::string d = method.label;
    if (is(KSPGMRES)) d.append("(").append(std::to_string(restart)).append(")");
    return d + method.notes + " + " + pc.label + pc.notes;
  }
};

// One attempt's PETSc objects, destroyed however it ends.
struct Objects {
  Mat a = nullptr;
  KSP ksp = nullptr;
  Vec x = nullptr, b = nullptr;
  ~Objects() {
    KSPDestroy(&ksp);
    VecDestroy(&b);
    VecDestroy(&x);
    MatDestroy(&a);
  }
};

struct Attempt {
  double matrix_s = 0, setup_s = 0, solve_s = 0;
  int iterations = 0;
  KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
  std::vector<double> x;
};

Attempt solve_once(const Csr<double, std::int64_t>& a, const std::vector<double>& b, const Choice& c, double rtol, int max_iterations) {
  Attempt t;
  Objects o;
  Stopwatch matrix;
  o.a = petsc::aij_matrix(PETSC_COMM_SELF, MATSEQAIJ, a, a.rows);
  t.matrix_s = matrix.seconds();
  check(MatCreateVecs(o.a, &o.x, &o.b), "MatCreateVecs");
  PetscScalar* bs;
  check(VecGetArray(o.b, &bs), "VecGetArray");
  std::copy(b.begin(), b.end(), bs);
  check(VecRestoreArray(o.b, &bs), "VecRestoreArray");
  check(KSPCreate(PETSC_COMM_SELF, &o.ksp), "KSPCreate");
  check(KSPSetOperators(o.ksp, o.a, o.a), "KSPSetOperators");
  check(KSPSetType(o.ksp, c.method.type), "KSPSetType");
  PC pc;
  check(KSPGetPC(o.ksp, &pc), "KSPGetPC");
  check(PCSetType(pc, c.pc.type), "PCSetType");
  if (!c.is(KSPCG)) check(KSPSetPCSide(o.ksp, PC_RIGHT), "KSPSetPCSide");  // KSPCG: left (its only side besides symmetric)
  if (c.is(KSPGMRES)) {
    check(KSPGMRESSetRestart(o.ksp, c.restart), "KSPGMRESSetRestart");
    check(KSPGMRESSetCGSRefinementType(o.ksp, KSP_GMRES_CGS_REFINE_ALWAYS), "KSPGMRESSetCGSRefinementType");
  }
  check(KSPSetNormType(o.ksp, KSP_NORM_UNPRECONDITIONED), "KSPSetNormType");
  check(KSPSetTolerances(o.ksp, rtol, 0.0, 1e5, max_iterations), "KSPSetTolerances");
  check(KSPSetInitialGuessNonzero(o.ksp, PETSC_FALSE), "KSPSetInitialGuessNonzero");  // x = 0
  Stopwatch setup;
  check(KSPSetUp(o.ksp), "KSPSetUp");
  check(KSPSetUpOnBlocks(o.ksp), "KSPSetUpOnBlocks");  // bjacobi's blocks factorise here, not in KSPSetUp
  t.setup_s = setup.seconds();
  Stopwatch solve;
  check(KSPSolve(o.ksp, o.b, o.x), "KSPSolve");
  t.solve_s = solve.seconds();
  PetscInt its = 0;
  check(KSPGetIterationNumber(o.ksp, &its), "KSPGetIterationNumber");
  t.iterations = static_cast<int>(its);
  check(KSPGetConvergedReason(o.ksp, &t.reason), "KSPGetConvergedReason");
  const PetscScalar* xs;
  check(VecGetArrayRead(o.x, &xs), "VecGetArrayRead");
  t.x.assign(xs, xs + a.rows);
  check(VecRestoreArrayRead(o.x, &xs), "VecRestoreArrayRead");
  return t;
}

}  // namespace

PetscSolveRow petsc_solve(const Csr<double, std::int64_t>& a, const std::vector<double>& b, const std::string& method, const std::string& pc,
                          double rtol, int max_iterations, int restart) {
  PetscSolveRow r;
  const Choice c{lookup(kMethods, method, "method"), lookup(kPreconditioners, pc, "preconditioner"), restart};
  r.description = c.description();
  petsc::start();
  r.version = petsc::version();
  r.why_not = petsc::index_refusal(a);
  if (!r.why_not.empty()) return r;
  const Attempt t = after_warm_up([&] { return solve_once(a, b, c, rtol, max_iterations); });
  r.available = true;
  r.matrix_s = t.matrix_s;
  r.setup_s = t.setup_s;
  r.solve_s = t.solve_s;
  r.iterations = t.iterations;
  r.reason = KSPConvergedReasons[t.reason];  // PETSc's table is indexed by the (signed) reason
  r.converged = t.reason > 0;
  r.true_relative_residual = true_relative_residual<double, std::int64_t>(a, std::span<const double>(b), std::span<const double>(t.x));
  return r;
}

}  // namespace hsparse::bench

#else

namespace hsparse::bench {

PetscSolveRow petsc_solve(const Csr<double, std::int64_t>&, const std::vector<double>&, const std::string&, const std::string&, double, int, int) {
  PetscSolveRow r;
  r.why_not = petsc_missing_reason();
  return r;
}

}  // namespace hsparse::bench

#endif
