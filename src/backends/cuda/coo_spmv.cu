// COO SpMV with segmented reduction (Owens lecture, "COO"; Bell and
// Garland, section 4.2 of their SC'09 paper: a segmented reduction over the
// row-sorted products). Decomposition: warp w of the grid owns entries
// [w*256, (w+1)*256), read in 8 rounds of 32 consecutive entries (lane l
// takes entry l of each round: coalesced, no staging in shared memory).
// Each round is one segmented inclusive scan across the warp (5 shuffles,
// keyed by row, as in Sengupta et al.'s segmented scan); the lane where a
// row's run ends adds it to y, and lane 31's running sum carries into the
// next round. A row that may continue from the previous warp (the warp's
// first) or into the next (its last) becomes one of the warp's two carries,
// which carries.cuh combines in order, inside the block and then across
// blocks. A first kernel scales y by beta unless beta is 1 (rows without
// entries are then done). Sortedness is checked when the matrix is uploaded
// (DeviceCoo callers use canonical COO).
//
// Issue 18: the previous kernel gave each thread 15 consecutive entries,
// staged through shared memory and walked serially (157 GFLOP/s on the
// power-law matrix at 8d83662, where cuSPARSE's COO reached 303: ncu, 78%
// of DRAM bandwidth against our CSR's 57%).
#include "carries.cuh"
#include "hsparse/backends/cuda/format_spmv.hpp"

namespace hsparse::cuda {

namespace {

constexpr int kRounds = 8;  // entries per lane: 8 independent gathers in flight per thread
constexpr int kWarpsPerBlock = 8;
constexpr int kWarpEntries = 32 * kRounds;
constexpr int kTile = kWarpsPerBlock * kWarpEntries;

template <class D>
__global__ void scale_kernel(long long n, D beta, bool read_y, D* __restrict__ y) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = read_y ? beta * y[i] : D(0);
}

template <class D, class I>
__global__ void __launch_bounds__(32 * kWarpsPerBlock)
    coo_kernel(long long rows, long long nnz, const I* __restrict__ row_idx, const I* __restrict__ col_idx, const D* __restrict__ values,
               const D* __restrict__ x, D alpha, D* __restrict__ y, long long* __restrict__ carry_row, D* __restrict__ carry_val) {
  constexpr int kSlots = 2 * kWarpsPerBlock;  // the warps' carries: first row, last row
  __shared__ alignas(16) unsigned char scratch[detail::carry_scratch_bytes<D>(kSlots)];
  auto* slot_row = reinterpret_cast<long long*>(scratch);
  D* slot_val = detail::staged_carry_values<D>(scratch, kSlots);
  const int lane = static_cast<int>(threadIdx.x) & 31, warp = static_cast<int>(threadIdx.x) / 32;
  const long long base = static_cast<long long>(blockIdx.x) * kTile + static_cast<long long>(warp) * kWarpEntries;
  if (base >= nnz) {  // past the end (last block): no carries
    if (lane < 2) slot_row[2 * warp + lane] = -1;
  } else {
    const int n = nnz - base < kWarpEntries ? static_cast<int>(nnz - base) : kWarpEntries;
    I row[kRounds];
    D product[kRounds];
    {
      I col[kRounds];
      D val[kRounds];
#pragma unroll
      for (int u = 0; u < kRounds; ++u) {
        const int i = u * 32 + lane;
        if (i < n) {
          row[u] = detail::stream_load(row_idx + base + i);
          col[u] = detail::stream_load(col_idx + base + i);
          val[u] = detail::stream_load(values + base + i);
        } else {
          row[u] = I(-1);  // no entry (the warp's last round may be partial)
        }
      }
#pragma unroll
      for (int u = 0; u < kRounds; ++u) product[u] = u * 32 + lane < n ? val[u] * x[col[u]] : D(0);
    }
    const I first = __shfl_sync(0xffffffffu, row[0], 0);  // the warp's first row (n >= 1)
    // Default first carry (first, 0): keeps the carries' runs unbroken when
    // the first row's run does not end inside the warp.
    if (lane == 0) {
      slot_row[2 * warp] = first;
      slot_val[2 * warp] = D(0);
    }
    __syncwarp();
    I run_row = -1;  // the row of the run entering this round (lane 31 of the previous one) and its sum
    D run(0);
#pragma unroll
    for (int u = 0; u < kRounds; ++u) {
      if (u * 32 >= n) break;  // warp-uniform
      const bool valid = u * 32 + lane < n;
      const I key = row[u];
      D sum = product[u];
#pragma unroll
      for (int offset = 1; offset < 32; offset *= 2) {  // segmented inclusive scan
        const D up = detail::shuffle_up(sum, offset);
        const I up_key = __shfl_up_sync(0xffffffffu, key, offset);
        if (lane >= offset && up_key == key) sum += up;
      }
      if (key == run_row) sum += run;  // the lanes continuing the previous round's last run (a prefix: rows are sorted)
      I next = __shfl_down_sync(0xffffffffu, key, 1);
      const I next_round_first = u + 1 < kRounds ? __shfl_sync(0xffffffffu, row[u + 1 < kRounds ? u + 1 : u], 0) : I(-1);
      if (lane == 31) next = next_round_first;  // -1 past the warp's entries
      const bool last = valid && u * 32 + lane == n - 1;
      if (valid && (last || next != key)) {  // this lane ends a run of `key`
        if (last) {  // may continue in the next warp
          slot_row[2 * warp + 1] = key;
          slot_val[2 * warp + 1] = sum;
        } else if (key == first) {  // may have begun in the previous warp
          slot_val[2 * warp] = sum;
        } else {  // wholly inside this warp: no other thread touches the row
          y[key] += alpha * sum;
        }
      }
      run_row = __shfl_sync(0xffffffffu, key, 31);
      run = detail::shuffle_from(sum, 31);
    }
  }
  __syncthreads();  // the slots are staged; also orders this block's direct writes to y before the combination
  detail::combine_staged_carries(kSlots, rows, alpha, y, carry_row, carry_val, scratch);
}

long long coo_blocks(std::size_t nnz) { return (static_cast<long long>(nnz) + kTile - 1) / kTile; }

}  // namespace

