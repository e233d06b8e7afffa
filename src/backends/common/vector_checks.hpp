#pragma once
// Size checks shared by every backend's vector kernels (kernels/vector_ops.hpp).
#include <cstddef>
#include <string>
#include <vector>

#include "hsparse/core/error.hpp"

namespace hsparse::detail {

inline void check_same_length(const char* kernel, std::size_t n, std::size_t m) {
  if (n != m) {
    throw Error(ErrorCode::invalid_argument,
                std::string(kernel) + ": vectors of " + std::to_string(n) + " and " + std::to_string(m) + " entries");
  }
}

template <class V>
void check_batch(const char* kernel, const std::vector<const V*>& vs, std::size_t coefficients, std::size_t n) {
  if (vs.size() != coefficients) {
    throw Error(ErrorCode::invalid_argument, std::string(kernel) + ": " + std::to_string(vs.size()) + " vectors but " +
                                                 std::to_string(coefficients) + " results/coefficients");
  }
  for (const V* v : vs) {
    if (v == nullptr && n > 0) throw Error(ErrorCode::invalid_argument, std::string(kernel) + ": a null vector");
  }
}

}  // namespace hsparse::detail

// Every backend instantiates the same set (float, double).
// The kernels every value type has (complex too).
#define HSPARSE_INSTANTIATE_BASIC_VECTOR_OPS(V)                                                    \
  template dot_t<V> dot(std::span<const V>, std::span<const V>);                                  \
  template double norm2(std::span<const V>);                                                      \
  template void axpy(V, std::span<const V>, std::span<V>);                                        \
  template void axpby(V, std::span<const V>, V, std::span<V>);                                    \
  template void mdot(std::span<const V>, const std::vector<const V*>&, std::span<dot_t<V>>);      \
  template void maxpy_sub(std::span<const dot_t<V>>, const std::vector<const V*>&, std::span<V>);
// Those and pipelined CG's (real types).
#define HSPARSE_INSTANTIATE_VECTOR_OPS(V)                                                                                       \
  HSPARSE_INSTANTIATE_BASIC_VECTOR_OPS(V)                                                                                       \
  template PipelinedCgUpdateDots pipelined_cg_update(V, V, std::span<const V>, std::span<const V>, std::span<V>, std::span<V>, \
                                                     std::span<V>, std::span<V>);                                               \
  template PipelinedCgSpmvDots pipelined_cg_dots(std::span<const V>, std::span<const V>, std::span<const V>);
