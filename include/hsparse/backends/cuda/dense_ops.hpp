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
//  - tensor: the CUTLASS hierarchy on Hopper's tensor cores (mma.sync),
//    double only (FP64 DMMA, IEEE products and sums);
//  - tf32: the same kernel for float with the inputs rounded to TF32 (10-bit
//    mantissa), opt-in only and named so: exact float is the SIMT kernels.
// All take op(A) = A or A^T and op(B) likewise, any sizes (edges are
// bounds-checked, not padded), beta == 0 without reading C. Float and
// double; complex values take the tiled kernel. cublas is the baseline
// (cuBLAS, column-major like us, default math: exact FP32 for float);
// cublas-tf32 its TF32 tensor-op mode, the baseline of tf32.
#include <string>
#include <vector>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/kernels/dense_ops.hpp"

namespace hsparse::cuda {

enum class GemmAlgorithm { untiled, tiled, register_blocked, tensor, tf32, cublas, cublas_tf32 };
const char* to_string(GemmAlgorithm a);
GemmAlgorithm parse_gemm_algorithm(const std::string& name);  // untiled, tiled, register, tensor, tf32, cublas, cublas-tf32

// A block's tile of C. Register-blocked: BM x BN per block, BK deep
// panels, TM x TN outputs per thread ("64x64x16/4x4"). Tensor-core: bk = 0
// (the panel is 128 bytes deep: 16 doubles or 32 floats), TM x TN is a
// warp's tile ("128x128/64x32").
struct GemmTile {
  int bm = 128, bn = 128, bk = 32, tm = 8, tn = 8;  // gemm_tiles().front() (a test holds them equal); MAGMA's Fermi tile is 64x64x16/4x4
  std::string name() const;
};
// The register-blocked tiles compiled (every one 256 threads), and the tensor-core ones.
const std::vector<GemmTile>& gemm_tiles();
const std::vector<GemmTile>& gemm_tensor_tiles();
// The tile an algorithm runs with, decided here only: the given one when it
// is of the algorithm's kind (bk == 0: tensor-core), else that kind's first
// compiled tile (register, tensor) or gemm_tf32_default_tile() (tf32: the
// fastest tiles differ between DMMA and TF32); unchanged for algorithms without tiles.
GemmTile gemm_tile_for(const std::string& algorithm, const GemmTile& tile);
GemmTile gemm_tf32_default_tile();  // one of gemm_tensor_tiles()
// Parses GemmTile::name()'s two forms; Error(invalid_argument) naming `option` otherwise.
GemmTile parse_gemm_tile(const std::string& text, const std::string& option);

// C = alpha op(A) op(B) + beta C on device views, on ex's stream.
// `tile` is the register-blocked or tensor-core kernel's (the first
// compiled one when the caller's does not match the algorithm's kind).
// Error(invalid_argument) for mismatched shapes or a tile not compiled;
// Error(unsupported) for tensor on float (use tf32) or tf32 on double.
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
