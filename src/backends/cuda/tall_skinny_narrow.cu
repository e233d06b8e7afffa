// Tall-skinny products with at most 8 columns on a side, float and double
// (tall_skinny_kernels.hpp).
//
// These shapes move k + l words per row for k l FMAs (at most 4 per word):
// they stream, so the design is about bytes in flight. A thread takes VEC
// consecutive rows (one 16-byte load per column: 2 doubles, 4 floats) and
// keeps every product of them in registers; with few columns it takes U
// such groups per step, so that at least 8 loads of 16 bytes are in flight
// per thread (Little's law: ~4.8 TB/s at ~1 us needs ~5 MB in flight on the
// H200, ~36 KB per SM). No shared memory and no barrier inside the loop.
// V^T W's sums (in double) go through mdot's deterministic grid reduction
// (reduction.cuh: block sums by shuffles, the last block adds the blocks'
// partials in block order), the code the multiple dot product runs on.
// The designs it replaced (H200, n = 1e7): V^T W staged tiles through
// shared memory and reached 41% and 51% of the read bandwidth at k = 2 and
// 4; V S took one row per thread and S from shared memory: 18% at k = 1.
#include <algorithm>
#include <type_traits>

#include "device_common.cuh"
#include "gemm_common.cuh"
#include "reduction.cuh"
#include "tall_skinny_kernels.hpp"

namespace hsparse::cuda::detail {

namespace {

constexpr int kThreads = kReduceThreads;  // grid_sum's block size

// Groups of VEC rows per thread and step: 2P loads per group, >= 8 in flight.
__host__ __device__ constexpr int narrow_groups(int p) { return p >= 4 ? 1 : 4 / p; }

// VEC consecutive values of one column from row `row`; FULL: all inside
// (one 16-byte load when VEC > 1), else the `left` rows inside and zeros.
template <bool FULL, class D, int VEC>
__device__ __forceinline__ void load_rows(D (&x)[VEC], const D* p, long long left) {
  if constexpr (FULL && VEC == 2) {
    const double2 t = *reinterpret_cast<const double2*>(p);
    x[0] = t.x;
    x[1] = t.y;
  } else if constexpr (FULL && VEC == 4) {
    const float4 t = *reinterpret_cast<const float4*>(p);
    x[0] = t.x;
    x[1] = t.y;
    x[2] = t.z;
    x[3] = t.w;
  } else {
#pragma unroll
    for (int e = 0; e < VEC; ++e) x[e] = FULL || e < left ? p[e] : D(0);
  }
}

template <bool FULL, class D, int VEC>
__device__ __forceinline__ void store_rows(D* p, const D (&x)[VEC], long long left) {
  if constexpr (FULL && VEC == 2) {
    *reinterpret_cast<double2*>(p) = make_double2(x[0], x[1]);
  } else if constexpr (FULL && VEC == 4) {
    *reinterpret_cast<float4*>(p) = make_float4(x[0], x[1], x[2], x[3]);
  } else {
#pragma unroll
    for (int e = 0; e < VEC; ++e) {
      if (FULL || e < left) p[e] = x[e];
    }
  }
}

// Columns 0..P-1 of VEC rows of U groups; columns at or past `cols` are zeros (never read).
template <bool FULL, class D, int P, int VEC, int U>
__device__ __forceinline__ void load_groups(D (&x)[U][P][VEC], const D* a, long long ld, int cols, long long n, long long base) {
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const long long row = base + (static_cast<long long>(u) * kThreads + threadIdx.x) * VEC;
#pragma unroll
    for (int c = 0; c < P; ++c) {
      if (c < cols) {
        load_rows<FULL>(x[u][c], a + row + c * ld, n - row);
      } else {
#pragma unroll
        for (int e = 0; e < VEC; ++e) x[u][c][e] = D(0);
      }
    }
  }
}

// f(base, full) over this block's steps of kThreads x VEC x U rows, grid-stride.
template <int VEC, int U, class F>
__device__ __forceinline__ void for_each_step(long long n, F&& f) {
  constexpr long long span = static_cast<long long>(kThreads) * VEC * U;
  for (long long base = blockIdx.x * span; base < n; base += static_cast<long long>(gridDim.x) * span) {
    if (base + span <= n) f(base, std::true_type{});
    else f(base, std::false_type{});
  }
}

template <class D, int P, int VEC>
__global__ void __launch_bounds__(kThreads) ts_dot_narrow_kernel(long long n, int k, int l, const D* __restrict__ v, long long ldv,
                                                                const D* __restrict__ w, long long ldw, double* partials, unsigned* counter, D alpha,
                                                                D beta, D* s, long long lds) {
  constexpr int U = narrow_groups(P);
  double acc[P * P] = {};  // acc[a P + b] = sum V(r, a) W(r, b) over this thread's rows
  for_each_step<VEC, U>(n, [&](long long base, auto full) {
    D x[U][P][VEC], y[U][P][VEC];
    load_groups<decltype(full)::value>(x, v, ldv, k, n, base);
    load_groups<decltype(full)::value>(y, w, ldw, l, n, base);
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int e = 0; e < VEC; ++e)
#pragma unroll
        for (int a = 0; a < P; ++a)
#pragma unroll
          for (int b = 0; b < P; ++b) acc[a * P + b] += static_cast<double>(x[u][a][e]) * static_cast<double>(y[u][b][e]);
  });
  if (grid_sum<P * P>(acc, partials, counter) && threadIdx.x == 0) {
#pragma unroll
    for (int a = 0; a < P; ++a)
#pragma unroll
      for (int b = 0; b < P; ++b) {
        if (a < k && b < l) {
          D& out = s[a + b * lds];
          const D r = alpha * static_cast<D>(acc[a * P + b]);
          out = beta == D(0) ? r : r + beta * out;
        }
      }
  }
}

