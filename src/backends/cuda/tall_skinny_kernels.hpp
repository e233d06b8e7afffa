#pragma once
// The GPU tall-skinny kernels' launchers, called by tall_skinny.cu's
// dispatch (backends/cuda/dense_ops.hpp) once shapes are checked: n >= 1
// rows, k and l columns in 1..32 (wider products are split into launches of
// 32). V^T W writes S (k x l) = alpha V^T W + beta S; V S writes
// Y (n x l) = alpha V S + beta Y; beta = 0 reads neither S nor Y.
//  - tall_skinny_narrow.cu: k, l <= 8, float and double, a thread per row
//    (pair) with every product in registers, no shared memory;
//  - tall_skinny_dmma.cu: double with k or l above 8 (V^T W: 6 or more), the FP64 tensor
//    cores fed from global memory straight into MMA fragments;
//  - tall_skinny.cu: float with k or l above 8 (SIMT, tiles in shared memory).
#include "check.cuh"
#include "hsparse/backends/cuda/device.hpp"

namespace hsparse::cuda::detail {

// The blocks' partial sums of V^T W and the last block's completion counter
// (zero between launches), per host thread, grown as needed.
struct TallSkinnyScratch {
  DeviceArray<double> partials;
  DeviceArray<unsigned> counter;
  double* reserve(const Executor& ex, std::size_t n);
};
TallSkinnyScratch& tall_skinny_scratch();

template <class D>
void ts_dot_narrow(const Executor& ex, long long n, int k, int l, const D* v, long long ldv, const D* w, long long ldw, D alpha, D beta, D* s,
                   long long lds);
template <class D>
void ts_update_narrow(const Executor& ex, long long n, int k, int l, const D* v, long long ldv, const D* s, long long lds, D alpha, D beta, D* y,
                      long long ldy);

void ts_dot_dmma(const Executor& ex, long long n, int k, int l, const double* v, long long ldv, const double* w, long long ldw, double alpha,
                 double beta, double* s, long long lds);
void ts_update_dmma(const Executor& ex, long long n, int k, int l, const double* v, long long ldv, const double* s, long long lds, double alpha,
                    double beta, double* y, long long ldy);

// Resident blocks of `kernel` on the whole device at `threads` per block:
// the grid of a grid-stride loop that fills every SM once (occupancy of
// sm_90, the one architecture built; computed once per kernel).
template <auto Kernel>
int resident_blocks(const Executor& ex, int threads, std::size_t shared = 0) {
  static const int per_sm = [&] {
    int blocks = 0;
    HSPARSE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, Kernel, threads, shared));
    return blocks < 1 ? 1 : blocks;
  }();
  return per_sm * ex.multiprocessors();
}

}  // namespace hsparse::cuda::detail
