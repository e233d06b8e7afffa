#pragma once
// Partial row sums ("carries") left by kernels that split rows between
// threads (merge-path CSR, segmented COO). Two levels, both deterministic
// (the order of the additions never changes):
//  1. inside a block (combine_block_carries): the threads' carries are
//     ordered by thread, hence by row; a run of equal rows that ends before
//     the block's last carry is complete here (the row's end, and its
//     direct write, lie in this block), so its first thread adds
//     alpha * sum to y; the block's last run may go on in the next block
//     and becomes the block's one global carry;
//  2. across blocks (add_carries): the warp of the first carry of each
//     run of equal rows sums its run and adds alpha * sum to y.
// Level 1 keeps a row spread over many threads from being summed serially
// by one thread in level 2 (a 100k-entry row: 6000 thread carries, but
// only 50 block carries). Rows not in [0, rows) mark "no carry".
#include "device_common.cuh"

namespace hsparse::cuda::detail {

// Level 2: a warp per carry; the warp whose carry begins a run of equal rows
// sums the run, lane l taking carries l, l + 32, ..., then a fixed shuffle
// tree, so the order of the additions still never changes. One thread per
// run summed it serially, a dependent load per block of the run. On circuit
// n = 1e7 (8 hub rows of 950 k entries in HYB's COO tail, 464 block carries
// each) HYB took 0.432 ms on the H200 where Nsight Compute timed its two
// kernels at 218.6 and 126.7 us. With a warp per run, HYB on the H100
// went from 0.570 ms to 0.504, level with CSR
// adaptive's 0.505; on circuit n = 3e6 it runs 1.16x CSR adaptive
// (docs/results/2026-11-27-hyb-carries-h200-h100).
template <class D>
__global__ void add_carries_kernel(long long n, long long rows, const long long* __restrict__ carry_row,
                                   const D* __restrict__ carry_val, D alpha, D* __restrict__ y) {
  const long long t = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / 32;  // this warp's carry
  const int lane = static_cast<int>(threadIdx.x) & 31;
  if (t >= n) return;  // whole warps: blockDim.x is a multiple of 32
  const long long row = carry_row[t];
  if (row < 0 || row >= rows || (t > 0 && carry_row[t - 1] == row)) return;  // not the first of its run
  D sum(0);
  for (long long base = t;; base += 32) {
    const long long s = base + lane;
    const bool in_run = s < n && carry_row[s] == row;
    const unsigned outside = __ballot_sync(0xffffffffu, !in_run);
    const int end = outside != 0 ? __ffs(static_cast<int>(outside)) - 1 : 32;  // the run's first lane past its end
    if (lane < end) sum += carry_val[s];
    if (end < 32) break;
  }
  sum = group_sum<32>(sum);
  if (lane == 0) y[row] += alpha * sum;
}

template <class D>
void add_carries(const Executor& ex, long long n, long long rows, const long long* carry_row, const D* carry_val, D alpha, D* y) {
  if (n == 0) return;
  add_carries_kernel<D><<<grid_for(32 * n, 256), 256, 0, stream_of(ex)>>>(n, rows, carry_row, carry_val, alpha, y);
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

// Shared-memory layout of n staged carries: rows (long long) first, then
// values, 16-byte aligned; carry_scratch_bytes(n) bytes in all.
template <class D>
__host__ __device__ constexpr std::size_t carry_scratch_bytes(int n) {
  return (static_cast<std::size_t>(n) * sizeof(long long) + 15) / 16 * 16 + static_cast<std::size_t>(n) * sizeof(D);
}
template <class D>
__device__ __forceinline__ D* staged_carry_values(unsigned char* scratch, int n) {
  return reinterpret_cast<D*>(scratch + ((static_cast<std::size_t>(n) * sizeof(long long) + 15) / 16 * 16));
}

// Level 1 over n carries staged in `scratch` (in row order; every thread
// of the block calls it after a __syncthreads that follows the staging, so
// the block's direct writes to y come before these additions).
template <class D>
__device__ void combine_staged_carries(int n, long long rows, D alpha, D* y, long long* block_carry_row, D* block_carry_val,
                                       unsigned char* scratch) {
  const auto* s_row = reinterpret_cast<const long long*>(scratch);
  const D* s_val = staged_carry_values<D>(scratch, n);
  for (int i = static_cast<int>(threadIdx.x); i < n; i += static_cast<int>(blockDim.x)) {
    const long long r = s_row[i];
    const bool valid = r >= 0 && r < rows;
    if (i == n - 1 && !valid) block_carry_row[blockIdx.x] = -1;  // no carry from this block
    if (!valid || (i > 0 && s_row[i - 1] == r)) continue;           // not the first of its run
    D sum(0);
    int j = i;
    for (; j < n && s_row[j] == r; ++j) sum += s_val[j];
    if (j == n) {  // reaches the block's end: may continue in the next block
      block_carry_row[blockIdx.x] = r;
      block_carry_val[blockIdx.x] = sum;
    } else {
      y[r] += alpha * sum;
    }
  }
}

// Every thread of the block calls this (no early returns) with SLOTS
// carries, after its own writes to y. `scratch` is shared memory of at
// least carry_scratch_bytes<D>(blockDim.x * SLOTS) bytes, 16-byte aligned;
// it may alias the caller's staging buffers (synchronised before use).
template <int SLOTS, class D>
__device__ void combine_block_carries(long long rows, const long long (&row)[SLOTS], const D (&value)[SLOTS], D alpha, D* y,
                                      long long* block_carry_row, D* block_carry_val, unsigned char* scratch) {
  const int n = static_cast<int>(blockDim.x) * SLOTS;
  auto* s_row = reinterpret_cast<long long*>(scratch);
  D* s_val = staged_carry_values<D>(scratch, n);
  __syncthreads();  // the caller's use of the scratch memory is over
#pragma unroll
  for (int s = 0; s < SLOTS; ++s) {
    s_row[threadIdx.x * SLOTS + s] = row[s];
    s_val[threadIdx.x * SLOTS + s] = value[s];
  }
  __syncthreads();  // also orders this block's direct writes to y before the additions below
  combine_staged_carries(n, rows, alpha, y, block_carry_row, block_carry_val, scratch);
}

// Carry arrays laid out in one workspace: rows (long long) first, then values.
inline std::size_t carries_bytes(long long n, std::size_t value_bytes) {
  return static_cast<std::size_t>(n) * sizeof(long long) + static_cast<std::size_t>(n) * value_bytes + 16;
}
template <class D>
inline D* carry_values(void* workspace, long long n) {
  auto* base = static_cast<unsigned char*>(workspace) + static_cast<std::size_t>(n) * sizeof(long long);
  return reinterpret_cast<D*>(reinterpret_cast<std::uintptr_t>(base + 15) / 16 * 16);
}

}  // namespace hsparse::cuda::detail
