#pragma once
// Vector kernels of the Krylov solvers (Rupp's lecture, ../shared/seeds/
// cg-kernel-fusion-rupp.md): dot, norm, axpy, axpby, the multiple dot
// product mdot and its update counterpart maxpy, and the fused kernels of
// pipelined CG. Sums accumulate in double: dot_t<V>, double for float and
// double, std::complex<double> for the complex types, whose inner product
// conjugates its first argument (<a, b> = sum conj(a_i) b_i). The pipelined
// CG kernels are real only.
//
// One declaration, one implementation per backend:
//   hsparse::reference::*  src/backends/reference/vector_ops.cpp  serial, the definition
//   hsparse::openmp::*     src/backends/openmp/vector_ops.cpp     OpenMP + SIMD
//   hsparse::cuda::*       backends/cuda/vector_ops.hpp           on device data
// Sizes are checked: every vector must have the same length, else
// Error(invalid_argument).
#include <complex>
#include <span>
#include <type_traits>
#include <vector>

#include "hsparse/core/types.hpp"

namespace hsparse {

/// What an inner product of V vectors accumulates and returns.
template <class V>
using dot_t = std::conditional_t<is_complex_v<V>, std::complex<double>, double>;

// The scalars pipelined CG's fused update kernel returns: <r, z> and <r, r>.
struct PipelinedCgUpdateDots {
  double rz = 0, rr = 0;
};
// ... and its SpMV epilogue: <p, Ap> and <Ap, M^-1 Ap>.
struct PipelinedCgSpmvDots {
  double pap = 0, apmap = 0;
};

#define HSPARSE_DECLARE_VECTOR_OPS                                                                                           \
  /* <a, b> = sum conj(a_i) b_i */                                                                                           \
  template <class V>                                                                                                         \
  dot_t<V> dot(std::span<const V> a, std::span<const V> b);                                                                  \
  template <class V>                                                                                                         \
  double norm2(std::span<const V> a);                                                                                        \
  /* y = alpha*x + y */                                                                                                      \
  template <class V>                                                                                                         \
  void axpy(V alpha, std::span<const V> x, std::span<V> y);                                                                  \
  /* y = alpha*x + beta*y (beta == 0: y not read) */                                                                         \
  template <class V>                                                                                                         \
  void axpby(V alpha, std::span<const V> x, V beta, std::span<V> y);                                                         \
  /* out[i] = <v_i, w> for every v_i, w read once per batch of 8, 4, 3, 2 or 1 vectors (Rupp: batches of 1, 2, 3, 4, 8) */  \
  template <class V>                                                                                                         \
  void mdot(std::span<const V> w, const std::vector<const V*>& vs, std::span<dot_t<V>> out);                                 \
  /* y -= sum_i coef[i] * v_i, y read and written once per batch */                                                          \
  template <class V>                                                                                                         \
  void maxpy_sub(std::span<const dot_t<V>> coef, const std::vector<const V*>& vs, std::span<V> y);                           \
  /* Pipelined CG's fused update: x += alpha p; r -= alpha Ap; z = dinv .* r (dinv empty: z = r); p = z + beta p; */        \
  /* returns <r, z> and <r, r> of the new r. z may alias r when dinv is empty. */                                            \
  template <class V>                                                                                                         \
  PipelinedCgUpdateDots pipelined_cg_update(V alpha, V beta, std::span<const V> ap, std::span<const V> dinv, std::span<V> x, \
                                            std::span<V> r, std::span<V> z, std::span<V> p);                                 \
  /* <p, Ap> and <Ap, dinv .* Ap> (dinv empty: <Ap, Ap>) */                                                                  \
  template <class V>                                                                                                         \
  PipelinedCgSpmvDots pipelined_cg_dots(std::span<const V> p, std::span<const V> ap, std::span<const V> dinv);

namespace reference {
HSPARSE_DECLARE_VECTOR_OPS
}  // namespace reference
namespace openmp {
HSPARSE_DECLARE_VECTOR_OPS
}  // namespace openmp

#undef HSPARSE_DECLARE_VECTOR_OPS

}  // namespace hsparse
