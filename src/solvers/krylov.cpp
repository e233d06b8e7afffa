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
    case KrylovMethod::bicgstab: return "bicgstab";
    case KrylovMethod::pipelined_bicgstab: return "pipebicgstab";
  }
  return "?";
}

const char* to_string(Preconditioner p) {
  switch (p) {
    case Preconditioner::none: return "none";
    case Preconditioner::jacobi: return "jacobi";
    case Preconditioner::block_jacobi: return "block-jacobi";
    case Preconditioner::chebyshev: return "chebyshev";
    case Preconditioner::ilu0: return "ilu0";
    case Preconditioner::ic0: return "ic0";
  }
  return "?";
}

const char* to_string(SolverStatus s) {
  switch (s) {
    case SolverStatus::converged: return "converged";
    case SolverStatus::max_iterations: return "max-iterations";
    case SolverStatus::breakdown: return "breakdown";
    case SolverStatus::non_finite: return "non-finite";
    case SolverStatus::diverged: return "diverged";
  }
  return "?";
}

KrylovMethod parse_krylov_method(const std::string& name) {
  if (name == "cg") return KrylovMethod::cg;
  if (name == "pipecg" || name == "pipelined-cg") return KrylovMethod::pipelined_cg;
  if (name == "pipecg-gv") return KrylovMethod::pipelined_cg_gv;
  if (name == "gmres") return KrylovMethod::gmres;
  if (name == "bicgstab") return KrylovMethod::bicgstab;
  if (name == "pipebicgstab") return KrylovMethod::pipelined_bicgstab;
  throw Error(ErrorCode::invalid_argument, "unknown solver '" + name + "' (known: cg, pipecg, pipecg-gv, gmres, bicgstab, pipebicgstab)");
}

int gmres_restart(int restart, std::int64_t unknowns) {
  return static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(restart, unknowns)));
}

Preconditioner parse_preconditioner(const std::string& name) {
  for (Preconditioner p : {Preconditioner::none, Preconditioner::jacobi, Preconditioner::block_jacobi, Preconditioner::chebyshev, Preconditioner::ilu0,
                           Preconditioner::ic0}) {
    if (name == to_string(p)) return p;
  }
  throw Error(ErrorCode::invalid_argument, "unknown preconditioner '" + name + "' (known: none, jacobi, block-jacobi, chebyshev, ilu0, ic0)");
}

template <class V, class I>
int block_jacobi_size(const Csr<V, I>& a) {
  const auto n = static_cast<std::int64_t>(a.rows);
  auto same_pattern = [&](std::int64_t r, std::int64_t q) {
    const auto* rp = a.row_ptr.data();
    const auto len = rp[r + 1] - rp[r];
    return len == rp[q + 1] - rp[q] && std::equal(a.col_idx.begin() + rp[r], a.col_idx.begin() + rp[r + 1], a.col_idx.begin() + rp[q]);
  };
  for (int b = 32; b >= 2; --b) {
    if (n < b || n % b != 0) continue;
    bool blocked = true;
    for (std::int64_t first = 0; first < n && blocked; first += b) {
      for (std::int64_t r = first + 1; r < first + b && blocked; ++r) blocked = same_pattern(first, r);
    }
    if (blocked) return b;
  }
  return 4;
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

#define HSPARSE_INSTANTIATE(V, I) \
  template std::vector<V> inverse_diagonal(const Csr<V, I>&); \
  template int block_jacobi_size(const Csr<V, I>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
