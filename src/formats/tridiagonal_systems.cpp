// The batched tridiagonal problem's checks and measures (formats/tridiagonal_systems.hpp):
// shape and dominance checks, the zero-pivot error every backend raises,
// and the residual the tests hold solutions to. The solvers themselves are
// per backend (backends/{reference,openmp,cuda}).
#include "hsparse/formats/tridiagonal_systems.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "hsparse/core/error.hpp"

namespace hsparse {


const char* to_string(TridiagonalLayout layout) { return layout == TridiagonalLayout::contiguous ? "contiguous" : "interleaved"; }

void throw_zero_pivot(long long system, long long row, const std::string& where) {
  throw Error(ErrorCode::invalid_matrix, "tridiagonal system " + std::to_string(system) + ", row " + std::to_string(row) +
                                             ": zero or non-finite pivot (" + where +
                                             "; no pivoting is done: the system is not diagonally dominant, or singular)");
}

template <class V>
void check_tridiagonal_shape(const TridiagonalSystems<V>& s) {
  if (s.size < 0 || s.count < 0) throw Error(ErrorCode::invalid_argument, "tridiagonal batch: negative size or count");
  if (s.size > 0 && s.count > std::numeric_limits<long long>::max() / s.size) {
    throw Error(ErrorCode::overflow, "tridiagonal batch: " + std::to_string(s.size) + " x " + std::to_string(s.count) + " entries overflow");
  }
  if (s.entries() > 0 && (!s.a || !s.b || !s.c)) throw Error(ErrorCode::invalid_argument, "tridiagonal batch: a null diagonal");
}

template <class V>
DiagonalDominance check_diagonal_dominance(const TridiagonalSystems<V>& s) {
  check_tridiagonal_shape(s);
  DiagonalDominance r;
  for (long long k = 0; k < s.count; ++k) {
    for (long long i = 0; i < s.size; ++i) {
      const long long j = s.index(k, i);
      const double off = (i > 0 ? std::abs(static_cast<double>(s.a[j])) : 0.0) + (i + 1 < s.size ? std::abs(static_cast<double>(s.c[j])) : 0.0);
      const double diag = std::abs(static_cast<double>(s.b[j]));
      const double ratio = diag > 0 ? off / diag : std::numeric_limits<double>::infinity();
      if (ratio > r.worst_ratio) r.worst_ratio = ratio;
      if (ratio > 1 && r.dominant) {
        r.dominant = false;
        r.system = k;
        r.row = i;
      }
    }
  }
  return r;
}

namespace detail {
template <class V>
void check_tridiagonal_sizes(const TridiagonalSystems<V>& s, std::size_t d, std::size_t x) {
  check_tridiagonal_shape(s);
  const auto n = static_cast<std::size_t>(s.entries());
  if (d != n || x != n) {
    throw Error(ErrorCode::invalid_argument, "tridiagonal solve: d has " + std::to_string(d) + " and x " + std::to_string(x) + " entries, the batch " +
                                                 std::to_string(n) + " (" + std::to_string(s.count) + " systems of " + std::to_string(s.size) + ")");
  }
}
template void check_tridiagonal_sizes(const TridiagonalSystems<float>&, std::size_t, std::size_t);
template void check_tridiagonal_sizes(const TridiagonalSystems<double>&, std::size_t, std::size_t);
}  // namespace detail




template <class V>
double tridiagonal_relative_residual(const TridiagonalSystems<V>& s, std::span<const V> d, std::span<const V> x) {
  detail::check_tridiagonal_sizes(s, d.size(), x.size());
  double rr = 0, dd = 0;
  for (long long k = 0; k < s.count; ++k) {
    for (long long i = 0; i < s.size; ++i) {
      const long long j = s.index(k, i);
      double v = static_cast<double>(s.b[j]) * static_cast<double>(x[static_cast<std::size_t>(j)]);
      if (i > 0) v += static_cast<double>(s.a[j]) * static_cast<double>(x[static_cast<std::size_t>(s.index(k, i - 1))]);
      if (i + 1 < s.size) v += static_cast<double>(s.c[j]) * static_cast<double>(x[static_cast<std::size_t>(s.index(k, i + 1))]);
      const double di = d[static_cast<std::size_t>(j)];
      rr += (v - di) * (v - di);
      dd += di * di;
    }
  }
  return dd > 0 ? std::sqrt(rr / dd) : std::sqrt(rr);
}

#define HSPARSE_INSTANTIATE(V)                                                          \
  template void check_tridiagonal_shape(const TridiagonalSystems<V>&);               \
  template DiagonalDominance check_diagonal_dominance(const TridiagonalSystems<V>&); \
  template double tridiagonal_relative_residual(const TridiagonalSystems<V>&, std::span<const V>, std::span<const V>);
HSPARSE_INSTANTIATE(float)
HSPARSE_INSTANTIATE(double)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
