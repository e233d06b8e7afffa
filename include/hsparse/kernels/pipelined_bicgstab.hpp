#pragma once
/// @file
/// The two fused vector kernels of pipelined BiCGStab (Cools and Vanroose,
/// "The communication-hiding pipelined BiCGStab method for the parallel
/// solution of large unsymmetric linear systems", Parallel Computing 65,
/// 2017, Algorithm 3, right-preconditioned, K = M^-1): each updates its
/// vectors in one pass and returns the inner products of the new ones, so an
/// iteration reads its vectors twice and has two reduction points, each
/// overlapped with a preconditioner application and an SpMV (Rupp's kernel
/// fusion, ../shared/seeds/cg-kernel-fusion-rupp.md, applied to its sixteen
/// vectors).
///
/// One declaration, one implementation per backend: reference (serial, the
/// definition), openmp, and cuda (backends/cuda/pipelined_bicgstab.hpp; real
/// values). Inner products conjugate their first argument (dot_t<V>).
#include <array>
#include <cstddef>

#include "hsparse/kernels/vector_ops.hpp"

namespace hsparse {

/// The method's vectors, n entries each (rhat: the shadow residual).
template <class V>
struct PipelinedBicgstabVectors {
  std::size_t n = 0;
  const V* rhat = nullptr;
  V *x = nullptr, *r = nullptr, *r2 = nullptr, *w = nullptr, *w2 = nullptr, *t = nullptr;
  V *p2 = nullptr, *s = nullptr, *s2 = nullptr, *z = nullptr, *z2 = nullptr, *v = nullptr;
  V *q = nullptr, *q2 = nullptr, *y = nullptr;
};

#define HSPARSE_DECLARE_PIPELINED_BICGSTAB                                                                                        \
  /* The directions, then the half step: (first iteration: p2 = r2, s = w, s2 = w2, z = t)  */                                   \
  /*   p2 = r2 + beta (p2 - omega s2), s = w + beta (s - omega z), s2 = w2 + beta (s2 - omega z2), z = t + beta (z - omega v); */ \
  /*   q = r - alpha s, q2 = r2 - alpha s2, y = w - alpha z. Returns {<y, q>, <y, y>}. */                                        \
  template <class V>                                                                                                              \
  std::array<dot_t<V>, 2> pipelined_bicgstab_directions(bool first, V alpha, V beta, V omega, const PipelinedBicgstabVectors<V>& v); \
  /* After z2 = K z and v = A z2: x += alpha p2 + omega q2, r = q - omega y, r2 = q2 - omega (w2 - alpha z2), */                 \
  /*   w = y - omega (t - alpha v). Returns {<rhat, r>, <rhat, s>, <rhat, w>, <rhat, z>, <r, r>}. */                              \
  template <class V>                                                                                                              \
  std::array<dot_t<V>, 5> pipelined_bicgstab_residuals(V alpha, V omega, const PipelinedBicgstabVectors<V>& v);

namespace reference {
HSPARSE_DECLARE_PIPELINED_BICGSTAB
}  // namespace reference
namespace openmp {
HSPARSE_DECLARE_PIPELINED_BICGSTAB
}  // namespace openmp

#undef HSPARSE_DECLARE_PIPELINED_BICGSTAB

}  // namespace hsparse
