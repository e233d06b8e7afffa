#pragma once
// Dense kernels (Owens' lecture, ../shared/seeds/dense-sparse-gpu-lecture-owens.md,
// the dense part): GEMM C = alpha op(A) op(B) + beta C on column-major views
// (dense/dense_matrix.hpp); beta == 0: C is not read (NaN in C stays out).
//
// One declaration, one implementation per backend:
//   hsparse::reference::gemm  src/backends/reference/dense_ops.cpp   the triple loop, double accumulation: the definition
//   hsparse::openmp::gemm     src/backends/openmp/gemm.cpp           cache- and register-blocked, OpenMP
//   hsparse::cuda::gemm       backends/cuda/dense_ops.hpp            untiled, shared-memory tiled, register-blocked
// Shapes are checked: op(A) is m x k, op(B) k x n, C m x n, else
// Error(invalid_argument) naming them.
#include <string>

#include "hsparse/dense/dense_matrix.hpp"

namespace hsparse {

enum class Op { none, transpose };
const char* to_string(Op op);

// The m, n, k of C = op(A) op(B) after checking the shapes.
struct GemmShape {
  long long m = 0, n = 0, k = 0;
};
template <class T>
GemmShape check_gemm_shapes(Op ta, Op tb, const ConstDenseView<T>& a, const ConstDenseView<T>& b, const ConstDenseView<T>& c);

// q = flops / slow-memory words of a GEMM whose tiles of bm x bn outputs
// read k-long panels of A and B once per tile: 2mnk / (mnk/bn + mnk/bm + 2mn).
// Owens: b x b tiles give q ~ b; the unblocked loop that keeps a row of A
// (bm = n, bn = 1) q ~ 2; a thread per output with no reuse (1 x 1) q ~ 1.
double gemm_intensity(const GemmShape& s, double bm, double bn);

// Tall-skinny products, the shapes of block Krylov methods and
// Gram-Schmidt (V, W: n x k and n x l with n large, k and l small):
//   tall_skinny_dot:    S = alpha V^T W + beta S   (S k x l; the multiple
//                       dot product mdot is l = 1, Rupp's lecture)
//   tall_skinny_update: Y = alpha V S + beta Y     (S k x l, Y n x l; maxpy is l = 1)
// Both read V and W (Y) once: a row block of every column is staged and
// all k x l products are formed from it, so the traffic is (k + l) n
// words whatever k and l are (the tiling idea applied to the long dimension).
#define HSPARSE_DECLARE_DENSE_OPS                                                                                                     \
  template <class T>                                                                                                                  \
  void gemm(Op ta, Op tb, T alpha, const ConstDenseView<T>& a, const ConstDenseView<T>& b, T beta, const DenseView<T>& c);            \
  template <class T>                                                                                                                  \
  void tall_skinny_dot(T alpha, const ConstDenseView<T>& v, const ConstDenseView<T>& w, T beta, const DenseView<T>& s);               \
  template <class T>                                                                                                                  \
  void tall_skinny_update(T alpha, const ConstDenseView<T>& v, const ConstDenseView<T>& s, T beta, const DenseView<T>& y);

namespace reference {
HSPARSE_DECLARE_DENSE_OPS
}  // namespace reference

namespace openmp {
HSPARSE_DECLARE_DENSE_OPS
// The blocked GEMM's cache blocks: MC x KC of op(A) in L2, KC x NC of
// op(B) in L3 (its intensity q is gemm_intensity(shape, mc, nc)).
struct GemmBlocks {
  long long mc = 0, nc = 0, kc = 0;
};
template <class T>
GemmBlocks gemm_blocks();
}  // namespace openmp

#undef HSPARSE_DECLARE_DENSE_OPS

}  // namespace hsparse
