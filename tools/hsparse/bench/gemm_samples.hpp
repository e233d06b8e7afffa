#pragma once
// Shared by hsparse gemm and bench --dense: the deterministic operands and
// the sampled check of a GEMM result against double-precision dot products.
#include <vector>

#include <string>

#include "hsparse/backends/cuda/dense_ops.hpp"
#include "hsparse/kernels/dense_ops.hpp"

namespace hsparse::bench {

// Deterministic values in [-0.5, 0.5): the same matrices on every machine.
template <class T>
std::vector<T> generated_values(long long count, long long seed);

struct GemmSampleCheck {
  int samples = 0, failed = 0;
  double worst = 0;  // largest error as a fraction of its bound
};

// C = alpha op(A) op(B) + beta C0 at `samples` pseudo-random entries of the
// m x n `result` (all column-major, ld = rows). Bound per entry: 4 (k + 2)
// eps (|alpha| sum |a b| + |beta c0|), the dot product's forward error;
// with tf32_inputs also 2 u_tf32 of the same magnitude (inputs rounded to
// 10 mantissa bits, u = 2^-11).
template <class T>
GemmSampleCheck check_gemm_samples(Op ta, Op tb, long long m, long long n, long long k, double alpha, const std::vector<T>& a,
                                   const std::vector<T>& b, double beta, const std::vector<T>& c0, const std::vector<T>& result, int samples,
                                   bool tf32_inputs);

// The intensity q (flops per word moved from slow memory, Owens) of one
// of our GEMM kernels: ~1 untiled, ~16 tiled, ~ the block tile's side
// register-blocked and tensor-core, ~ the cache blocks' for the CPU's
// blocked kernel (gemm_intensity); 0 for a baseline, whose blocking we do
// not know.
template <class T>
double gemm_algorithm_intensity(const std::string& algorithm, const cuda::GemmTile& tile, const GemmShape& shape);

}  // namespace hsparse::bench
