// Long-row-safe CSR SpMV: CSR-Adaptive (Greathouse and Daga, SC'14) with
// long rows split across blocks (the dc1 problem of Reguly's section 6).
// Decomposition: one 256-thread block per work block of the schedule
// (built once on the host: kernels/row_blocks.hpp):
//  - a run of short rows ("CSR-stream"): the block loads the run's
//    products val*x[col] into shared memory with coalesced loads, then
//    groups of `width` threads (as many as fit: width * rows <= 256, a
//    power of two <= 32) each reduce one row from shared memory;
//  - one row (or one piece of a split row): all 256 threads stride over it
//    (coalesced) and reduce through the block; a piece's sum goes to its
//    slot in the workspace;
//  - a second kernel, one warp per split row, adds its pieces' slots in a
//    fixed order: deterministic, no atomics.
// The same kernel runs CSR16 (issue 18), its columns a row base plus 16-bit
// offsets (csr_columns.cuh).
#include <algorithm>
#include <climits>
#include <type_traits>
#include <vector>

#include "csr16_wide_rows.cuh"
#include "csr_columns.cuh"
#include "device_common.cuh"
#include "hsparse/backends/cuda/csr_spmv.hpp"
#include "hsparse/backends/cuda/format_spmv.hpp"
#include "hsparse/kernels/row_blocks.hpp"

