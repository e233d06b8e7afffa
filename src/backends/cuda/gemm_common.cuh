#pragma once
// Shared by the GPU GEMM kernels (gemm.cu, gemm_tensor_core.cu,
// gemm_dmma.cu): operand access from column-major storage, the output
// update, asynchronous global -> shared copies, the block order and the
// launch of a grid of C tiles.
#include <climits>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>

#include "check.cuh"
#include "device_common.cuh"
#include "hsparse/backends/cuda/dense_ops.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda::detail {

// op(A)(i, p) and op(B)(p, j) from column-major storage.
template <class D>
__device__ __forceinline__ D load_a(const D* a, long long lda, bool t, long long i, long long p) { return t ? a[p + i * lda] : a[i + p * lda]; }
template <class D>
__device__ __forceinline__ D load_b(const D* b, long long ldb, bool t, long long p, long long j) { return t ? b[j + p * ldb] : b[p + j * ldb]; }
template <class D>
__device__ __forceinline__ const D* address_a(const D* a, long long lda, bool t, long long i, long long p) { return t ? a + p + i * lda : a + i + p * lda; }
template <class D>
__device__ __forceinline__ const D* address_b(const D* b, long long ldb, bool t, long long p, long long j) { return t ? b + j + p * ldb : b + p + j * ldb; }

// C(i, j) = alpha v + beta C(i, j); C not read when beta is zero (NaN in C stays out).
template <class D>
__device__ __forceinline__ void store_c(D* c, long long ldc, long long i, long long j, D alpha, D v, D beta) {
  D& out = c[i + j * ldc];
  out = beta == D(0) ? alpha * v : alpha * v + beta * out;
}

// One element global -> shared without passing through registers (sm_80+
// cp.async, .ca: 4- and 8-byte copies are allowed there). `valid` false
// writes zeros (src-size 0) and reads nothing, which pads the edge tiles.
template <class D>
__device__ __forceinline__ void copy_async(D* shared, const D* global, bool valid) {
  static_assert(sizeof(D) == 4 || sizeof(D) == 8, "cp.async element of 4 or 8 bytes");
  const auto dst = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  const int src_bytes = valid ? static_cast<int>(sizeof(D)) : 0;
  if constexpr (sizeof(D) == 8) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(dst), "l"(global), "r"(src_bytes));
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(global), "r"(src_bytes));
  }
}
// 16 bytes global -> shared (.cg: L2 only), both addresses 16-byte aligned;
// the bytes past src_bytes (0..16) are zero-filled and not read.
__device__ __forceinline__ void copy_async_16(void* shared, const void* global, int src_bytes) {
  const auto dst = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(global), "r"(src_bytes));
}
__device__ __forceinline__ void copy_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int Pending>
__device__ __forceinline__ void copy_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending)); }

// Whether column-major operands can move as 16-byte runs along their
// columns (2 doubles, 4 floats): every pointer 16-byte aligned and every
// leading dimension a multiple of the run, so each run starting at a
// multiple of it within a column is aligned too. The GEMM's panel copies
// and the tall-skinny kernels' row vectors; else they move one value at a time.
template <class D>
bool in_16_byte_runs(std::initializer_list<const void*> pointers, std::initializer_list<long long> lds) {
  constexpr long long run = 16 / static_cast<long long>(sizeof(D));
  for (const void* p : pointers) {
    if (reinterpret_cast<std::uintptr_t>(p) % 16 != 0) return false;
  }
  for (long long ld : lds) {
    if (ld % run != 0) return false;
  }
  return true;
}

// c += a b on the FP64 tensor cores (DMMA), PTX mma.m16n8k4 f64, lane = 4 g + q:
//   A (16 x 4): a0 at row g, column q; a1 at row g + 8, column q;
//   B (4 x 8):  b at row q, column g;
//   C (16 x 8): c[r] at row g + 8 (r / 2), column 2 q + r % 2.
__device__ __forceinline__ void dmma_m16n8k4(double (&c)[4], double a0, double a1, double b) {
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
               : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
               : "d"(a0), "d"(a1), "d"(b));
}

// c += a b on the FP64 tensor cores, PTX mma.m16n8k8 f64 (PTX ISA 7.8,
// sm_90; cuBLAS's DGEMM on the H200 runs this shape), lane = 4 g + q:
//   A (16 x 8): a[r] at row g + 8 (r % 2), column q + 4 (r / 2);
//   B (8 x 8):  b[r] at row q + 4 r, column g;  C as for m16n8k4.
__device__ __forceinline__ void dmma_m16n8k8(double (&c)[4], const double (&a)[4], const double (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
               : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
}

// Block (bi, bj) of a grid of tiles_m x tiles_n C tiles from a 1-D block
// index, grouped GROUP tiles down m at a time: the blocks resident together
// share a few panels of A and B, which then stay in L2 (for 8192^2 doubles
// a panel is 8 MB; row-major order would sweep all of A per B panel).
template <int GROUP>
__device__ __forceinline__ void grouped_tile(long long block, long long tiles_m, long long tiles_n, long long& bi, long long& bj) {
  const long long per_group = static_cast<long long>(GROUP) * tiles_n;
  const long long group = block / per_group, first_m = group * GROUP;
  const long long rows = tiles_m - first_m < GROUP ? tiles_m - first_m : GROUP;
  const long long in_group = block % per_group;
  bi = first_m + in_group % rows;
  bj = in_group / rows;
}

// One block per BM x BN tile of C (the 1-D grid that grouped_tile orders):
// opts the kernel in to `shared` bytes of dynamic shared memory (above
// 48 KiB a kernel must; per device, so on every launch: the call is cheap)
// and launches it; Error(invalid_argument) naming `what` when the tiles exceed the grid.
template <int BM, int BN, class Kernel, class... Args>
void launch_c_tiles(const char* what, const Executor& ex, const GemmShape& s, Kernel kernel, int threads, std::size_t shared, Args... args) {
  HSPARSE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  const long long blocks = ((s.m + BM - 1) / BM) * ((s.n + BN - 1) / BN);
  if (blocks > INT_MAX) throw Error(ErrorCode::invalid_argument, std::string(what) + ": " + std::to_string(blocks) + " tiles exceed the grid");
  kernel<<<static_cast<unsigned>(blocks), threads, shared, stream_of(ex)>>>(args...);
}

// f(std::bool_constant<TA>, std::bool_constant<TB>): the transposes as
// template arguments, so a kernel's index arithmetic has no run-time select.
template <class F>
void with_transposes(bool ta, bool tb, F&& f) {
  if (ta) {
    if (tb) f(std::true_type{}, std::true_type{});
    else f(std::true_type{}, std::false_type{});
  } else {
    if (tb) f(std::false_type{}, std::true_type{});
    else f(std::false_type{}, std::false_type{});
  }
}

}  // namespace hsparse::cuda::detail
