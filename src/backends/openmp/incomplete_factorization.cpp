// ILU(0), IC(0) and triangular solves with OpenMP (kernels/incomplete_factorization.hpp),
// level-scheduled (Saad 11.6.2): the rows of one level of
// triangular_levels() depend only on rows of earlier levels, so a level's
// rows are shared among the threads and a barrier separates the levels.
// Each row runs the reference's row kernel (detail::), so the results are
// the reference's bit for bit. A row that fails (a pivot, a fault of the
// triangle) is noted and the sweep goes on: the rows below the lowest
// failing row depend only on rows below it, so they are computed exactly as
// in the serial order, and the lowest failing row is the one the reference
// reports first.
#include <omp.h>

#include <climits>

#include "hsparse/kernels/incomplete_factorization.hpp"

namespace hsparse::openmp {

namespace {

// A level's barrier costs about as much as a thread's work on a few dozen
// short rows: with fewer rows per thread per level on average, the
// barriers would cost more than the threads save, and the rows run on one
// thread in level order (a valid order: every row after those it needs).
constexpr long long kMinRowsPerThreadPerLevel = 16;

// Calls row(i) for every row of s, level by level; returns the lowest row
// for which it returned false, or -1.
template <class Row>
long long run_levels(const LevelSchedule& s, const Row& row) {
  const long long n = static_cast<long long>(s.rows.size()), levels = s.levels();
  long long first_bad = LLONG_MAX;
  if (n < kMinRowsPerThreadPerLevel * omp_get_max_threads() * levels) {
    for (const std::int64_t i : s.rows) {
      if (!row(i) && i < first_bad) first_bad = i;
    }
  } else {
#pragma omp parallel reduction(min : first_bad)
    for (long long l = 0; l < levels; ++l) {
#pragma omp for schedule(static)
      for (long long p = s.level_ptr[l]; p < s.level_ptr[l + 1]; ++p) {
        const long long i = s.rows[p];
        if (!row(i) && i < first_bad) first_bad = i;
      }
    }
  }
  return first_bad == LLONG_MAX ? -1 : first_bad;
}

template <class V, class I>
Csr<V, I> factorize(const Csr<V, I>& a, detail::Factorization f) {
  return detail::factorize<V, I>(a, f, [f](detail::FactorizationInput<V, I>& in) {
    const LevelSchedule s = triangular_levels(in.matrix, Triangle::lower);
    return run_levels(s, [&](long long i) { return detail::factor_row(f, in, static_cast<I>(i)); });
  });
}

}  // namespace

template <class V, class I> Csr<V, I> ilu0(const Csr<V, I>& a) { return factorize(a, detail::Factorization::ilu0); }
template <class V, class I> Csr<V, I> ic0(const Csr<V, I>& a) { return factorize(a, detail::Factorization::ic0); }

// The triangle is checked row by row as the rows are solved (the schedule
// was made from t, which triangular_levels validated); a faulty row is left
// unsolved and reported once the sweep is over.
template <class V, class I>
void triangular_solve(const Csr<V, I>& t, const LevelSchedule& s, Triangle which, bool unit_diagonal, std::span<const V> b,
                      std::span<V> x) {
  detail::check_solve_sizes(t, b.size(), x.size(), &s);
  const auto fault = [&](long long i) { return detail::triangle_fault(t, static_cast<I>(i), which, unit_diagonal); };
  const long long bad = run_levels(s, [&](long long i) {
    if (fault(i) != detail::TriangleFault::none) return false;
    detail::solve_triangular_row(t, static_cast<I>(i), unit_diagonal, b.data(), x.data());
    return true;
  });
  if (bad >= 0) detail::throw_triangle_fault(fault(bad), bad, which);
}

template <class V, class I>
void triangular_solve_unchecked(const Csr<V, I>& strict, const V* dinv, const LevelSchedule& s, const V* b, V* x) {
  const I* rp = strict.row_ptr.data();
  const I* ci = strict.col_idx.data();
  const V* va = strict.values.data();
  run_levels(s, [&](long long i) {
    V sum = b[i];
    for (I p = rp[i]; p < rp[i + 1]; ++p) sum -= va[p] * x[ci[p]];
    x[i] = dinv ? sum * dinv[i] : sum;
    return true;
  });
}

#define HSPARSE_INSTANTIATE(V, I)                           \
  template Csr<V, I> ilu0(const Csr<V, I>&);                \
  template Csr<V, I> ic0(const Csr<V, I>&);                 \
  template void triangular_solve(const Csr<V, I>&, const LevelSchedule&, Triangle, bool, std::span<const V>, std::span<V>); \
  template void triangular_solve_unchecked(const Csr<V, I>&, const V*, const LevelSchedule&, const V*, V*);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
