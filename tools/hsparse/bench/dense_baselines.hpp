#pragma once
// The CPU's dense baseline for hsparse gemm and the dense bench: Eigen's
// GEMM (OpenMP-parallel, its own cache blocking), where this build has
// Eigen (cmake/Baselines.cmake). Error(unsupported) where it does not.
#include "hsparse/kernels/dense_ops.hpp"

namespace hsparse::bench {

bool have_eigen_gemm();
template <class T>
void eigen_gemm(Op ta, Op tb, T alpha, const ConstDenseView<T>& a, const ConstDenseView<T>& b, T beta, const DenseView<T>& c);

}  // namespace hsparse::bench
