#pragma once
// Rupp's batching of multiple dot products (and their updates), shared by
// the OpenMP and CUDA vector kernels: as many batches of 8 as fit, then one
// of 4, 3, 2 or 1 (a remainder of 5-7 becomes 4 + 1..3).
#include <cstddef>

namespace hsparse::detail {

template <class F>
void for_each_batch(std::size_t count, F&& batch) {
  std::size_t k = 0;
  while (k < count) {
    const std::size_t left = count - k;
    const int b = left >= 8 ? 8 : left >= 4 ? 4 : static_cast<int>(left);
    batch(k, b);
    k += static_cast<std::size_t>(b);
  }
}

}  // namespace hsparse::detail
