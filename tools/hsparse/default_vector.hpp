#pragma once
// The tool's documented default input vector: x[i] = 1 + (i * 7919 mod 1000)
// / 1000, in [1, 2), varied so that a wrong column index changes a result.
// hsparse spmv's x, hsparse solve's x* (b = A x*), the benchmarks' x.
#include <cstddef>
#include <vector>

#include "hsparse/core/types.hpp"

namespace hsparse::tool {

// Entries [first, first + n) of it: a rank's own part in a distributed run.
template <class V>
std::vector<V> default_x(std::size_t n, std::size_t first = 0) {
  std::vector<V> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = V(static_cast<real_type_t<V>>(1.0 + static_cast<double>(((first + i) * 7919) % 1000) / 1000.0));
  return x;
}

}  // namespace hsparse::tool