std::size_t coo_workspace_bytes(std::size_t nnz, std::size_t value_bytes) {
  return detail::carries_bytes(coo_blocks(nnz), value_bytes);
}

template <class V, class I>
void coo_spmv_segmented(const Executor& ex, V alpha, const DeviceCoo<V, I>& a, const V* x, V beta, V* y, void* workspace) {
  using D = detail::device_t<V>;
  if (a.rows == 0) return;
  if (beta != V(1)) {  // beta == 1 (HYB's COO tail after its ELL part): y is already right
    scale_kernel<D><<<detail::grid_for(a.rows, 256), 256, 0, detail::stream_of(ex)>>>(a.rows, detail::dev_value(beta),
                                                                                       beta != V(0), detail::dev(y));
    HSPARSE_CUDA_CHECK(cudaGetLastError());
  }
  const long long nnz = static_cast<long long>(a.nnz());
  if (nnz == 0) return;
  auto* carry_row = static_cast<long long*>(workspace);
  const long long blocks = coo_blocks(a.nnz());
  if (blocks > (1LL << 30)) throw Error(ErrorCode::invalid_argument, "COO: the matrix needs more blocks than one grid holds");
  D* carry_val = detail::carry_values<D>(workspace, blocks);  // one carry per block
  const D al = detail::dev_value(alpha);
  coo_kernel<D, I><<<static_cast<unsigned>(blocks), 32 * kWarpsPerBlock, 0, detail::stream_of(ex)>>>(
      a.rows, nnz, a.row_idx.data(), a.col_idx.data(), detail::dev(a.values.data()), detail::dev(x), al, detail::dev(y), carry_row,
      carry_val);
  HSPARSE_CUDA_CHECK(cudaGetLastError());
  detail::add_carries(ex, blocks, a.rows, carry_row, carry_val, al, detail::dev(y));
}

#define HSPARSE_INSTANTIATE(V, I) \
  template void coo_spmv_segmented(const Executor&, V, const DeviceCoo<V, I>&, const V*, V, V*, void*);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
