// COO SpMV with segmented reduction (Bell and Garland, SC'09, section 4.2:
// a segmented reduction over the row-sorted products; the thread-then-warp
// split of Merrill and Garland's reduce-by-key). Decomposition: lane l of
// warp w owns entries [w*256 + 8l, w*256 + 8l + 8), loaded as 16-byte
// vectors (a warp reads 256 consecutive entries). Each lane sums its
// entries serially: a row that begins and ends inside the lane goes to y
// at once; its first and last rows' partial sums remain. One segmented
// inclusive scan across the warp (5 shuffle steps, keyed by the lanes'
// last rows; rows are sorted, so equal keys mean every lane between holds
// only that row) completes the runs that cross lanes. A row that may
// continue from the previous warp (the warp's first) or into the next (its
// last) becomes one of the warp's two carries, which carries.cuh combines
// in order, inside the block and then across blocks. A first kernel scales
// y by beta unless beta is 1 (rows without entries are then done).
// Sortedness is checked when the matrix is uploaded (DeviceCoo callers use
// canonical COO).
//
// Issue 18, H200, power-law matrix (2 M rows): a thread per 15 entries
// staged through shared memory and walked serially, 157 GFLOP/s; a lane
// per entry and a shuffle scan per 32 entries, 195 (ncu: 48% of DRAM
// bandwidth, the scan's shuffles); cuSPARSE's COO 301.
#include <cstdint>

#include "carries.cuh"
#include "hsparse/backends/cuda/format_spmv.hpp"

namespace hsparse::cuda {

namespace {

constexpr int kPerLane = 8;  // 8 independent gathers in flight per thread; whole 16-byte loads for every type
constexpr int kWarpsPerBlock = 8;
constexpr int kWarpEntries = 32 * kPerLane;
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
  const long long warp_base = static_cast<long long>(blockIdx.x) * kTile + static_cast<long long>(warp) * kWarpEntries;
  if (warp_base >= nnz) {  // past the end (last block): no carries
    if (lane < 2) slot_row[2 * warp + lane] = -1;
  } else {
    const long long base = warp_base + static_cast<long long>(lane) * kPerLane;
    const int n = base >= nnz ? 0 : (nnz - base < kPerLane ? static_cast<int>(nnz - base) : kPerLane);  // this lane's entries
    I row[kPerLane];
    D product[kPerLane];
    {
      I col[kPerLane];
      D val[kPerLane];
      if (n == kPerLane) {
        detail::stream_load_pack(row_idx + base, row);
        detail::stream_load_pack(col_idx + base, col);
        detail::stream_load_pack(values + base, val);
      } else {
#pragma unroll
        for (int k = 0; k < kPerLane; ++k) {
          row[k] = k < n ? row_idx[base + k] : I(-1);
          col[k] = k < n ? col_idx[base + k] : I(0);
          val[k] = k < n ? values[base + k] : D(0);
        }
      }
#pragma unroll
      for (int k = 0; k < kPerLane; ++k) product[k] = k < n ? val[k] * x[col[k]] : D(0);
    }
    // The lane's serial part: its first run's sum (head), its last run's
    // (tail); runs strictly between are whole rows of this lane alone.
    const I first_row = row[0];  // -1 for a lane without entries
    I last_row = first_row;
    D head(0), tail(0);
    {
      I& current = last_row;
      bool in_head = true;
#pragma unroll
      for (int k = 0; k < kPerLane; ++k) {
        if (k >= n) break;
        if (row[k] != current) {
          if (!in_head) y[current] += alpha * tail;  // ended inside the lane, began inside it
          in_head = false;
          current = row[k];
          tail = D(0);
        }
        (in_head ? head : tail) += product[k];
      }
      if (in_head) tail = head;  // one run: head and tail are the same
    }
    // Scan over lanes, keyed by last row: total of the run ending at each lane's last entry.
    D total = tail;
#pragma unroll
    for (int offset = 1; offset < 32; offset *= 2) {
      const D up = detail::shuffle_up(total, offset);
      const I up_key = __shfl_up_sync(0xffffffffu, last_row, offset);
      if (lane >= offset && up_key == last_row) total += up;
    }
    const I previous_last = __shfl_up_sync(0xffffffffu, last_row, 1);
    const D previous_total = detail::shuffle_up(total, 1);
    const I next_first = __shfl_down_sync(0xffffffffu, first_row, 1);
    const I warp_first = __shfl_sync(0xffffffffu, first_row, 0);  // lane 0 has entries when the warp has
    const int warp_entries = nnz - warp_base < kWarpEntries ? static_cast<int>(nnz - warp_base) : kWarpEntries;
    const int last_lane = (warp_entries - 1) / kPerLane;
    if (lane == 0) {  // default first carry (warp_first, 0): keeps the carries' runs unbroken
      slot_row[2 * warp] = warp_first;
      slot_val[2 * warp] = D(0);
    }
    __syncwarp();
    // Ends a run of `r` with sum `s`: the warp's last run may go on into
    // the next warp, its first may have begun in the previous one.
    auto finish = [&](I r, D s, bool warp_end) {
      if (warp_end) {
        slot_row[2 * warp + 1] = r;
        slot_val[2 * warp + 1] = s;
      } else if (r == warp_first) {
        slot_val[2 * warp] = s;
      } else {
        y[r] += alpha * s;  // no other thread touches the row
      }
    };
    if (n > 0) {
      const bool one_run = first_row == last_row;
      if (!one_run) finish(first_row, head + (lane > 0 && previous_last == first_row ? previous_total : D(0)), false);
      const bool ends_here = lane == last_lane || next_first != last_row;
      if (ends_here) finish(last_row, total, lane == last_lane);
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
  // The kernel's 16-byte loads: DeviceArray's storage comes from cudaMalloc (256-byte aligned).
  for (const void* p : {static_cast<const void*>(a.row_idx.data()), static_cast<const void*>(a.col_idx.data()),
                        static_cast<const void*>(a.values.data())}) {
    if (reinterpret_cast<std::uintptr_t>(p) % 16 != 0) throw Error(ErrorCode::internal, "COO: device arrays not 16-byte aligned");
  }
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
