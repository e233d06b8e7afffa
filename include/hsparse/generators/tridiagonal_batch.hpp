#pragma once
// Random tridiagonal batches for tests, `hsparse tridiag` and the benchmark:
// a and c uniform in [-1, 1), b = (|a| + |c|) * (1 + margin) + margin with
// a random sign (strictly diagonally dominant for margin > 0), d uniform in
// [-1, 1). a's first and c's last entry of each system are stored as 0 (what
// cuSPARSE's gtsv expects). Deterministic in (seed, system, row), whatever
// the layout.
#include <cstdint>
#include <vector>

#include "hsparse/formats/tridiagonal_systems.hpp"

namespace hsparse::generators {

template <class V>
struct TridiagonalBatch {
  long long size = 0, count = 0;
  TridiagonalLayout layout = TridiagonalLayout::contiguous;
  std::vector<V> a, b, c, d;
  TridiagonalSystems<V> systems() const { return {size, count, layout, a.data(), b.data(), c.data()}; }
};

template <class V>
TridiagonalBatch<V> random_tridiagonal_batch(long long size, long long count, TridiagonalLayout layout, std::uint64_t seed = 1,
                                             double margin = 0.1);

}  // namespace hsparse::generators
