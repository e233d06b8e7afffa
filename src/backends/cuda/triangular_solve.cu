// Sparse triangular solves on the GPU (backends/cuda/triangular_solve.hpp).
// Both algorithms read one layout, made once on the host: the rows in the
// order of triangular_levels(), position p holding row row_of[p], its
// entries off the diagonal [ptr[p], ptr[p + 1]) and its diagonal diag[p]
// (1 for a unit diagonal); x[row] = (b[row] - sum val * x[col]) / diag.
//
// level_scheduled: one launch per level; a group of `width` lanes (a power
// of two <= 32, the mean row length rounded up) owns a position and strides
// over its entries; the group's sum is reduced by shuffles and its lane 0
// writes x. A launch ends before the next level's starts, so every x a
// level reads is written.
//
// sync_free (Liu et al., Euro-Par 2016, section 3, in its CSR form): one
// launch; a warp takes a position from an atomic ticket counter, its lanes
// stride over the row, each lane waiting for the "done" flag of the row of
// its entry (an acquire load, __nanosleep back-off) before reading that x;
// lane 0 writes x and sets its row's flag (a release store). The flags and
// the ticket are zeroed before each solve.
// Why it cannot deadlock: tickets are handed out in increasing order to
// warps that are already running, and positions are in level order, so
// every row a warp waits on has a smaller ticket, held by a warp that is
// resident (or done): blocks may be scheduled in any order, but a warp never
// waits on a row no running warp holds. By induction on the tickets, the
// smallest unfinished one waits on nothing unfinished and completes. A warp
// that finishes takes the next ticket, so a grid of any size covers every row.
#include <cuda/atomic>

#include <algorithm>
#include <vector>

#include "device_common.cuh"
#include "hsparse/backends/cuda/triangular_solve.hpp"

namespace hsparse::cuda {

namespace {

constexpr int kBlock = 128;
constexpr int kWarp = 32;

template <class D, class I>
struct LevelRows {
  const I* ptr;
  const I* col;
  const D* val;
  const D* diag;
  const I* row_of;
};

__device__ __forceinline__ void wait_done(int* flag) {
  ::cuda::atomic_ref<int, ::cuda::thread_scope_device> done(*flag);
  unsigned ns = 32;
  while (done.load(::cuda::memory_order_acquire) == 0) {
    __nanosleep(ns);
    if (ns < 1024) ns *= 2;
  }
}

// Lane `lane` of a group of `width`: its share of the row's sum at position p.
template <bool Wait, class D, class I>
__device__ __forceinline__ D partial_sum(const LevelRows<D, I>& m, long long p, int lane, int width, const D* x, int* done) {
  D s(0);
  for (I k = m.ptr[p] + lane; k < m.ptr[p + 1]; k += width) {
    const I c = m.col[k];
    if constexpr (Wait) {
      wait_done(done + c);  // acquire: the x[c] written before the flag's release is seen (PTX memory model)
      s += m.val[k] * x[c];
    } else {
      s += m.val[k] * x[c];
    }
  }
  return s;
}

template <class D, class I>
__global__ void level_kernel(LevelRows<D, I> m, long long first, long long count, int width, const D* __restrict__ b, D* __restrict__ x) {
  const long long g = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long group = g / width;
  const int lane = static_cast<int>(g % width);
  const bool active = group < count;
  D s = active ? partial_sum<false>(m, first + group, lane, width, x, nullptr) : D(0);
  s = detail::group_sum_n(s, width);  // every lane of the warp takes part
  if (active && lane == 0) {
    const I r = m.row_of[first + group];
    x[r] = (b[r] - s) / m.diag[first + group];
  }
}

template <class D, class I>
__global__ void sync_free_kernel(LevelRows<D, I> m, long long n, const D* __restrict__ b, D* x, unsigned long long* ticket, int* done) {
  const int lane = static_cast<int>(threadIdx.x % kWarp);
  for (;;) {
    unsigned long long t = 0;
    if (lane == 0) t = atomicAdd(ticket, 1ULL);
    t = __shfl_sync(0xffffffffu, t, 0);
    if (t >= static_cast<unsigned long long>(n)) return;
    const auto p = static_cast<long long>(t);
    const D s = detail::group_sum<kWarp>(partial_sum<true>(m, p, lane, kWarp, x, done));
    if (lane == 0) {
      const I r = m.row_of[p];
      x[r] = (b[r] - s) / m.diag[p];
      ::cuda::atomic_ref<int, ::cuda::thread_scope_device>(done[r]).store(1, ::cuda::memory_order_release);
    }
  }
}

}  // namespace

template <class V, class I>
struct TriangularSolve<V, I>::State {
  const Executor* ex = nullptr;
  TriangularAlgorithm algorithm = TriangularAlgorithm::level_scheduled;
  long long n = 0;
  int width = 1;
  std::vector<std::int64_t> level_ptr;
  DeviceArray<I> ptr, col, row_of;
  DeviceArray<V> val, diag;
  DeviceArray<unsigned long long> sync;  // sync_free: the ticket, then n int flags

