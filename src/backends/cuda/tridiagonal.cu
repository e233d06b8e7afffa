// Batched tridiagonal solvers on the GPU (backends/cuda/tridiagonal.hpp).
// A zero or non-finite pivot is recorded as the smallest "system * size +
// row" in a device flag (atomicMin); check() reads it and throws.
#include "hsparse/backends/cuda/tridiagonal.hpp"

#include <climits>
#include <string>
#include <vector>

#include "cusparse_check.hpp"
#include "device_common.cuh"
#include "hsparse/core/error.hpp"

#include "tridiagonal_cr_pcr.cuh"
#include "tridiagonal_partition.cuh"
#include "tridiagonal_thomas.cuh"

namespace hsparse::cuda {

using namespace tridiagonal_kernels;

template <class V>
struct TridiagonalSolver<V>::State {
  const Executor* ex = nullptr;
  DeviceArray<unsigned long long> flag;
  std::vector<DeviceArray<V>> levels;  // partition method: one workspace per recursion level
  DeviceArray<V> scratch;              // Thomas' c'; interleaved copies
  DeviceArray<unsigned char> cusparse_buffer;
  cusparseHandle_t handle = nullptr;
  long long flag_size = 1, flag_count = 1;  // the shape the flag's index refers to
  TridiagonalLayout flag_layout = TridiagonalLayout::contiguous;

