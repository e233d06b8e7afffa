#pragma once
// The tensor-core GEMM (gemm_tensor_core.cu; its FP64 kernel gemm_dmma.cu),
// called by the GPU GEMM's dispatcher (gemm.cu) once shapes are checked and m, n > 0.
#include "hsparse/backends/cuda/dense_ops.hpp"

namespace hsparse::cuda {

// double: FP64 DMMA; float: TF32 (opt-in). Error(invalid_argument) for a
// tile not in gemm_tensor_tiles(), Error(unsupported) for other types.
template <class T>
void gemm_tensor_core(const Executor& ex, const GemmShape& s, Op ta, Op tb, T alpha, const ConstDenseView<T>& a, const ConstDenseView<T>& b, T beta,
                      const DenseView<T>& c, const GemmTile& tile);

// The FP64 DMMA kernel; the same contract for double.
void gemm_dmma(const Executor& ex, const GemmShape& s, Op ta, Op tb, double alpha, const ConstDenseView<double>& a, const ConstDenseView<double>& b,
               double beta, const DenseView<double>& c, const GemmTile& tile);

// Error(invalid_argument) naming `tile` and the compiled tensor-core tiles.
[[noreturn]] void throw_tensor_tile_not_compiled(const GemmTile& tile);

}  // namespace hsparse::cuda
