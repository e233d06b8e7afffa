// Pipelined CG's two fused kernels on the device (backends/cuda/vector_ops.hpp).
// The scalar recurrence is kernels/pipelined_cg_step.hpp, shared with the
// CPU; here the last block of each grid reduction runs it, so alpha, beta
// and the convergence test stay on the device. A kernel whose state is no
// longer running returns at once: iterations after convergence are no-ops.
#include "device_common.cuh"
#include "hsparse/backends/cuda/vector_ops.hpp"
#include "hsparse/kernels/pipelined_cg_step.hpp"
#include "reduction.cuh"

namespace hsparse::cuda {

namespace {

template <class V>
__global__ void update_kernel(long long n, const V* __restrict__ ap, const V* __restrict__ dinv, V* __restrict__ x, V* r, V* z,
                              V* __restrict__ p, PipelinedCgState* st, double* history, int history_size, double* partials,
                              unsigned* counter, double* local_sums) {
  if (st->done != pcg_running) return;  // the same value in every thread: the grid leaves together
  const V alpha = static_cast<V>(st->alpha), beta = static_cast<V>(st->beta);
  double s[2] = {0.0, 0.0};
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const V pi = p[i];
    x[i] += alpha * pi;
    const V ri = r[i] - alpha * ap[i];
    r[i] = ri;
    V zi = ri;
    if (dinv) {
      zi = dinv[i] * ri;
      z[i] = zi;
    }
    p[i] = zi + beta * pi;
    s[0] += static_cast<double>(ri) * static_cast<double>(zi);
    s[1] += static_cast<double>(ri) * static_cast<double>(ri);
  }
  if (detail::grid_sum<2>(s, partials, counter) && threadIdx.x == 0) {
    if (local_sums) {
      local_sums[0] = s[0];
      local_sums[1] = s[1];
    } else {
      pipelined_cg_after_update(*st, s[0], s[1], history, history_size);
    }
  }
}

template <class V>
__global__ void dots_kernel(long long n, const V* __restrict__ p, const V* __restrict__ ap, const V* __restrict__ dinv, PipelinedCgState* st,
                            double* partials, unsigned* counter, double* local_sums) {
  if (st->done != pcg_running) return;
  double s[2] = {0.0, 0.0};
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const double a = ap[i];
    s[0] += static_cast<double>(p[i]) * a;
    s[1] += a * a * (dinv ? static_cast<double>(dinv[i]) : 1.0);
  }
  if (detail::grid_sum<2>(s, partials, counter) && threadIdx.x == 0) {
    if (local_sums) {
      local_sums[0] = s[0];
      local_sums[1] = s[1];
    } else {
      pipelined_cg_after_dots(*st, s[0], s[1]);
    }
  }
}

__global__ void advance_kernel(PipelinedCgState* st, const double* sums, bool update_pending, double* history, int history_size) {
  if (st->done != pcg_running) return;
  if (update_pending) pipelined_cg_after_update(*st, sums[0], sums[1], history, history_size);
  if (st->done == pcg_running) pipelined_cg_after_dots(*st, sums[2], sums[3]);
}

}  // namespace

void pipelined_cg_advance(const Executor& ex, PipelinedCgState* state, const double* sums, bool update_pending, double* history, int history_size) {
  advance_kernel<<<1, 1, 0, detail::stream_of(ex)>>>(state, sums, update_pending, history, history_size);
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

template <class V>
void pipelined_cg_update(const Executor& ex, long long n, const V* ap, const V* dinv, V* x, V* r, V* z, V* p, PipelinedCgState* state,
                         double* history, int history_size, ReductionScratch& scratch, double* local_sums) {
  const unsigned blocks = detail::reduction_blocks(n, ReductionScratch::kMaxBlocks);
  update_kernel<<<blocks, detail::kReduceThreads, 0, detail::stream_of(ex)>>>(n, ap, dinv, x, r, dinv ? z : nullptr, p, state, history,
                                                                              history_size, scratch.partials(), scratch.counter(), local_sums);
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

template <class V>
void pipelined_cg_dots(const Executor& ex, long long n, const V* p, const V* ap, const V* dinv, PipelinedCgState* state, ReductionScratch& scratch,
                       double* local_sums) {
  const unsigned blocks = detail::reduction_blocks(n, ReductionScratch::kMaxBlocks);
  dots_kernel<<<blocks, detail::kReduceThreads, 0, detail::stream_of(ex)>>>(n, p, ap, dinv, state, scratch.partials(), scratch.counter(), local_sums);
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

#define HSPARSE_INSTANTIATE(V)                                                                                                         \
  template void pipelined_cg_update(const Executor&, long long, const V*, const V*, V*, V*, V*, V*, PipelinedCgState*, double*, int, \
                                    ReductionScratch&, double*);                                                                      \
  template void pipelined_cg_dots(const Executor&, long long, const V*, const V*, const V*, PipelinedCgState*, ReductionScratch&, double*);
HSPARSE_INSTANTIATE(float)
HSPARSE_INSTANTIATE(double)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
