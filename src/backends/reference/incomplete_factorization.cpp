// Serial ILU(0), IC(0) and triangular solves (kernels/incomplete_factorization.hpp):
// the definition the OpenMP and CUDA backends are tested against, and the
// checks and row kernels every backend shares (namespace detail), so that
// the rules and the wording of the errors live in one place.
#include "hsparse/kernels/incomplete_factorization.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"

namespace hsparse {

namespace {

template <class V>
real_type_t<V> abs2(V v) {
  if constexpr (is_complex_v<V>) return std::norm(v); else return v * v;
}
template <class V>
bool finite(V v) {
  if constexpr (is_complex_v<V>) return std::isfinite(v.real()) && std::isfinite(v.imag()); else return std::isfinite(v);
}

std::string row_text(long long row) { return "row " + std::to_string(row + 1) + " (1-based)"; }

// Square, and a valid CSR with sorted columns (Csr::validate), or an Error
// prefixed with what was asked for.
template <class V, class I>
void check_square_sorted(const Csr<V, I>& a, const std::string& what) {
  if (a.rows != a.cols) {
    throw Error(ErrorCode::invalid_argument, what + ": the matrix is " + std::to_string(a.rows) + " x " + std::to_string(a.cols) + ", not square");
  }
  try {
    a.validate();
  } catch (const Error& e) {
    throw Error(e.code(), what + ": " + e.what());
  }
}

// The entries j <= i of a (a sorted): IC(0)'s pattern.
template <class V, class I>
Csr<V, I> lower_triangle(const Csr<V, I>& a) {
  Csr<V, I> l;
  l.rows = l.cols = a.rows;
  l.row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  for (I i = 0; i < a.rows; ++i) {
    for (I p = a.row_ptr[i]; p < a.row_ptr[i + 1] && a.col_idx[p] <= i; ++p) {
      l.col_idx.push_back(a.col_idx[p]);
      l.values.push_back(a.values[p]);
    }
    l.row_ptr[i + 1] = static_cast<I>(l.values.size());
  }
  return l;
}

}  // namespace

template <class V, class I>
LevelSchedule triangular_levels(const Csr<V, I>& t, Triangle which) {
  check_square_sorted(t, "triangular_levels");
  const long long n = t.rows;
  // level[i] = 1 + the deepest level among the rows i depends on (Saad 11.6.2),
  // rows visited in an order that finishes every dependency first.
  std::vector<std::int64_t> level(static_cast<std::size_t>(n), 0);
  std::int64_t deepest = -1;
  for (long long step = 0; step < n; ++step) {
    const long long i = which == Triangle::lower ? step : n - 1 - step;
    std::int64_t lv = 0;
    for (I p = t.row_ptr[i]; p < t.row_ptr[i + 1]; ++p) {
      const long long j = t.col_idx[p];
      if (which == Triangle::lower ? j < i : j > i) lv = std::max(lv, level[j] + 1);
    }
    level[i] = lv;
    deepest = std::max(deepest, lv);
  }
  // Rows bucketed by level, ascending within a level (a counting sort).
  LevelSchedule s;
  s.level_ptr.assign(static_cast<std::size_t>(deepest + 2), 0);
  for (long long i = 0; i < n; ++i) ++s.level_ptr[level[i] + 1];
  for (std::size_t l = 1; l < s.level_ptr.size(); ++l) s.level_ptr[l] += s.level_ptr[l - 1];
  s.rows.resize(static_cast<std::size_t>(n));
  std::vector<std::int64_t> next(s.level_ptr.begin(), s.level_ptr.end() - 1);
  for (long long i = 0; i < n; ++i) s.rows[next[level[i]]++] = i;
  return s;
}

template <class V, class I>
std::pair<Csr<V, I>, Csr<V, I>> split_lu(const Csr<V, I>& lu) {
  check_square_sorted(lu, "split_lu");
  std::pair<Csr<V, I>, Csr<V, I>> parts;
  auto& [l, u] = parts;
  l.rows = l.cols = u.rows = u.cols = lu.rows;
  l.row_ptr.assign(static_cast<std::size_t>(lu.rows) + 1, 0);
  u.row_ptr = l.row_ptr;
  for (I i = 0; i < lu.rows; ++i) {
    for (I p = lu.row_ptr[i]; p < lu.row_ptr[i + 1]; ++p) {
      Csr<V, I>& part = lu.col_idx[p] < i ? l : u;
      part.col_idx.push_back(lu.col_idx[p]);
      part.values.push_back(lu.values[p]);
    }
    l.row_ptr[i + 1] = static_cast<I>(l.values.size());
    u.row_ptr[i + 1] = static_cast<I>(u.values.size());
  }
  return parts;
}

namespace detail {

const char* to_string(Factorization f) { return f == Factorization::ilu0 ? "ILU(0)" : "IC(0)"; }

template <class V, class I>
Csr<V, I> factorize(const Csr<V, I>& a, Factorization f, const std::function<long long(FactorizationInput<V, I>&)>& sweep) {
  check_square_sorted(a, to_string(f));
  FactorizationInput<V, I> in{f == Factorization::ilu0 ? a : lower_triangle(a), std::vector<I>(static_cast<std::size_t>(a.rows))};
  const Csr<V, I>& m = in.matrix;
  for (I i = 0; i < m.rows; ++i) {
    const auto begin = m.col_idx.begin() + m.row_ptr[i], end = m.col_idx.begin() + m.row_ptr[i + 1];
    const auto d = std::lower_bound(begin, end, i);
    if (d == end || *d != i) {
      throw Error(ErrorCode::invalid_matrix, std::string(to_string(f)) + ": " + row_text(i) +
                                                 " has no diagonal entry: the factorisation keeps A's pattern and divides by "
                                                 "every diagonal entry; permute the matrix to a full diagonal, or solve without this preconditioner");
    }
    in.diagonal[i] = static_cast<I>(d - m.col_idx.begin());
  }
  const long long bad = sweep(in);
  if (bad >= 0) throw_pivot_error(f, bad, in.matrix.values[in.diagonal[bad]]);
  return std::move(in.matrix);
}

}  // namespace detail

namespace {

// Saad, Algorithm 10.4 (ILU(0), IKJ variant) for row i: for each k < i in
// the row, in increasing order, a_ik /= a_kk, then a_ij -= a_ik a_kj for
// every j > k stored in both rows i and k (a merge of the two sorted rows).
template <class V, class I>
bool ilu0_row(Csr<V, I>& lu, const std::vector<I>& diagonal, I i) {
  const I* col = lu.col_idx.data();
  V* val = lu.values.data();
  const I end = lu.row_ptr[i + 1], d = diagonal[i];
  for (I p = lu.row_ptr[i]; p < d; ++p) {
    const I k = col[p];
    const V l = val[p] / val[diagonal[k]];
    val[p] = l;
    for (I q = diagonal[k] + 1, r = p + 1; q < lu.row_ptr[k + 1] && r < end;) {
      if (col[q] < col[r]) {
        ++q;
      } else if (col[r] < col[q]) {
        ++r;
      } else {
        val[r++] -= l * val[q++];
      }
    }
  }
  return val[d] != V(0) && finite(val[d]);
}

// Row i of L with L L^H = A on the lower pattern (Saad 10.3.2 with U = L^H):
// L(i, j) = (A(i, j) - sum_{k<j} L(i, k) conj(L(j, k))) / L(j, j) for the
// stored j < i in increasing order (rows i and j merged over k < j), then
// L(i, i) = sqrt(A(i, i) - sum_k |L(i, k)|^2).
template <class V, class I>
bool ic0_row(Csr<V, I>& l, const std::vector<I>& diagonal, I i) {
  const I* col = l.col_idx.data();
  V* val = l.values.data();
  const I start = l.row_ptr[i], d = diagonal[i];
  for (I p = start; p < d; ++p) {
    const I j = col[p];
    V s = val[p];
    for (I q = l.row_ptr[j], r = start; q < diagonal[j] && r < p;) {
      if (col[q] < col[r]) {
        ++q;
      } else if (col[r] < col[q]) {
        ++r;
      } else {
        s -= val[r++] * conj_value(val[q++]);
      }
    }
    val[p] = s / val[diagonal[j]];
  }
  real_type_t<V> pivot = std::real(val[d]);
  for (I p = start; p < d; ++p) pivot -= abs2(val[p]);
  const bool positive = pivot > 0 && std::isfinite(pivot);
  val[d] = V(positive ? std::sqrt(pivot) : pivot);
  return positive;
}

}  // namespace

namespace detail {

template <class V, class I>
bool factor_row(Factorization f, FactorizationInput<V, I>& in, I i) {
  return f == Factorization::ilu0 ? ilu0_row(in.matrix, in.diagonal, i) : ic0_row(in.matrix, in.diagonal, i);
}

template <class V>
void throw_pivot_error(Factorization f, long long row, V pivot) {
  std::ostringstream os;
  os << to_string(f) << ": the pivot of " << row_text(row) << " is ";
  if (f == Factorization::ic0) {
    const auto p = std::real(pivot);
    os << p << (std::isfinite(p) ? " <= 0" : " (not finite)")
       << ": the matrix is not positive definite, or IC(0) broke down; try ILU(0) or Jacobi";
  } else {
    os << pivot << ": ILU(0) broke down on a zero or non-finite pivot; try a permutation to a stronger diagonal (or RCM), or Jacobi";
  }
  throw Error(ErrorCode::invalid_matrix, os.str());
}

template <class V, class I>
TriangleFault triangle_fault(const Csr<V, I>& t, I i, Triangle which, bool unit_diagonal) {
  bool diagonal = false, zero = false;
  for (I p = t.row_ptr[i]; p < t.row_ptr[i + 1]; ++p) {
    const I c = t.col_idx[p];
    if (c == i) {
      diagonal = true;
      zero = t.values[p] == V(0);
    } else if (c < 0 || c >= t.cols || (which == Triangle::lower) != (c < i)) {
      return TriangleFault::other_triangle;
    }
  }
  if (unit_diagonal) return diagonal ? TriangleFault::stored_unit_diagonal : TriangleFault::none;
  if (!diagonal) return TriangleFault::missing_diagonal;
  return zero ? TriangleFault::zero_diagonal : TriangleFault::none;
}

void throw_triangle_fault(TriangleFault fault, long long row, Triangle which) {
  const bool lower = which == Triangle::lower;
  std::string what = std::string("triangular solve (") + (lower ? "lower" : "upper") + "): " + row_text(row);
  switch (fault) {
    case TriangleFault::other_triangle:
      what += std::string(" holds an entry ") + (lower ? "above" : "below") + " the diagonal (or outside the matrix): pass only the " +
              (lower ? "lower" : "upper") + " triangle (split_lu separates an ILU(0) result)";
      break;
    case TriangleFault::missing_diagonal:
      what += " has no diagonal entry, and a non-unit solve divides by it (unit_diagonal: the diagonal is 1 and not stored)";
      break;
    case TriangleFault::zero_diagonal: what += " has a zero diagonal entry: the triangular matrix is singular"; break;
    case TriangleFault::stored_unit_diagonal:
      what += " stores a diagonal entry, but unit_diagonal says the diagonal is 1 and not stored (split_lu's L stores none)";
      break;
    case TriangleFault::none: throw Error(ErrorCode::internal, what + ": throw_triangle_fault called without a fault");
  }
  throw Error(ErrorCode::invalid_matrix, what);
}

template <class V, class I>
void check_triangle(const Csr<V, I>& t, Triangle which, bool unit_diagonal) {
  check_square_sorted(t, "triangular solve");
  for (I i = 0; i < t.rows; ++i) {
    const TriangleFault fault = triangle_fault(t, i, which, unit_diagonal);
    if (fault != TriangleFault::none) throw_triangle_fault(fault, i, which);
  }
}

template <class V, class I>
void solve_triangular_row(const Csr<V, I>& t, I i, bool unit_diagonal, const V* b, V* x) {
  V sum = b[i], diagonal(1);
  for (I p = t.row_ptr[i]; p < t.row_ptr[i + 1]; ++p) {
    const I c = t.col_idx[p];
    if (c == i) {
      diagonal = t.values[p];
    } else {
      sum -= t.values[p] * x[c];
    }
  }
  x[i] = unit_diagonal ? sum : sum / diagonal;
}

template <class V, class I>
void check_solve_sizes(const Csr<V, I>& t, std::size_t b, std::size_t x, const LevelSchedule* s) {
  const auto n = static_cast<std::size_t>(t.rows);
  std::string bad;
  if (t.rows != t.cols || t.row_ptr.size() != n + 1 || t.col_idx.size() != t.values.size() ||
      static_cast<std::size_t>(t.row_ptr[n]) != t.values.size()) {
    bad = "the matrix is not a square CSR (" + std::to_string(t.rows) + " x " + std::to_string(t.cols) + ")";
  } else if (b != n || x != n) {
    bad = "b has " + std::to_string(b) + " and x " + std::to_string(x) + " entries for " + std::to_string(n) + " rows";
  } else if (s && (s->rows.size() != n || s->level_ptr.empty() || s->level_ptr.front() != 0 ||
                   static_cast<std::size_t>(s->level_ptr.back()) != n)) {
    bad = "the level schedule is not one of this matrix (triangular_levels makes it)";
  }
  if (!bad.empty()) throw Error(ErrorCode::invalid_argument, "triangular solve: " + bad);
}

}  // namespace detail

namespace reference {

namespace {

// Row after row; the first failing row stops the sweep.
template <class V, class I>
Csr<V, I> factorize(const Csr<V, I>& a, detail::Factorization f) {
  return detail::factorize<V, I>(a, f, [f](detail::FactorizationInput<V, I>& in) {
    for (I i = 0; i < in.matrix.rows; ++i) {
      if (!detail::factor_row(f, in, i)) return static_cast<long long>(i);
    }
    return -1LL;
  });
}

}  // namespace

template <class V, class I> Csr<V, I> ilu0(const Csr<V, I>& a) { return factorize(a, detail::Factorization::ilu0); }
template <class V, class I> Csr<V, I> ic0(const Csr<V, I>& a) { return factorize(a, detail::Factorization::ic0); }

template <class V, class I>
void triangular_solve(const Csr<V, I>& t, Triangle which, bool unit_diagonal, std::span<const V> b, std::span<V> x) {
  detail::check_triangle(t, which, unit_diagonal);
  detail::check_solve_sizes(t, b.size(), x.size(), nullptr);
  for (I step = 0; step < t.rows; ++step) {
    const I i = which == Triangle::lower ? step : t.rows - 1 - step;
    detail::solve_triangular_row(t, i, unit_diagonal, b.data(), x.data());
  }
}

}  // namespace reference

#define HSPARSE_INSTANTIATE(V, I)                                                                                            \
  template LevelSchedule triangular_levels(const Csr<V, I>&, Triangle);                                                     \
  template std::pair<Csr<V, I>, Csr<V, I>> split_lu(const Csr<V, I>&);                                                      \
  template Csr<V, I> detail::factorize(const Csr<V, I>&, detail::Factorization,                                              \
                                       const std::function<long long(detail::FactorizationInput<V, I>&)>&);                  \
  template bool detail::factor_row(detail::Factorization, detail::FactorizationInput<V, I>&, I);                            \
  template detail::TriangleFault detail::triangle_fault(const Csr<V, I>&, I, Triangle, bool);                               \
  template void detail::check_triangle(const Csr<V, I>&, Triangle, bool);                                                   \
  template void detail::solve_triangular_row(const Csr<V, I>&, I, bool, const V*, V*);                                        \
  template void detail::check_solve_sizes(const Csr<V, I>&, std::size_t, std::size_t, const LevelSchedule*);                \
  template Csr<V, I> reference::ilu0(const Csr<V, I>&);                                                                     \
  template Csr<V, I> reference::ic0(const Csr<V, I>&);                                                                      \
  template void reference::triangular_solve(const Csr<V, I>&, Triangle, bool, std::span<const V>, std::span<V>);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE
#define HSPARSE_INSTANTIATE(V) template void detail::throw_pivot_error(detail::Factorization, long long, V);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
