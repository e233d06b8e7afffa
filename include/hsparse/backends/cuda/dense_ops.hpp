#pragma once
// GEMM on the GPU (kernels/dense_ops.hpp), in the three steps of Owens'
// lecture, each a kernel the report compares:
//  - untiled: a thread per C(i, j), op(A) and op(B) read from global memory
//    for every product (q ~ 1; the caches give some reuse back);
//  - tiled: TILE x TILE blocks of op(A) and op(B) staged in shared memory
//    (q ~ TILE);
//  - register-blocked: MAGMA's Fermi GEMM (Nath, Tomov, Dongarra, LAWN 227,
//    as the lecture presents it): a 16 x 16 thread block computes a BM x BN
//    tile of C, each thread TM x TN outputs held in registers, rows and
//    columns strided by 16; BK-deep panels of A and B in shared memory.
//    The tile sizes are template parameters; GemmTile picks among the
//    compiled ones (gemm_tiles()).
// All take op(A) = A or A^T and op(B) likewise, any sizes (edges are
// bounds-checked, not padded), beta == 0 without reading C. Float and
// double; complex values take the tiled kernel. cublas_gemm is the
// baseline (cuBLAS, column-major like us).
#include <string>
#include <vector>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/kernels/dense_ops.hpp"

namespace hsparse::cuda {

enum class GemmAlgorithm { untiled, tiled, register_blocked, cublas };
const char* to_string(GemmAlgorithm a);
GemmAlgorithm parse_gemm_algorithm(const std::string& name);  // untiled, tiled, register, cublas

struct GemmTile {
  int bm = 64, bn = 64, bk = 16, tm = 4, tn = 4;  // MAGMA's: 64 x 64 per block, 4 x 4 per thread
  std::string name() const;                     // "64x64x16/4x4"
};
// The register-blocked tiles compiled (every one 256 threads).
const std::vector<GemmTile>& gemm_tiles();

// C = alpha op(A) op(B) + beta C on device views, on ex's stream.
// Error(invalid_argument) for mismatched shapes or a tile not compiled.
template <class T>
void gemm(const Executor& ex, GemmAlgorithm algorithm, Op ta, Op tb, T alpha, const ConstDenseView<T>& a, const ConstDenseView<T>& b, T beta,
          const DenseView<T>& c, const GemmTile& tile = {});

// The tall-skinny products (kernels/dense_ops.hpp) on device views, float
// and double (complex: Error(unsupported)): S = alpha V^T W + beta S with S
// on the device, one launch per 32 x 32 block of S; Y = alpha V S + beta Y.
template <class T>
void tall_skinny_dot(const Executor& ex, T alpha, const ConstDenseView<T>& v, const ConstDenseView<T>& w, T beta, const DenseView<T>& s);
template <class T>
void tall_skinny_update(const Executor& ex, T alpha, const ConstDenseView<T>& v, const ConstDenseView<T>& s, T beta, const DenseView<T>& y);

}  // namespace hsparse::cuda
