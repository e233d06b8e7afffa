// Thomas' algorithm with OpenMP over the systems (solvers/tridiagonal.hpp).
// Interleaved batches are solved kChunk systems at a time with the loop over
// systems innermost: row i of consecutive systems is contiguous, so the
// recurrence (a chain of dependent divisions per system) runs in SIMD lanes
// across systems instead of one system after another. Contiguous batches
// (and interleaved ones with fewer than kChunk systems) take one system per
// iteration. The arithmetic per system is the same as the serial
// reference's, in the same order.
#include <cmath>
#include <vector>

#include "../common/thomas.hpp"
#include "hsparse/kernels/tridiagonal.hpp"

namespace hsparse::openmp {

namespace {

constexpr long long kChunk = 64;

// Systems [k0, k0 + w) of an interleaved batch; cp: w * size scratch.
// Returns -1, or the first bad row (the lowest system's, then row).
template <class V>
void thomas_interleaved_chunk(const TridiagonalSystems<V>& s, long long k0, long long w, const V* d, V* x, V* cp, long long& bad_system,
                              long long& bad_row) {
  const long long n = s.size, count = s.count;
  long long first_bad_row = -1, first_bad_system = -1;
  auto note_bad = [&](long long i) {
    // Rows are visited in order; within a row, find the lowest bad system.
    if (first_bad_row >= 0) return;
    for (long long t = 0; t < w; ++t) {
      const long long j = i * count + k0 + t;
      const V p = i == 0 ? s.b[j] : s.b[j] - s.a[j] * cp[(i - 1) * w + t];
      if (p == V(0) || !std::isfinite(static_cast<double>(p))) {
        first_bad_row = i;
        first_bad_system = k0 + t;
        return;
      }
    }
  };
  bool any_bad = false;
#pragma omp simd reduction(|| : any_bad)
  for (long long t = 0; t < w; ++t) {
    const long long j = k0 + t;
    const V p = s.b[j];
    any_bad = any_bad || p == V(0) || !std::isfinite(static_cast<double>(p));
    cp[t] = n > 1 ? s.c[j] / p : V(0);
    x[j] = d[j] / p;
  }
  if (any_bad) note_bad(0);
  for (long long i = 1; i < n; ++i) {
    const V* a = s.a + i * count + k0;
    const V* b = s.b + i * count + k0;
    const V* c = s.c + i * count + k0;
    const V* di = d + i * count + k0;
    V* xi = x + i * count + k0;
    const V* xp = x + (i - 1) * count + k0;
    const V* cprev = cp + (i - 1) * w;
    V* ci = cp + i * w;
    const bool last = i + 1 == n;
    bool bad = false;
#pragma omp simd reduction(|| : bad)
    for (long long t = 0; t < w; ++t) {
      const V p = b[t] - a[t] * cprev[t];
      bad = bad || p == V(0) || !std::isfinite(static_cast<double>(p));
      ci[t] = last ? V(0) : c[t] / p;
      xi[t] = (di[t] - a[t] * xp[t]) / p;
    }
    if (bad) note_bad(i);
  }
  for (long long i = n - 2; i >= 0; --i) {
    V* xi = x + i * count + k0;
    const V* xn = x + (i + 1) * count + k0;
    const V* ci = cp + i * w;
#pragma omp simd
    for (long long t = 0; t < w; ++t) xi[t] -= ci[t] * xn[t];
  }
  if (first_bad_row >= 0) {
    bad_system = first_bad_system;
    bad_row = first_bad_row;
  }
}

}  // namespace

template <class V>
void tridiagonal_solve(const TridiagonalSystems<V>& s, std::span<const V> d, std::span<V> x) {
  detail::check_tridiagonal_sizes(s, d.size(), x.size());
  long long bad_system = -1, bad_row = -1;
  auto keep_first = [&](long long k, long long row) {
#pragma omp critical
    if (bad_system < 0 || k < bad_system) {
      bad_system = k;
      bad_row = row;
    }
  };
  if (s.layout == TridiagonalLayout::interleaved && s.count >= kChunk) {
    const long long chunks = (s.count + kChunk - 1) / kChunk;
#pragma omp parallel
    {
      std::vector<V> cp(static_cast<std::size_t>(kChunk * s.size));
#pragma omp for schedule(static)
      for (long long q = 0; q < chunks; ++q) {
        const long long k0 = q * kChunk, w = std::min(kChunk, s.count - k0);
        long long bs = -1, br = -1;
        thomas_interleaved_chunk(s, k0, w, d.data(), x.data(), cp.data(), bs, br);
        if (bs >= 0) keep_first(bs, br);
      }
    }
  } else {
#pragma omp parallel
    {
      std::vector<V> scratch(static_cast<std::size_t>(s.size));
#pragma omp for schedule(static)
      for (long long k = 0; k < s.count; ++k) {
        const long long bad = detail::thomas_one(s, k, d.data(), x.data(), scratch.data());
        if (bad >= 0) keep_first(k, bad);
      }
    }
  }
  if (bad_system >= 0) throw_zero_pivot(bad_system, bad_row, "Thomas, OpenMP");
}

template void tridiagonal_solve(const TridiagonalSystems<float>&, std::span<const float>, std::span<float>);
template void tridiagonal_solve(const TridiagonalSystems<double>&, std::span<const double>, std::span<double>);

}  // namespace hsparse::openmp
