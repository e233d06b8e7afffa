// ILU(0) and IC(0) on the GPU (backends/cuda/triangular_solve.hpp says why
// level-scheduled). The input is checked and prepared on the host by the
// reference's helpers (the same rules and Errors); its lower-triangle levels
// come from triangular_levels(). One launch per level, one warp per row:
//   ILU(0) (Saad, Algorithm 10.4, IKJ): for each k < i stored in row i, in
//     increasing order, the warp computes l = a_ik / u_kk, then its lanes
//     stride over row k's entries j > k and find j in row i by binary
//     search, each lane updating a different a_ij; __syncwarp between steps.
//     The updates of each entry come in the reference's order, and real
//     products are not fused into the subtraction (as on a host without
//     FMA contraction): the real factors are then the reference's bit for
//     bit, where a fused update would drift on ill-conditioned matrices.
//   IC(0): for each j < i stored in row i, in increasing order, the lanes
//     stride over row j's entries k < j, find k among row i's finished
//     entries, and the warp sums L(i, k) conj(L(j, k)) by shuffles; then
//     the pivot A(i, i) - sum |L(i, k)|^2 the same way.
// A failing pivot is kept in place of the diagonal (as on the host) and the
// lowest failing row noted by atomicMin: the rows below it depend only on
// rows below it, so it is the row the reference reports.
#include <climits>

#include "device_common.cuh"
#include "hsparse/backends/cuda/triangular_solve.hpp"