  V* workspace(std::size_t level, std::size_t n) {
    if (levels.size() <= level) levels.resize(level + 1);
    if (levels[level].size() < n) levels[level] = DeviceArray<V>(n);
    return levels[level].data();
  }
};

template <class V>
TridiagonalSolver<V>::TridiagonalSolver(const Executor& ex) : state_(new State) {
  state_->ex = &ex;
  state_->flag = DeviceArray<unsigned long long>(1);
  const unsigned long long none = kNoBadPivot;
  state_->flag.upload(&none, 1);
}

template <class V>
TridiagonalSolver<V>::~TridiagonalSolver() {
  if (state_ && state_->handle) cusparseDestroy(state_->handle);
}

namespace {

template <class V>
void launch_shared(const Executor& ex, TridiagonalAlgorithm alg, long long size, long long count, int hybrid_switch, const V* a, const V* b, const V* c,
                   const V* d, V* x, unsigned long long* flag, RowMap map) {
  if (size > shared_solver_max_size(alg)) {
    throw Error(ErrorCode::invalid_argument, std::string(to_string(alg)) + " solves systems of up to " + std::to_string(shared_solver_max_size(alg)) +
                                                 " unknowns in shared memory, not " + std::to_string(size) + " (use partition or auto)");
  }
  if (count == 0 || size == 0) return;
  if (count > INT_MAX) throw Error(ErrorCode::invalid_argument, "tridiagonal: more than 2^31 - 1 systems for one block each");
  const int P = next_pow2(size);
  const std::size_t bytes = 5 * static_cast<std::size_t>(P) * sizeof(V);
  const auto s = detail::stream_of(ex);
  // CR: a thread per pair; PCR: a thread per equation; the hybrid: a thread
  // per pair unless its PCR phase has more equations than that.
  const int wanted = alg == TridiagonalAlgorithm::pcr ? P : std::max(1, alg == TridiagonalAlgorithm::cr ? P / 2 : std::max(P / 2, std::min(P, hybrid_switch)));
  const int threads = std::min(wanted, 1024);  // CR's loops take the rest; the hybrid's PCR phase is capped below
  hybrid_switch = std::min(hybrid_switch, 1024);
  if (bytes > 48 * 1024) {  // opt in once, for the largest system (4096 unknowns)
    static const bool opted_in = [] {
      const int most = static_cast<int>(5 * kSharedCrMaxSize * sizeof(V));
      HSPARSE_CUDA_CHECK(cudaFuncSetAttribute(shared_kernel<V, kCr>, cudaFuncAttributeMaxDynamicSharedMemorySize, most));
      HSPARSE_CUDA_CHECK(cudaFuncSetAttribute(shared_kernel<V, kHybrid>, cudaFuncAttributeMaxDynamicSharedMemorySize, most));
      return true;
    }();
    (void)opted_in;
  }
  const auto grid = static_cast<unsigned>(count);
  switch (alg) {
    case TridiagonalAlgorithm::cr: shared_kernel<V, kCr><<<grid, threads, bytes, s>>>(size, P, 0, a, b, c, d, x, flag, map); break;
    case TridiagonalAlgorithm::pcr: shared_kernel<V, kPcr><<<grid, threads, bytes, s>>>(size, P, 0, a, b, c, d, x, flag, map); break;
    default: shared_kernel<V, kHybrid><<<grid, threads, bytes, s>>>(size, P, hybrid_switch, a, b, c, d, x, flag, map); break;
  }
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

template <class V>
void TridiagonalSolver<V>::solve(const TridiagonalSystems<V>& s, const V* d, V* x, const TridiagonalOptions& o) {
  check_tridiagonal_shape(s);
  if (o.hybrid_switch < 2 || o.partition_rows < 2) throw Error(ErrorCode::invalid_argument, "tridiagonal: hybrid switch and partition rows must be >= 2");
  State& st = *state_;
  const Executor& ex = *st.ex;
  const auto stream = detail::stream_of(ex);
  st.flag_size = s.size;
  st.flag_count = s.count;
  st.flag_layout = TridiagonalLayout::contiguous;  // kernels report system * size + row
  const long long n = s.entries();
  if (n == 0) {
    description_ = "empty";
    return;
  }
  TridiagonalAlgorithm alg = o.algorithm;
  const bool interleaved = s.layout == TridiagonalLayout::interleaved;
  if (alg == TridiagonalAlgorithm::automatic) {
    // Interleaved: a thread per system once there are enough systems to
    // fill the GPU (H200: 64 x 16,384 71 us vs 95 transposed; 512 x 32,768
    // 735 vs 1,450), else transposed (4,096 x 4,096: 5,074 vs 1,592).
    // Contiguous: the tiled Thomas with as many systems (H200: 512 x 32,768
    // 459 us vs the hybrid's 695; 64 x 262,144 361 vs CR's ~590; 64 x
    // 16,384 46 vs PCR's 44, a tie).
    if (s.count >= 16384) alg = TridiagonalAlgorithm::thomas;
    // CR: the fastest of the three on the H200 for 512 x 512 (19.3 us; PCR
    // 21.6, hybrid 22-28) and within 5% of PCR on 64 x 262,144.
    else alg = s.size <= kSharedCrMaxSize ? TridiagonalAlgorithm::cr : TridiagonalAlgorithm::partition;
  }
  if (alg == TridiagonalAlgorithm::thomas) {
    if (st.scratch.size() < static_cast<std::size_t>(n)) st.scratch = DeviceArray<V>(static_cast<std::size_t>(n));
    const long long system_stride = interleaved ? 1 : s.size, row_stride = interleaved ? s.count : 1;
    const std::size_t shared_bytes = static_cast<std::size_t>(s.size) * kThomasThreads * sizeof(V);
    // Only while 16 blocks of 128 threads still fit an SM (H200: c' in
    // shared memory for 64-unknown systems cut occupancy to 3 blocks and
    // doubled the time, 354 -> 678 us on 262,144 systems).
    if (!interleaved) {
      thomas_tiled_kernel<V><<<blocks_for(s.count, kTileSystems), kTileSystems, 0, stream>>>(s.size, s.count, s.a, s.b, s.c, d, x, st.scratch.data(),
                                                                                         st.flag.data());
    } else if (shared_bytes <= 12 * 1024) {
      thomas_kernel<V, true><<<blocks_for(s.count, kThomasThreads), kThomasThreads, shared_bytes, stream>>>(
          s.size, s.count, system_stride, row_stride, s.a, s.b, s.c, d, x, nullptr, st.flag.data());
    } else {
      thomas_kernel<V, false><<<blocks_for(s.count, kThomasThreads), kThomasThreads, 0, stream>>>(
          s.size, s.count, system_stride, row_stride, s.a, s.b, s.c, d, x, st.scratch.data(), st.flag.data());
    }
    HSPARSE_CUDA_CHECK(cudaGetLastError());
    description_ = std::string("thomas/") + to_string(s.layout);
    return;
  }
  // The other algorithms work on contiguous systems: interleaved input is
  // copied to a contiguous layout first and x copied back.
  const V *ca = s.a, *cb = s.b, *cc = s.c, *cd = d;
  V* cx = x;
  if (interleaved) {
    if (st.scratch.size() < static_cast<std::size_t>(5 * n)) st.scratch = DeviceArray<V>(static_cast<std::size_t>(5 * n));
    V* w = st.scratch.data();
    const V* in[4] = {s.a, s.b, s.c, d};
    for (int k = 0; k < 4; ++k) transpose_kernel<V><<<grid_stride_blocks(n), 256, 0, stream>>>(s.size, s.count, in[k], w + k * n, true);
    ca = w;
    cb = w + n;
    cc = w + 2 * n;
    cd = w + 3 * n;
    cx = w + 4 * n;
  }
  description_ = interleaved ? "transpose -> " : "";
  if (alg != TridiagonalAlgorithm::partition) {
    launch_shared<V>(ex, alg, s.size, s.count, o.hybrid_switch, ca, cb, cc, cd, cx, st.flag.data(), RowMap{});
    description_ += std::string(to_string(alg)) + (alg == TridiagonalAlgorithm::hybrid ? "(" + std::to_string(o.hybrid_switch) + ")" : "");
  } else {
    // The partition method over the batch as one block-diagonal system,
    // recursing on the reduced system until it fits one block.
    const int m = o.partition_rows;
    long long level_n = n, sys_size = s.size;
    const V *la = ca, *lb = cb, *lc = cc, *ld = cd;
    V* lx = cx;
    RowMap map;
    struct Level {
      long long n, parts;
      V *D, *G, *A, *l;
      V* x;
    };
    std::vector<Level> stack;
    std::size_t depth = 0;
    long long sys_count = s.count;
    // Recurse while a system is too long for one block. When the partitions
    // tile each system exactly (size a multiple of m), the reduced system is
    // again `count` independent systems, and the recursion can stop as soon
    // as they fit one block each (65,536 x 16: two levels, not three).
    while (depth == 0 ? level_n > kSharedCrMaxSize : sys_size > kSharedCrMaxSize) {
      const long long parts = (level_n + m - 1) / m;
      V* w = st.workspace(depth, static_cast<std::size_t>(3 * level_n + 8 * parts));
      V *D = w, *G = w + level_n, *A = w + 2 * level_n, *last = w + 3 * level_n;
      V *ra = last + 3 * parts, *rb = ra + parts, *rc = rb + parts, *rd = rc + parts, *l = rd + parts;
      const std::size_t staged_bytes = 4 * static_cast<std::size_t>(kStagedThreads) * (m + 1) * sizeof(V);
      if (staged_bytes <= kMaxStagedBytes) {  // coalesced through shared memory (opt-in beyond 48 KiB, set once)
        static const bool opted_in = [] {
          HSPARSE_CUDA_CHECK(cudaFuncSetAttribute(partition_sweep_staged_kernel<V>, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxStagedBytes));
          return true;
        }();
        (void)opted_in;
        partition_sweep_staged_kernel<V><<<blocks_for(parts, kStagedThreads), kStagedThreads, staged_bytes, stream>>>(
            level_n, sys_size, m, la, lb, lc, ld, D, G, A, last, st.flag.data(), map);
      } else {
        partition_sweep_kernel<V><<<blocks_for(parts, 128), 128, 0, stream>>>(level_n, sys_size, m, la, lb, lc, ld, D, G, A, last, st.flag.data(), map);
      }
      partition_reduce_kernel<V><<<blocks_for(parts, 256), 256, 0, stream>>>(level_n, m, parts, D, G, A, last, ra, rb, rc, rd);
      HSPARSE_CUDA_CHECK(cudaGetLastError());
      stack.push_back({level_n, parts, D, G, A, l, lx});
      description_ += "partition(" + std::to_string(m) + ") -> ";
      // The reduced system's row j is row (j+1)m - 1 here: `count` systems of
      // size/m when the partitions tile the systems, else one of `parts`.
      map = RowMap{map.scale * m, map.scale * (m - 1) + map.offset};
      if (sys_size % m == 0 && sys_size / m * sys_count == parts) {
        sys_size /= m;
      } else {
        sys_size = parts;
        sys_count = 1;
      }
      la = ra;
      lb = rb;
      lc = rc;
      ld = rd;
      lx = l;
      level_n = parts;
      ++depth;
    }
    launch_shared<V>(ex, TridiagonalAlgorithm::hybrid, sys_size, sys_count, o.hybrid_switch, la, lb, lc, ld, lx, st.flag.data(), map);
    description_ += "hybrid(" + std::to_string(o.hybrid_switch) + ")";
    for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
      partition_recover_kernel<V><<<grid_stride_blocks(it->n), 256, 0, stream>>>(it->n, m, it->D, it->G, it->A, it->l, it->x);
    }
    HSPARSE_CUDA_CHECK(cudaGetLastError());
  }
  if (interleaved) {
    transpose_kernel<V><<<grid_stride_blocks(n), 256, 0, stream>>>(s.size, s.count, cx, x, false);
    HSPARSE_CUDA_CHECK(cudaGetLastError());
  }
}

template <class V>
void TridiagonalSolver<V>::check() {
  State& st = *state_;
  unsigned long long bad = kNoBadPivot;
  HSPARSE_CUDA_CHECK(cudaMemcpyAsync(&bad, st.flag.data(), sizeof bad, cudaMemcpyDeviceToHost, detail::stream_of(*st.ex)));
  HSPARSE_CUDA_CHECK(cudaStreamSynchronize(detail::stream_of(*st.ex)));
  if (bad == kNoBadPivot) return;
  const unsigned long long none = kNoBadPivot;
  st.flag.upload(&none, 1);
  const auto row = static_cast<long long>(bad & ((1ULL << kClassShift) - 1));
  const long long size = std::max<long long>(1, st.flag_size);
  const long long clamped = std::min(row, size * std::max<long long>(1, st.flag_count) - 1);
  throw_zero_pivot(clamped / size, clamped % size, "GPU");
}

template <class V>
void TridiagonalSolver<V>::cusparse_solve(const TridiagonalSystems<V>& s, const V* d, V* x, bool in_place) {
  check_tridiagonal_shape(s);
  State& st = *state_;
  const Executor& ex = *st.ex;
  if (!st.handle) HSPARSE_CUSPARSE_CHECK(cusparseCreate(&st.handle));
  HSPARSE_CUSPARSE_CHECK(cusparseSetStream(st.handle, detail::stream_of(ex)));
  if (s.entries() == 0) return;
  if (s.size > INT_MAX || s.count > INT_MAX) throw Error(ErrorCode::unsupported, "cuSPARSE gtsv takes int sizes");
  const int m = static_cast<int>(s.size), batch = static_cast<int>(s.count);
  // cuSPARSE solves in place: x starts as d.
  if (in_place && x != d) throw Error(ErrorCode::invalid_argument, "cusparse_solve in place: x must be d");
  if (x != d) HSPARSE_CUDA_CHECK(cudaMemcpyAsync(x, d, static_cast<std::size_t>(s.entries()) * sizeof(V), cudaMemcpyDeviceToDevice, detail::stream_of(ex)));
  std::size_t bytes = 0;
  if (s.layout == TridiagonalLayout::contiguous) {
    if constexpr (std::is_same_v<V, double>) {
      HSPARSE_CUSPARSE_CHECK(cusparseDgtsv2StridedBatch_bufferSizeExt(st.handle, m, s.a, s.b, s.c, x, batch, m, &bytes));
    } else {
      HSPARSE_CUSPARSE_CHECK(cusparseSgtsv2StridedBatch_bufferSizeExt(st.handle, m, s.a, s.b, s.c, x, batch, m, &bytes));
    }
    if (st.cusparse_buffer.size() < bytes) st.cusparse_buffer = DeviceArray<unsigned char>(bytes);
    if constexpr (std::is_same_v<V, double>) {
      HSPARSE_CUSPARSE_CHECK(cusparseDgtsv2StridedBatch(st.handle, m, s.a, s.b, s.c, x, batch, m, st.cusparse_buffer.data()));
    } else {
      HSPARSE_CUSPARSE_CHECK(cusparseSgtsv2StridedBatch(st.handle, m, s.a, s.b, s.c, x, batch, m, st.cusparse_buffer.data()));
    }
  } else {
    // gtsvInterleavedBatch may overwrite its diagonals: it works on copies (unless in place).
    const std::size_t n = static_cast<std::size_t>(s.entries());
    V* w = nullptr;
    if (in_place) {
      if (s.b != s.a + n || s.c != s.b + n) throw Error(ErrorCode::invalid_argument, "cusparse_solve in place: a, b, c must be consecutive");
      w = const_cast<V*>(s.a);
    } else {
      if (st.scratch.size() < 3 * n) st.scratch = DeviceArray<V>(3 * n);
      w = st.scratch.data();
      const auto stream = detail::stream_of(ex);
      HSPARSE_CUDA_CHECK(cudaMemcpyAsync(w, s.a, n * sizeof(V), cudaMemcpyDeviceToDevice, stream));
      HSPARSE_CUDA_CHECK(cudaMemcpyAsync(w + n, s.b, n * sizeof(V), cudaMemcpyDeviceToDevice, stream));
      HSPARSE_CUDA_CHECK(cudaMemcpyAsync(w + 2 * n, s.c, n * sizeof(V), cudaMemcpyDeviceToDevice, stream));
    }
    if constexpr (std::is_same_v<V, double>) {
      HSPARSE_CUSPARSE_CHECK(cusparseDgtsvInterleavedBatch_bufferSizeExt(st.handle, 0, m, w, w + n, w + 2 * n, x, batch, &bytes));
    } else {
      HSPARSE_CUSPARSE_CHECK(cusparseSgtsvInterleavedBatch_bufferSizeExt(st.handle, 0, m, w, w + n, w + 2 * n, x, batch, &bytes));
    }
    if (st.cusparse_buffer.size() < bytes) st.cusparse_buffer = DeviceArray<unsigned char>(bytes);
    if constexpr (std::is_same_v<V, double>) {
      HSPARSE_CUSPARSE_CHECK(cusparseDgtsvInterleavedBatch(st.handle, 0, m, w, w + n, w + 2 * n, x, batch, st.cusparse_buffer.data()));
    } else {
      HSPARSE_CUSPARSE_CHECK(cusparseSgtsvInterleavedBatch(st.handle, 0, m, w, w + n, w + 2 * n, x, batch, st.cusparse_buffer.data()));
    }
  }
}

template class TridiagonalSolver<float>;
template class TridiagonalSolver<double>;

}  // namespace hsparse::cuda