template <class D, int P, int VEC>
__global__ void __launch_bounds__(kThreads) ts_update_narrow_kernel(long long n, int k, int l, const D* __restrict__ v, long long ldv,
                                                                   const D* __restrict__ s, long long lds, D alpha, D beta, D* __restrict__ y,
                                                                   long long ldy) {
  constexpr int U = narrow_groups(P);
  D c[P][P];  // alpha S, zeros past k and l
#pragma unroll
  for (int a = 0; a < P; ++a)
#pragma unroll
    for (int b = 0; b < P; ++b) c[a][b] = a < k && b < l ? alpha * s[a + b * lds] : D(0);
  for_each_step<VEC, U>(n, [&](long long base, auto full) {
    constexpr bool FULL = decltype(full)::value;
    D x[U][P][VEC];
    load_groups<FULL>(x, v, ldv, k, n, base);
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const long long row = base + (static_cast<long long>(u) * kThreads + threadIdx.x) * VEC;
#pragma unroll
      for (int b = 0; b < P; ++b) {
        if (b >= l) continue;
        D out[VEC];
#pragma unroll
        for (int e = 0; e < VEC; ++e) {
          D sum = D(0);
#pragma unroll
          for (int a = 0; a < P; ++a) sum += c[a][b] * x[u][a][e];
          out[e] = sum;
        }
        D* const to = y + row + b * ldy;
        if (beta != D(0)) {  // beta = 0: Y is not read (NaN there stays out)
          D old[VEC];
          load_rows<FULL>(old, to, n - row);
#pragma unroll
          for (int e = 0; e < VEC; ++e) out[e] += beta * old[e];
        }
        store_rows<FULL>(to, out, n - row);
      }
    }
  });
}

// f(P, VEC) as compile-time constants: P the columns rounded up to 1, 2, 4 or 8.
template <class D, class F>
void with_narrow_shape(int columns, bool vectors, F&& f) {
  constexpr int vec = 16 / static_cast<int>(sizeof(D));
  const auto with_p = [&](auto v) {
    if (columns <= 1) f(std::integral_constant<int, 1>{}, v);
    else if (columns <= 2) f(std::integral_constant<int, 2>{}, v);
    else if (columns <= 4) f(std::integral_constant<int, 4>{}, v);
    else f(std::integral_constant<int, 8>{}, v);
  };
  if (vectors) with_p(std::integral_constant<int, vec>{});
  else with_p(std::integral_constant<int, 1>{});
}

template <int P, int VEC>
int narrow_blocks(long long n, int resident) {
  const long long span = static_cast<long long>(kThreads) * VEC * narrow_groups(P);
  return static_cast<int>(std::clamp<long long>((n + span - 1) / span, 1, resident));
}

}  // namespace

template <class D>
void ts_dot_narrow(const Executor& ex, long long n, int k, int l, const D* v, long long ldv, const D* w, long long ldw, D alpha, D beta, D* s,
                   long long lds) {
  with_narrow_shape<D>(std::max(k, l), in_16_byte_runs<D>({v, w}, {ldv, ldw}), [&](auto p, auto vec) {
    constexpr int P = decltype(p)::value, VEC = decltype(vec)::value;
    constexpr auto kernel = ts_dot_narrow_kernel<D, P, VEC>;
    const int blocks = narrow_blocks<P, VEC>(n, resident_blocks<kernel>(ex, kThreads));
    TallSkinnyScratch& scratch = tall_skinny_scratch();
    double* partials = scratch.reserve(ex, static_cast<std::size_t>(blocks) * P * P);
    kernel<<<blocks, kThreads, 0, stream_of(ex)>>>(n, k, l, v, ldv, w, ldw, partials, scratch.counter.data(), alpha, beta, s, lds);
  });
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

template <class D>
void ts_update_narrow(const Executor& ex, long long n, int k, int l, const D* v, long long ldv, const D* s, long long lds, D alpha, D beta, D* y,
                      long long ldy) {
  with_narrow_shape<D>(std::max(k, l), in_16_byte_runs<D>({v, y}, {ldv, ldy}), [&](auto p, auto vec) {
    constexpr int P = decltype(p)::value, VEC = decltype(vec)::value;
    constexpr auto kernel = ts_update_narrow_kernel<D, P, VEC>;
    const int blocks = narrow_blocks<P, VEC>(n, resident_blocks<kernel>(ex, kThreads));
    kernel<<<blocks, kThreads, 0, stream_of(ex)>>>(n, k, l, v, ldv, s, lds, alpha, beta, y, ldy);
  });
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

#define HSPARSE_INSTANTIATE(D)                                                                                                             \
  template void ts_dot_narrow(const Executor&, long long, int, int, const D*, long long, const D*, long long, D, D, D*, long long); \
  template void ts_update_narrow(const Executor&, long long, int, int, const D*, long long, const D*, long long, D, D, D*, long long);
HSPARSE_INSTANTIATE(float)
HSPARSE_INSTANTIATE(double)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda::detail