namespace hsparse::cuda {

namespace {

constexpr int kBlock = 128;
constexpr int kWarp = 32;
constexpr unsigned long long kNoRow = ULLONG_MAX;

template <class D> struct real_of { using type = D; };
template <class R> struct real_of<::cuda::std::complex<R>> { using type = R; };

template <class D> __device__ __forceinline__ D conj_of(D v) {
  if constexpr (std::is_arithmetic_v<D>) return v; else return ::cuda::std::conj(v);
}
template <class D> __device__ __forceinline__ typename real_of<D>::type real_of_value(D v) {
  if constexpr (std::is_arithmetic_v<D>) return v; else return v.real();
}
template <class D> __device__ __forceinline__ bool finite(D v) {
  if constexpr (std::is_arithmetic_v<D>) return isfinite(v); else return isfinite(v.real()) && isfinite(v.imag());
}

// a * b rounded on its own, never contracted with a following add into an FMA.
template <class D> __device__ __forceinline__ D unfused_product(D a, D b) {
  if constexpr (std::is_same_v<D, double>) return __dmul_rn(a, b);
  else if constexpr (std::is_same_v<D, float>) return __fmul_rn(a, b);
  else return a * b;
}

// The position of column c in col[lo, hi) (sorted), or -1.
template <class I>
__device__ __forceinline__ I find_column(const I* col, I lo, I hi, I c) {
  const I end = hi;
  while (lo < hi) {
    const I mid = lo + (hi - lo) / 2;
    if (col[mid] < c) lo = mid + 1; else hi = mid;
  }
  return lo < end && col[lo] == c ? lo : I(-1);
}

template <class D, class I>
struct Rows {
  const I* ptr;
  const I* col;
  D* val;
  const I* diag;
  const I* order;  // the rows in level order
  unsigned long long* first_bad;
};

// The warp's row, or -1 past the level.
template <class D, class I>
__device__ __forceinline__ long long warp_row(const Rows<D, I>& m, long long first, long long count) {
  const long long w = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / kWarp;
  return w < count ? static_cast<long long>(m.order[first + w]) : -1;
}

template <class D, class I>
__global__ void ilu0_level_kernel(Rows<D, I> m, long long first, long long count) {
  const long long row = warp_row(m, first, count);
  if (row < 0) return;  // the whole warp
  const I i = static_cast<I>(row), end = m.ptr[i + 1], d = m.diag[i];
  const int lane = static_cast<int>(threadIdx.x % kWarp);
  for (I p = m.ptr[i]; p < d; ++p) {
    const I k = m.col[p];
    const D l = m.val[p] / m.val[m.diag[k]];
    __syncwarp();  // every lane has read a_ik before lane 0 overwrites it
    if (lane == 0) m.val[p] = l;
    for (I q = m.diag[k] + 1 + lane; q < m.ptr[k + 1]; q += kWarp) {
      const I r = find_column(m.col, p + 1, end, m.col[q]);
      if (r >= 0) m.val[r] -= unfused_product(l, m.val[q]);
    }
    __syncwarp();  // this step's updates are seen by the next
  }
  if (lane == 0 && (m.val[d] == D(0) || !finite(m.val[d]))) atomicMin(m.first_bad, static_cast<unsigned long long>(i));
}

template <class D, class I>
__global__ void ic0_level_kernel(Rows<D, I> m, long long first, long long count) {
  const long long row = warp_row(m, first, count);
  if (row < 0) return;  // the whole warp
  const I i = static_cast<I>(row), start = m.ptr[i], d = m.diag[i];
  const int lane = static_cast<int>(threadIdx.x % kWarp);
  for (I p = start; p < d; ++p) {
    const I j = m.col[p];
    D s(0);
    for (I q = m.ptr[j] + lane; q < m.diag[j]; q += kWarp) {
      const I r = find_column(m.col, start, p, m.col[q]);
      if (r >= 0) s += m.val[r] * conj_of(m.val[q]);
    }
    s = detail::shuffle_from(detail::group_sum<kWarp>(s), 0);
    if (lane == 0) m.val[p] = (m.val[p] - s) / m.val[m.diag[j]];
    __syncwarp();  // L(i, j) is seen by the next steps
  }
  using R = typename real_of<D>::type;
  R sum(0);
  for (I q = start + lane; q < d; q += kWarp) sum += real_of_value(m.val[q] * conj_of(m.val[q]));
  sum = detail::group_sum<kWarp>(sum);
  if (lane == 0) {
    const R pivot = real_of_value(m.val[d]) - sum;
    const bool positive = pivot > R(0) && isfinite(pivot);
    m.val[d] = D(positive ? sqrt(pivot) : pivot);
    if (!positive) atomicMin(m.first_bad, static_cast<unsigned long long>(i));
  }
}

// Uploads the prepared matrix, runs the levels, and downloads the factor
// into it; returns the lowest failing row, or -1.
template <class V, class I>
long long sweep_on_device(const Executor& ex, hsparse::detail::FactorizationInput<V, I>& in, hsparse::detail::Factorization f) {
  Csr<V, I>& lu = in.matrix;
  if (lu.rows == 0) return -1;
  const LevelSchedule s = triangular_levels(lu, Triangle::lower);
  const DeviceArray<I> ptr(lu.row_ptr), col(lu.col_idx), diag(in.diagonal), order(std::vector<I>(s.rows.begin(), s.rows.end()));
  DeviceArray<V> val(lu.values);
  DeviceArray<unsigned long long> first_bad(std::vector<unsigned long long>{kNoRow});
  const Rows<detail::device_t<V>, I> m{ptr.data(), col.data(), detail::dev(val.data()), diag.data(), order.data(), first_bad.data()};
  const auto stream = detail::stream_of(ex);
  for (std::int64_t l = 0; l < s.levels(); ++l) {
    const long long count = s.level_ptr[l + 1] - s.level_ptr[l];
    const unsigned grid = detail::grid_for(count * kWarp, kBlock);
    if (f == hsparse::detail::Factorization::ilu0) {
      ilu0_level_kernel<<<grid, kBlock, 0, stream>>>(m, s.level_ptr[l], count);
    } else {
      ic0_level_kernel<<<grid, kBlock, 0, stream>>>(m, s.level_ptr[l], count);
    }
  }
  HSPARSE_CUDA_CHECK(cudaGetLastError());
  ex.synchronize();
  lu.values = val.download();
  const unsigned long long bad = first_bad.download()[0];
  return bad == kNoRow ? -1 : static_cast<long long>(bad);
}

}  // namespace

template <class V, class I>
Csr<V, I> ilu0(const Executor& ex, const Csr<V, I>& a) {
  constexpr auto f = hsparse::detail::Factorization::ilu0;
  return hsparse::detail::factorize<V, I>(a, f, [&](auto& in) { return sweep_on_device(ex, in, f); });
}

template <class V, class I>
Csr<V, I> ic0(const Executor& ex, const Csr<V, I>& a) {
  constexpr auto f = hsparse::detail::Factorization::ic0;
  return hsparse::detail::factorize<V, I>(a, f, [&](auto& in) { return sweep_on_device(ex, in, f); });
}

#define HSPARSE_INSTANTIATE(V, I)                                  \
  template Csr<V, I> ilu0(const Executor&, const Csr<V, I>&); \
  template Csr<V, I> ic0(const Executor&, const Csr<V, I>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
