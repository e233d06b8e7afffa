// The PETSc baselines' shared parts (petsc_interop.hpp).
#include "petsc_interop.hpp"

#include <cstdlib>
#include <vector>

#include "hsparse/core/communicator.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::bench::petsc {

void check(PetscErrorCode e, const char* what) {
  if (e != 0) throw Error(ErrorCode::internal, std::string("PETSc: ") + what + " failed (error " + std::to_string(static_cast<int>(e)) + ")");
}

// atexit runs the later registration first: PETSc's end comes before MPI's.
// PETSc's signal handlers are left out, so that Ctrl-C stays the bench's
// (it ends a run with the rows measured so far).
void start() {
  static bool started = false;
  if (started) return;
  world_communicator();
  check(PetscOptionsSetValue(nullptr, "-no_signal_handler", nullptr), "PetscOptionsSetValue");
  check(PetscInitializeNoArguments(), "PetscInitialize");
  std::atexit([] { PetscFinalize(); });
  started = true;
}

std::string version() {
  char text[128];
  check(PetscGetVersion(text, sizeof text), "PetscGetVersion");
  std::string v = text;
  const auto release = v.find("Release Version ");  // "Petsc Release Version 3.18.5, Feb 27, 2023 "
  if (release != std::string::npos) v = "PETSc " + v.substr(release + 16, v.find(',', release) - release - 16);
  return v;
}

std::string index_refusal(const Csr<double, std::int64_t>& rows) {
  if (rows.cols <= static_cast<std::int64_t>(PETSC_MAX_INT) && rows.nnz() <= static_cast<std::size_t>(PETSC_MAX_INT)) return "";
  return "the matrix exceeds PETSc's " + std::to_string(sizeof(PetscInt) * 8) + "-bit indices";
}

Mat aij_matrix(MPI_Comm comm, MatType type, const Csr<double, std::int64_t>& rows, std::int64_t global_rows) {
  const std::vector<PetscInt> ptr(rows.row_ptr.begin(), rows.row_ptr.end()), col(rows.col_idx.begin(), rows.col_idx.end());
  const auto m = static_cast<PetscInt>(rows.rows), n = static_cast<PetscInt>(global_rows);
  Mat a;
  check(MatCreate(comm, &a), "MatCreate");
  check(MatSetSizes(a, m, m, n, n), "MatSetSizes");
  check(MatSetType(a, type), "MatSetType");
  // Each acts on its own type only; both copy the rows and assemble.
  check(MatSeqAIJSetPreallocationCSR(a, ptr.data(), col.data(), rows.values.data()), "MatSeqAIJSetPreallocationCSR");
  check(MatMPIAIJSetPreallocationCSR(a, ptr.data(), col.data(), rows.values.data()), "MatMPIAIJSetPreallocationCSR");
  return a;
}

}  // namespace hsparse::bench::petsc
