#pragma once
/// @file
/// GEMM on dense matrices of either executor: C = alpha op(A) op(B) + beta C,
/// dispatched by the matrices' executor (all three must share one backend).
/// The kernels: kernels/dense_ops.hpp (CPU) and backends/cuda/dense_ops.hpp.
#include <string>
#include <vector>

#include "hsparse/backends/cuda/dense_ops.hpp"
#include "hsparse/dense/dense_matrix.hpp"
#include "hsparse/kernels/dense_ops.hpp"

namespace hsparse {

/// How gemm() runs.
struct GemmOptions {
  /// "auto": default_gemm_algorithm. CPU: reference, blocked. GPU: untiled,
  /// tiled, register (complex: tiled), tensor (double: FP64 DMMA), tf32
  /// (float, opt-in: inputs rounded to TF32), cublas and cublas-tf32 (the
  /// baselines). Both: tall-skinny, the tall-skinny products for
  /// C = A^T B (V^T W) and C = A B (V S) with A tall.
  std::string algorithm = "auto";  ///< the algorithm's name (above)
  cuda::GemmTile tile;  ///< the GPU register-blocked or tensor-core kernel's tile (the kind's first when of the other kind)
};

/// The algorithm names valid on a backend.
std::vector<std::string> gemm_algorithms(Backend backend);
/// What "auto" means, the one place it is decided: the CPU's blocked kernel;
/// on the GPU the tensor cores for double (exact FP64), the register-blocked
/// SIMT kernel for float (exact FP32; TF32 is never chosen for the user).
template <class T>
std::string default_gemm_algorithm(Backend backend);

/// Error(invalid_argument) for mismatched shapes, matrices on different
/// backends, or an algorithm the backend lacks (naming the valid ones).
template <class T>
void gemm(Op ta, Op tb, T alpha, const DenseMatrix<T>& a, const DenseMatrix<T>& b, T beta, DenseMatrix<T>& c, const GemmOptions& options = {});

/// The tall-skinny products (kernels/dense_ops.hpp) on either executor:
/// S = alpha V^T W + beta S and Y = alpha V S + beta Y, V and W n x k and
/// n x l with n large. All operands on one backend (S too: on a GPU it is a
/// device matrix, so a solver can keep it there).
template <class T>
void tall_skinny_dot(T alpha, const DenseMatrix<T>& v, const DenseMatrix<T>& w, T beta, DenseMatrix<T>& s);
template <class T>
/// Y = alpha V S + beta Y (see tall_skinny_dot); Error(invalid_argument) for mismatched shapes or backends.
void tall_skinny_update(T alpha, const DenseMatrix<T>& v, const DenseMatrix<T>& s, T beta, DenseMatrix<T>& y);

}  // namespace hsparse
