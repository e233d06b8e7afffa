#pragma once
// Thomas' algorithm for one system of a batch (Owens' lecture: forward
// elimination to a unit upper bidiagonal system, then back substitution),
// shared by the serial and OpenMP backends. Returns -1, or the first row
// whose pivot is zero or not finite. scratch: size entries (the c').
#include <cmath>

#include "hsparse/formats/tridiagonal_systems.hpp"

namespace hsparse::detail {

template <class V>
long long thomas_one(const TridiagonalSystems<V>& s, long long k, const V* d, V* x, V* scratch) {
  const long long n = s.size;
  if (n == 0) return -1;
  long long j = s.index(k, 0);
  V pivot = s.b[j];
  if (pivot == V(0) || !std::isfinite(static_cast<double>(pivot))) return 0;
  scratch[0] = n > 1 ? s.c[j] / pivot : V(0);
  x[j] = d[j] / pivot;
  for (long long i = 1; i < n; ++i) {
    const long long jp = j;
    j = s.index(k, i);
    pivot = s.b[j] - s.a[j] * scratch[i - 1];
    if (pivot == V(0) || !std::isfinite(static_cast<double>(pivot))) return i;
    scratch[i] = i + 1 < n ? s.c[j] / pivot : V(0);
    x[j] = (d[j] - s.a[j] * x[jp]) / pivot;
  }
  for (long long i = n - 2; i >= 0; --i) {
    const long long ji = s.index(k, i);
    x[ji] -= scratch[i] * x[s.index(k, i + 1)];
  }
  return -1;
}

}  // namespace hsparse::detail
