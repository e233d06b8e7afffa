#pragma once
// The CPU's dense baselines for hsparse gemm and the dense bench: Eigen's
// GEMM (OpenMP-parallel, its own cache blocking) and OpenBLAS's (its
// assembly kernels, its own threads set to our OpenMP thread count), where
// this build has them (cmake/Baselines.cmake). Error(unsupported) where not.
#include <string>

#include "hsparse/kernels/dense_ops.hpp"

namespace hsparse::bench {

bool have_eigen_gemm();
template <class T>
void eigen_gemm(Op ta, Op tb, T alpha, const ConstDenseView<T>& a, const ConstDenseView<T>& b, T beta, const DenseView<T>& c);

bool have_openblas_gemm();
// The kernel set OpenBLAS chose for this CPU ("SkylakeX", "Haswell"...), ""
// without OpenBLAS. In a VM that hides the CPU model it falls back to
// "Prescott" (SSE3: measured 119 against 597 GFLOP/s with SkylakeX on the
// GPU host's 16 cores): set OPENBLAS_CORETYPE before running then.
std::string openblas_core();
// Why OpenBLAS's figures here would not be its own, "" if nothing is known
// against them: with OMP_PROC_BIND set, OpenMP binds the main thread to one
// place and OpenBLAS's threads (pthreads, not OpenMP) inherit that binding,
// all of them on one core: DGEMM n = 2048 at 70 GFLOP/s on the GPU host's
// 16 Xeon cores against 684 unbound.
std::string openblas_handicap();
template <class T>
void openblas_gemm(Op ta, Op tb, T alpha, const ConstDenseView<T>& a, const ConstDenseView<T>& b, T beta, const DenseView<T>& c);

}  // namespace hsparse::bench