namespace hsparse::cuda {

namespace {

constexpr int kThreads = 256;
constexpr long long kMaxRowsPerBlock = 512;  // short rows: a thread reduces at most 2 rows
// Short-row blocks: a row longer than kLongRowSteps entries per lane of its
// group is reduced by a whole warp after the others (adaptive_block). Such
// rows have more than kLongRowSteps entries each, so a block holds at most
// kMaxLongRows of them. H200 (docs/results/2026-11-27-csr-adaptive-long-rows-h200): at 16
// steps, power law 4e6 rows +3%, 2e6 unchanged, but cage10 replicated -8% (a
// third of its rows, 13 a row on average, moved to the warps); at 32 no row
// of the suite's regular matrices moves, and with pieces of 2048 the second
// phase gave the 2e6-row power law +7%.
// A schedule with no such row skips the phase (its list, atomics and second
// barrier: CsrAdaptiveSchedule::long_rows_in_runs). H100, stencil3d n=155,
// `hsparse spmv`, two rounds: CSR16 adaptive 415.5 and 415.8 GFLOP/s against
// 402.9 and 402.0 with the phase, CSR adaptive 416.3 and 412.6 against 410.7
// and 410.8 (docs/results/2026-11-27-spmv-suite-h100).
constexpr int kLongRowSteps = 32;
constexpr int kMaxLongRows = static_cast<int>(kAdaptiveBlockNnz / (kLongRowSteps + 1)) + 1;

template <class D>
__device__ __forceinline__ D block_sum(D v, D* warp_sums) {  // the total is valid in thread 0
  v = detail::group_sum<32>(v);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  D total(0);
  if (warp == 0) total = detail::group_sum<32>(lane < kThreads / 32 ? warp_sums[lane] : D(0));
  return total;
}

// Shared memory of the short-row path: CSR stages the products val*x[col]
// (an entry names its column); CSR16 stages values and offsets (an entry
// alone does not know its row, so not its base), and each row's threads
// gather x from its base in batches (reduce_staged_row).
template <class D, class DS, class Columns>
constexpr std::size_t kStageBytes =
    kAdaptiveBlockNnz * (Columns::row_base ? sizeof(DS) + sizeof(typename Columns::Stored) : sizeof(D));
// The long-row list of the second phase (adaptive_block) and its count
// follow the stage; with the largest stage (complex double CSR16, 36 KB)
// they fit the 48 KB of static shared memory.
template <class D, class DS, class Columns>
constexpr std::size_t kSharedBytes = kStageBytes<D, DS, Columns> + (kMaxLongRows + 1) * sizeof(int);

// One lane's share of a CSR16 row staged in shared memory: kBatch gathers
// issued before their products are summed, so a lane keeps kBatch loads of
// x in flight (a plain strided loop waits for each in turn: measured on the
// H200, stencil3d n=155, 535 GFLOP/s against CSR adaptive's 607; writing
// each entry's base beside it and staging products as CSR does, 411).
template <class D, class DS, class Stored>
__device__ __forceinline__ D reduce_staged_row(const DS* values, const Stored* offsets, const D* __restrict__ xr, int begin, int end,
                                               int width) {
  constexpr int kBatch = 8;
  D sum(0);
  for (int k = begin; k < end; k += kBatch * width) {
    D product[kBatch];
#pragma unroll
    for (int u = 0; u < kBatch; ++u) {
      const int i = k + u * width;
      product[u] = i < end ? D(values[i]) * xr[offsets[i]] : D(0);
    }
#pragma unroll
    for (int u = 0; u < kBatch; ++u) sum += product[u];
  }
  return sum;
}

// DS: the stored values' device type (D, or single precision widened to D).
// long_rows: some run of the schedule holds a row for the second phase
// (CsrAdaptiveSchedule::long_rows_in_runs); without one, every block skips it.
// A work block's 4 numbers (CsrAdaptiveSchedule): one 16-byte load for int32.
template <class B>
struct WorkBlock {
  B row_begin, row_end, k0, k1;
};
template <class B>
__device__ __forceinline__ WorkBlock<B> load_work_block(const B* __restrict__ blocks) {
  if constexpr (sizeof(B) == 4) {
    const int4 b = reinterpret_cast<const int4*>(blocks)[blockIdx.x];
    return {b.x, b.y, b.z, b.w};
  } else {
    const B* b = blocks + 4 * static_cast<long long>(blockIdx.x);
    return {b[0], b[1], b[2], b[3]};
  }
}

// The work blocks' number type of a kernel: the index type for the plain
// kernels on real values, 64-bit for the evict-first kernel and for complex
// values. H200, ABBA in one call against 64-bit blocks for every kernel:
// with int32 blocks the evict-first kernel lost 7% on the power law
// (319/321 against 343/343 GFLOP/s) and 6% in the slabs (stencil 460
// against 489), while the plain kernel gained (stencil 572-576 against
// 526). Its staging code is the same
// either way; the difference is in ptxas's schedule (not examined further).
// With int32 blocks ptxas also capped complex double's kernels at 64
// registers and spilled 4-16 bytes.
template <bool EVICT_FIRST, class D, class I>
using WorkBlockNumber = std::conditional_t<!EVICT_FIRST && std::is_floating_point_v<D>, I, std::int64_t>;

template <bool EVICT_FIRST, class D, class DS, class I, class B, class Columns>
__device__ __forceinline__ void adaptive_block(const B* __restrict__ blocks, const I* __restrict__ row_ptr, Columns columns,
                                               const DS* __restrict__ values, const D* __restrict__ x, D alpha, D beta, bool read_y,
                                               D* __restrict__ y, D* __restrict__ partials, bool long_rows) {
  // Raw storage: complex types have constructors, not allowed on __shared__ arrays.
  // One buffer for both paths.
  static_assert(kSharedBytes<D, DS, Columns> <= 48 * 1024, "CSR adaptive: the stage and the long-row list pass 48 KB");
  __shared__ alignas(16) unsigned char stage_bytes[kSharedBytes<D, DS, Columns>];
  D* warp_sums = reinterpret_cast<D*>(stage_bytes);  // the one-row path
  const auto [row_begin, row_end, k0, k1] = load_work_block(blocks);
  if (row_end < 0 || row_end - row_begin == 1) {  // one row or one piece of a split row (row_begin is its row)
    const D* xr = x + columns.base(row_begin);
    D sum(0), sum2(0);  // two chains in flight
    long long k = static_cast<long long>(k0) + threadIdx.x;  // k + kThreads must not wrap
    for (; k + kThreads < k1; k += 2 * kThreads) {
      sum += D(values[k]) * xr[columns.at(k)];
      sum2 += D(values[k + kThreads]) * xr[columns.at(k + kThreads)];
    }
    if (k < k1) sum += D(values[k]) * xr[columns.at(k)];
    sum += sum2;
    sum = block_sum(sum, warp_sums);
    if (threadIdx.x == 0) {
      if (row_end < 0) partials[-row_end - 1] = sum;
      else detail::write_output(y, row_begin, alpha, sum, beta, read_y);
    }
    return;
  }
  const int n = static_cast<int>(k1 - k0);
  const int rows = static_cast<int>(row_end - row_begin);
  int* long_list = reinterpret_cast<int*>(stage_bytes + kStageBytes<D, DS, Columns>);  // kMaxLongRows rows, then their count
  if (long_rows && threadIdx.x == 0) long_list[kMaxLongRows] = 0;  // read after the staging's barrier
  const int width = adaptive_run_width(rows, kThreads);
  const int groups = kThreads / width, group = threadIdx.x / width, lane = threadIdx.x % width;
  D* products = reinterpret_cast<D*>(stage_bytes);
  using Stored = typename Columns::Stored;
  DS* staged_values = reinterpret_cast<DS*>(stage_bytes);  // CSR16
  Stored* staged_offsets = reinterpret_cast<Stored*>(stage_bytes + kAdaptiveBlockNnz * sizeof(DS));
  if constexpr (Columns::row_base) {
    constexpr int kPerThread = kAdaptiveBlockNnz / kThreads;
    Stored offset[kPerThread];
    DS value[kPerThread];
#pragma unroll
    for (int u = 0; u < kPerThread; ++u) {  // every load issued before the first store
      const int i = static_cast<int>(threadIdx.x) + u * kThreads;
      if (i < n) {
        offset[u] = columns.stored()[k0 + i];
        value[u] = values[k0 + i];
      }
    }
#pragma unroll
    for (int u = 0; u < kPerThread; ++u) {
      const int i = static_cast<int>(threadIdx.x) + u * kThreads;
      if (i < n) {
        staged_offsets[i] = offset[u];
        staged_values[i] = value[u];
      }
    }
  } else {
    detail::stage_products<kThreads, kAdaptiveBlockNnz / kThreads, EVICT_FIRST>(k0, n, columns.stored(), values, x, products);
  }
  __syncthreads();
  // A row's sum from the staged entries by `w` lanes, this one lane `l` of them.
  const auto row_sum = [&](int r, int l, int w) {
    const int begin = static_cast<int>(row_ptr[row_begin + r] - k0), end = static_cast<int>(row_ptr[row_begin + r + 1] - k0);
    if constexpr (Columns::row_base) {
      return reduce_staged_row(staged_values, staged_offsets, x + columns.base(row_begin + r), begin + l, end, w);
    } else {
      // Four products a step in two chains: a lane's share of a row is
      // read from shared memory one product after another, and the plain
      // loop's overhead per product set the pace (power law, H200: 280 ->
      // 332 GFLOP/s; stencil +2%, banded +1.6%, circuit -2.4%, cage10 and
      // bcsstk16 unchanged: docs/results/2026-11-26-csr-adaptive-bcsr-lanes-h200).
      D sum(0), sum2(0);
      int k = begin + l;
      for (; k + 3 * w < end; k += 4 * w) {
        sum += products[k] + products[k + w];
        sum2 += products[k + 2 * w] + products[k + 3 * w];
      }
      for (; k < end; k += w) sum += products[k];
      return sum + sum2;
    }
  };
  // Rows whose share per lane exceeds kLongRowSteps are left to the second
  // phase, a warp each: with `width` lanes per row, one long row among
  // short ones (power law: a 1000-entry row among 300 rows of 2-3, one
  // lane each) held its warp, and the block's shared memory, for its whole
  // length while the other warps had finished.
  for (int base = 0; base < rows; base += groups) {  // the same trip count in every lane: the shuffles need them all
    const int r = base + group;
    bool in_first = false;
    D sum(0);
    if (r < rows) {
      in_first = !long_rows || !adaptive_second_phase_row(row_ptr[row_begin + r + 1] - row_ptr[row_begin + r], width, kLongRowSteps);
      if (in_first) sum = row_sum(r, lane, width);
      else if (lane == 0) long_list[atomicAdd(&long_list[kMaxLongRows], 1)] = r;
    }
    sum = detail::group_sum_n(sum, width);
    if (lane == 0 && in_first) detail::write_output(y, row_begin + r, alpha, sum, beta, read_y);
  }
  if (!long_rows) return;  // uniform: the schedule's
  __syncthreads();
  const int long_count = long_list[kMaxLongRows];
  const int warps = kThreads / 32, warp = static_cast<int>(threadIdx.x) / 32, warp_lane = static_cast<int>(threadIdx.x) % 32;
  for (int i = warp; i < long_count; i += warps) {  // uniform per warp
    const int r = long_list[i];
    const D sum = detail::group_sum<32>(row_sum(r, warp_lane, 32));
    if (warp_lane == 0) detail::write_output(y, row_begin + r, alpha, sum, beta, read_y);
  }
}

// Two entry points, one body: their launch bounds differ. CSR16 on real
// values with int32: eight blocks per multiprocessor, 32 registers (H200,
// stencil3d n=155: at its natural 40 registers and six blocks 535 GFLOP/s,
// at 32 and eight 572). CSR keeps the bounds it was tuned with: asked for
// eight blocks it also gets 32 registers but fell from 607 to 506 GFLOP/s,
// and with an explicit minimum of one it took 52 registers and fell to 446.
template <bool EVICT_FIRST, class D, class DS, class I, class B, class Columns>
__global__ void __launch_bounds__(kThreads)
    csr_adaptive_kernel(const B* __restrict__ blocks, const I* __restrict__ row_ptr, Columns columns,
                        const DS* __restrict__ values, const D* __restrict__ x, D alpha, D beta, bool read_y, D* __restrict__ y,
                        D* __restrict__ partials, bool long_rows) {
  adaptive_block<EVICT_FIRST>(blocks, row_ptr, columns, values, x, alpha, beta, read_y, y, partials, long_rows);
}
template <bool EVICT_FIRST, class D, class DS, class I, class B, class Columns>
__global__ void __launch_bounds__(kThreads, 8)
    csr_adaptive_kernel_8_blocks(const B* __restrict__ blocks, const I* __restrict__ row_ptr, Columns columns,
                                 const DS* __restrict__ values, const D* __restrict__ x, D alpha, D beta, bool read_y,
                                 D* __restrict__ y, D* __restrict__ partials, bool long_rows) {
  adaptive_block<EVICT_FIRST>(blocks, row_ptr, columns, values, x, alpha, beta, read_y, y, partials, long_rows);
}

template <class D>
__global__ void add_pieces_kernel(long long count, const long long* __restrict__ long_rows, const D* __restrict__ partials,
                                  D alpha, D beta, bool read_y, D* __restrict__ y) {
  const long long w = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (w >= count) return;  // uniform per warp
  const long long row = long_rows[3 * w], s1 = long_rows[3 * w + 2];
  D sum(0);
  for (long long s = long_rows[3 * w + 1] + lane; s < s1; s += 32) sum += partials[s];
  sum = detail::group_sum<32>(sum);
  if (lane == 0) detail::write_output(y, row, alpha, sum, beta, read_y);
}

}  // namespace

template <class I>
CsrAdaptiveSchedule csr_adaptive_schedule(std::span<const I> row_ptr) {
  const RowBlocks b = adaptive_row_blocks(row_ptr, kAdaptiveBlockNnz, kAdaptivePieceNnz, kMaxRowsPerBlock);
  CsrAdaptiveSchedule s;
  s.slots = b.slots;
  s.block_count = static_cast<long long>(b.blocks.size() / 4);
  s.long_row_count = static_cast<long long>(b.long_rows.size() / 3);
  s.long_rows_in_runs = runs_hold_second_phase_rows(b, row_ptr, kThreads, kLongRowSteps);
  if (s.block_count > INT_MAX) throw Error(ErrorCode::invalid_argument, "CSR adaptive: too many work blocks for one grid");
  if constexpr (sizeof(I) == 4) {
    std::vector<std::int32_t> narrow(b.blocks.size());
    for (std::size_t i = 0; i < b.blocks.size(); ++i) {
      // Never taken: rows, nnz and slots of an int32 matrix are below 2^31.
      if (b.blocks[i] < INT_MIN || b.blocks[i] > INT_MAX) throw Error(ErrorCode::internal, "CSR adaptive: a work block passes int32");
      narrow[i] = static_cast<std::int32_t>(b.blocks[i]);
    }
    s.blocks32 = DeviceArray<std::int32_t>(narrow);
  }
  // Also for int32: the evict-first kernel reads 64-bit blocks (WorkBlockNumber),
  // and evict_first is set after the schedule is built. 32 bytes per 2048 entries.
  s.blocks64 = DeviceArray<std::int64_t>(std::vector<std::int64_t>(b.blocks.begin(), b.blocks.end()));
  s.long_rows = DeviceArray<long long>(b.long_rows);
  return s;
}

namespace {

// The launch CSR and CSR16 share: the work blocks, then the split rows' pieces.
template <class V, class S, class I, class Columns>
void run_adaptive(const Executor& ex, V alpha, const I* row_ptr, Columns columns, const S* values, const V* x, V beta, V* y,
                  const CsrAdaptiveSchedule& schedule, void* workspace) {
  if (schedule.block_count == 0) return;
  using D = detail::device_t<V>;
  using DS = detail::device_t<S>;
  const D al = detail::dev_value(alpha), be = detail::dev_value(beta);
  const bool read_y = beta != V(0);
  D* partials = static_cast<D*>(workspace);
  const auto launch = [&](auto kernel, const auto* blocks) {
    kernel<<<static_cast<unsigned>(schedule.block_count), kThreads, 0, detail::stream_of(ex)>>>(
        blocks, row_ptr, columns, detail::dev(values), detail::dev(x), al, be, read_y, detail::dev(y), partials, schedule.long_rows_in_runs);
  };
  using B = WorkBlockNumber<false, D, I>;
  using BF = WorkBlockNumber<true, D, I>;
  if constexpr (Columns::row_base && std::is_floating_point_v<D> && sizeof(I) == 4) {
    launch(csr_adaptive_kernel_8_blocks<false, D, DS, I, B, Columns>, schedule.template blocks<B>());
  } else if constexpr (Columns::row_base) {  // complex values or int64 indices would spill at 32 registers
    launch(csr_adaptive_kernel<false, D, DS, I, B, Columns>, schedule.template blocks<B>());
  } else if (schedule.evict_first) {
    launch(csr_adaptive_kernel<true, D, DS, I, BF, Columns>, schedule.template blocks<BF>());
  } else {
    launch(csr_adaptive_kernel<false, D, DS, I, B, Columns>, schedule.template blocks<B>());
  }
  HSPARSE_CUDA_CHECK(cudaGetLastError());
  if (schedule.long_row_count > 0) {
    add_pieces_kernel<D><<<detail::grid_for(32 * schedule.long_row_count, 256), 256, 0, detail::stream_of(ex)>>>(
        schedule.long_row_count, schedule.long_rows.data(), partials, al, be, read_y, detail::dev(y));
    HSPARSE_CUDA_CHECK(cudaGetLastError());
  }
}

}  // namespace

template <class V, class I>
void csr_spmv_adaptive(const Executor& ex, V alpha, const DeviceCsr<V, I>& a, const V* x, V beta, V* y,
                       const CsrAdaptiveSchedule& schedule, void* workspace) {
  if (a.rows == 0) return;
  run_adaptive(ex, alpha, a.row_ptr.data(), detail::StoredColumns<I>{a.col_idx.data()}, a.values.data(), x, beta, y, schedule, workspace);
}

template <class V, class I>
int csr_adaptive_blocks_per_sm(bool evict_first) {
  using D = detail::device_t<V>;
  using Columns = detail::StoredColumns<I>;
  int blocks = 0;
  if (evict_first) {
    HSPARSE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, csr_adaptive_kernel<true, D, D, I, WorkBlockNumber<true, D, I>, Columns>, kThreads, 0));
  } else {
    HSPARSE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, csr_adaptive_kernel<false, D, D, I, WorkBlockNumber<false, D, I>, Columns>, kThreads, 0));
  }
  return blocks;
}