  LevelRows<detail::device_t<V>, I> rows() const {
    return {ptr.data(), col.data(), detail::dev(val.data()), detail::dev(diag.data()), row_of.data()};
  }
};

template <class V, class I>
TriangularSolve<V, I>::TriangularSolve(const Executor& ex, const Csr<V, I>& t, Triangle which, bool unit_diagonal,
                                       TriangularAlgorithm algorithm)
    : state_(std::make_unique<State>()) {
  hsparse::detail::check_triangle(t, which, unit_diagonal);
  const LevelSchedule s = triangular_levels(t, which);
  State& st = *state_;
  st.ex = &ex;
  st.algorithm = algorithm;
  st.n = t.rows;
  st.level_ptr = s.level_ptr;
  std::vector<I> ptr{0}, col, row_of(static_cast<std::size_t>(st.n));
  std::vector<V> val, diag(static_cast<std::size_t>(st.n), V(1));
  col.reserve(t.nnz());
  val.reserve(t.nnz());
  for (long long p = 0; p < st.n; ++p) {
    const auto i = static_cast<I>(s.rows[p]);
    row_of[p] = i;
    for (I k = t.row_ptr[i]; k < t.row_ptr[i + 1]; ++k) {
      if (t.col_idx[k] == i) {
        diag[p] = t.values[k];
      } else {
        col.push_back(t.col_idx[k]);
        val.push_back(t.values[k]);
      }
    }
    ptr.push_back(static_cast<I>(col.size()));
  }
  const double mean = static_cast<double>(col.size()) / static_cast<double>(std::max<long long>(1, st.n));
  while (st.width < kWarp && st.width < mean) st.width *= 2;
  st.ptr = DeviceArray<I>(ptr);
  st.col = DeviceArray<I>(col);
  st.row_of = DeviceArray<I>(row_of);
  st.val = DeviceArray<V>(val);
  st.diag = DeviceArray<V>(diag);
  if (algorithm == TriangularAlgorithm::sync_free) st.sync = DeviceArray<unsigned long long>(1 + static_cast<std::size_t>(st.n + 1) / 2);
}

template <class V, class I>
TriangularSolve<V, I>::~TriangularSolve() = default;
template <class V, class I>
TriangularSolve<V, I>::TriangularSolve(TriangularSolve&&) noexcept = default;
template <class V, class I>
TriangularSolve<V, I>& TriangularSolve<V, I>::operator=(TriangularSolve&&) noexcept = default;

template <class V, class I>
void TriangularSolve<V, I>::solve(const V* b, V* x) const {
  State& st = *state_;  // the sync_free flags change; the matrix does not
  if (st.n == 0) return;
  if (b == nullptr || x == nullptr || b == x) throw Error(ErrorCode::invalid_argument, "TriangularSolve::solve: b and x must be distinct device vectors");
  const auto stream = detail::stream_of(*st.ex);
  const auto m = st.rows();
  if (st.algorithm == TriangularAlgorithm::level_scheduled) {
    for (std::size_t l = 0; l + 1 < st.level_ptr.size(); ++l) {
      const long long count = st.level_ptr[l + 1] - st.level_ptr[l];
      level_kernel<<<detail::grid_for(count * st.width, kBlock), kBlock, 0, stream>>>(m, st.level_ptr[l], count, st.width, detail::dev(b),
                                                                                      detail::dev(x));
    }
  } else {
    unsigned long long* sync = st.sync.data();
    HSPARSE_CUDA_CHECK(cudaMemsetAsync(sync, 0, st.sync.size() * sizeof(unsigned long long), stream));
    // Enough warps to fill the GPU; more would only queue behind them (each warp takes tickets until none is left).
    const auto& shape = st.ex->shape();
    const long long resident = static_cast<long long>(shape.multiprocessors) * shape.threads_per_multiprocessor;
    sync_free_kernel<<<detail::grid_for(std::min(st.n * kWarp, resident), kBlock), kBlock, 0, stream>>>(m, st.n, detail::dev(b), detail::dev(x), sync,
                                                                                                       reinterpret_cast<int*>(sync + 1));
  }
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

template <class V, class I>
TriangularAlgorithm TriangularSolve<V, I>::algorithm() const {
  return state_->algorithm;
}
template <class V, class I>
std::int64_t TriangularSolve<V, I>::levels() const {
  return static_cast<std::int64_t>(state_->level_ptr.size()) - 1;
}
template <class V, class I>
std::int64_t TriangularSolve<V, I>::rows() const {
  return state_->n;
}
template <class V, class I>
std::size_t TriangularSolve<V, I>::bytes() const {
  const State& st = *state_;
  return (st.ptr.size() + st.col.size() + st.row_of.size()) * sizeof(I) + (st.val.size() + st.diag.size()) * sizeof(V) +
         st.sync.size() * sizeof(unsigned long long);
}

#define HSPARSE_INSTANTIATE(V, I) template class TriangularSolve<V, I>;
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
