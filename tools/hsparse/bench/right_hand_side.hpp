#pragma once
// The benchmarks' right-hand side b = A x*, x* the tool's default vector
// (default_vector.hpp): the solution is known, and not a constant that a
// smoothing preconditioner would find at once.
#include <span>
#include <vector>

#include "default_vector.hpp"
#include "hsparse/formats/csr.hpp"
#include "hsparse/kernels/csr_spmv.hpp"

namespace hsparse::bench {

template <class V, class I>
std::vector<V> right_hand_side(const Csr<V, I>& a) {
  const auto xs = tool::default_x<V>(static_cast<std::size_t>(a.cols));
  std::vector<V> b(static_cast<std::size_t>(a.rows));
  reference::csr_spmv<V, I>(V(1), a, std::span<const V>(xs), V(0), std::span<V>(b));
  return b;
}

}  // namespace hsparse::bench