template <class V, class S, class I>
void csr16_spmv_adaptive(const Executor& ex, V alpha, const DeviceCsr16<S, I>& a, const V* x, V beta, V* y, const Csr16AdaptiveSchedules& schedules,
                         void* workspace) {
  if (a.rows == 0) return;
  run_adaptive(ex, alpha, a.row_ptr.data(), detail::OffsetColumns<I>{a.base.data(), a.offset.data()}, a.values.data(), x, beta, y,
               schedules.narrow, workspace);
  if (a.wide) {
    V* sums = reinterpret_cast<V*>(static_cast<unsigned char*>(workspace) + schedules.wide_sums_offset(sizeof(V)));
    run_adaptive(ex, alpha, a.wide->row_ptr.data(), detail::StoredColumns<I>{a.wide->col_idx.data()}, a.wide->values.data(), x, V(0), sums,
                 schedules.wide, workspace);
    detail::add_wide_rows(ex, a.wide_row_count(), a.wide_rows.data(), sums, y);
  }
}

template CsrAdaptiveSchedule csr_adaptive_schedule(std::span<const std::int32_t>);
template CsrAdaptiveSchedule csr_adaptive_schedule(std::span<const std::int64_t>);
#define HSPARSE_INSTANTIATE(V, I)                                                                                               \
  template void csr_spmv_adaptive(const Executor&, V, const DeviceCsr<V, I>&, const V*, V, V*, const CsrAdaptiveSchedule&, void*); \
  template void csr16_spmv_adaptive<V, V, I>(const Executor&, V, const DeviceCsr16<V, I>&, const V*, V, V*, const Csr16AdaptiveSchedules&, void*); \
  template int csr_adaptive_blocks_per_sm<V, I>(bool);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE
#define HSPARSE_INSTANTIATE(V, S, I)                                                                                    \
  template void csr16_spmv_adaptive<V, S, I>(const Executor&, V, const DeviceCsr16<S, I>&, const V*, V, V*, const Csr16AdaptiveSchedules&, \
                                             void*);
HSPARSE_FOR_EACH_DOUBLE_SINGLE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
