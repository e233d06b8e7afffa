// Names of the solver enums (solvers/krylov.hpp) and Jacobi's diagonal.
#include "hsparse/solvers/krylov.hpp"

#include <algorithm>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"

namespace hsparse {

const char* to_string(KrylovMethod m) {
  switch (m) {
    case KrylovMethod::cg: return "cg";
    case KrylovMethod::pipelined_cg: return "pipecg";
    case KrylovMethod::pipelined_cg_gv: return "pipecg-gv";
    case KrylovMethod::gmres: return "gmres";
  }
  return "?";
}

const char* to_string(Preconditioner p) { return p == Preconditioner::jacobi ? "jacobi" : "none"; }

const char* to_string(SolverStatus s) {
  switch (s) {
    case SolverStatus::converged: return "converged";
    case SolverStatus::max_iterations: return "max-iterations";
    case SolverStatus::breakdown: return "breakdown";
    case SolverStatus::non_finite: return "non-finite";
  }
  return "?";
}

KrylovMethod parse_krylov_method(const std::string& name) {
  if (name == "cg") return KrylovMethod::cg;
  if (name == "pipecg" || name == "pipelined-cg") return KrylovMethod::pipelined_cg;
  if (name == "pipecg-gv") return KrylovMethod::pipelined_cg_gv;
  if (name == "gmres") return KrylovMethod::gmres;
  throw Error(ErrorCode::invalid_argument, "unknown solver '" + name + "' (known: cg, pipecg, pipecg-gv, gmres)");
}

int gmres_restart(int restart, std::int64_t unknowns) {
  return static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(restart, unknowns)));
}

Preconditioner parse_preconditioner(const std::string& name) {
  if (name == "none") return Preconditioner::none;
  if (name == "jacobi") return Preconditioner::jacobi;
  throw Error(ErrorCode::invalid_argument, "unknown preconditioner '" + name + "' (known: none, jacobi)");
}

template <class V, class I>
std::vector<V> inverse_diagonal(const Csr<V, I>& a) {
  if (a.rows != a.cols) {
    throw Error(ErrorCode::invalid_argument, "Jacobi needs a square matrix, not " + std::to_string(a.rows) + " x " + std::to_string(a.cols));
  }
  std::vector<V> d(static_cast<std::size_t>(a.rows), V(0));
  for (I i = 0; i < a.rows; ++i) {
    for (auto k = a.row_ptr[static_cast<std::size_t>(i)]; k < a.row_ptr[static_cast<std::size_t>(i) + 1]; ++k) {
      if (a.col_idx[static_cast<std::size_t>(k)] == i) d[static_cast<std::size_t>(i)] += a.values[static_cast<std::size_t>(k)];
    }
    if (d[static_cast<std::size_t>(i)] == V(0)) {
      throw Error(ErrorCode::invalid_matrix, "Jacobi: row " + std::to_string(static_cast<long long>(i) + 1) +
                                                 " (1-based) has a zero or missing diagonal entry");
    }
    d[static_cast<std::size_t>(i)] = V(1) / d[static_cast<std::size_t>(i)];
  }
  return d;
}

#define HSPARSE_INSTANTIATE(V, I) template std::vector<V> inverse_diagonal(const Csr<V, I>&);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
