#pragma once
// Pipelined BiCGStab's two fused kernels on the GPU (declared for every
// backend in kernels/pipelined_bicgstab.hpp; this is the CUDA one, on device
// vectors, real values): one pass over the vectors and one deterministic
// grid reduction each, the sums copied back to the host (one
// synchronisation per kernel, two per iteration).
#include <array>

#include "hsparse/backends/cuda/vector_ops.hpp"
#include "hsparse/kernels/pipelined_bicgstab.hpp"

namespace hsparse::cuda {

template <class V>
std::array<double, 2> pipelined_bicgstab_directions(const Executor& ex, bool first, V alpha, V beta, V omega, const PipelinedBicgstabVectors<V>& v,
                                                    ReductionScratch& scratch);
template <class V>
std::array<double, 5> pipelined_bicgstab_residuals(const Executor& ex, V alpha, V omega, const PipelinedBicgstabVectors<V>& v, ReductionScratch& scratch);

}  // namespace hsparse::cuda
