// Tall-skinny products on the GPU (backends/cuda/dense_ops.hpp): the
// dispatch, and the SIMT kernels of float products with more than 8 columns
// on a side. The kernel per shape (launch_dot_block, launch_update_block):
//  - k, l <= 8: tall_skinny_narrow.cu (a thread per rows, registers only),
//    but double V^T W from 6 columns on a side (kDotTensorFromColumns);
//  - double otherwise: tall_skinny_dmma.cu (FP64 tensor cores);
//  - float otherwise: the kernels below;
//  - V^T W with one column on one side and more than 8 on the other: a
//    multiple dot product, the solvers' mdot kernel (vector_ops.hpp's
//    mdot_scaled, Rupp's batches of up to 8 vectors).
// k and l above 32 are done 32 at a time. V and W (V and Y) are read once:
// (k + l) n words for 2 k l n flops.
//
// Float V^T W: a block stages TR rows of all k columns of V and l columns
// of W in shared memory (coalesced column segments), then its threads form
// the k x l products from the tile: each owns an MT x MT block of outputs
// (2 MT shared loads per MT^2 FMAs; MT = 4 for k, l > 16, else 2) and a lane
// of rows, R = 256 / (MT x MT blocks) lanes splitting the tile's rows. The
// sums stay in registers over the grid-stride loop, lanes are added in lane
// order once per block, and the last block to finish (a counter) adds the
// blocks' partials in a fixed order and writes S (finish_dot): one launch,
// deterministic, no atomics on values.
// Float V S: a thread per row keeps the row's k values of V in registers
// and writes its l outputs; S sits in shared memory.
#include <algorithm>
#include <type_traits>

#include "check.cuh"
#include "device_common.cuh"
#include "tall_skinny_finish.cuh"
#include "tall_skinny_kernels.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/backends/cuda/dense_ops.hpp"
#include "hsparse/backends/cuda/vector_ops.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda {

namespace {

constexpr int kThreads = 256;
constexpr int kMax = 32;  // k and l per launch

template <class D, int TR, int MT>
__global__ void __launch_bounds__(kThreads) ts_dot_kernel(long long n, int k, int l, const D* __restrict__ v, long long ldv, const D* __restrict__ w,
                                                          long long ldw, double* partials, unsigned* counter, D alpha, D beta, D* s, long long lds) {
  extern __shared__ double smem_d[];
  D* sv = reinterpret_cast<D*>(smem_d);
  D* sw = sv + k * (TR + 1);
  const int ml = (l + MT - 1) / MT, P = ((k + MT - 1) / MT) * ml, R = kThreads / P;
  const int t = threadIdx.x, micro = t % P, lane = t / P;
  const int a0 = MT * (micro / ml), b0 = MT * (micro % ml);
  double acc[MT][MT] = {};
  for (long long base = blockIdx.x * static_cast<long long>(TR); base < n; base += static_cast<long long>(gridDim.x) * TR) {
    const int rows = static_cast<int>(min(static_cast<long long>(TR), n - base));
    for (int e = t; e < k * TR; e += kThreads) {
      const int c = e / TR, r = e % TR;
      sv[c * (TR + 1) + r] = r < rows ? v[base + r + c * ldv] : D(0);
    }
    for (int e = t; e < l * TR; e += kThreads) {
      const int c = e / TR, r = e % TR;
      sw[c * (TR + 1) + r] = r < rows ? w[base + r + c * ldw] : D(0);
    }
    __syncthreads();
    if (lane < R) {
      for (int r = lane; r < rows; r += R) {
        double x[MT], y[MT];
#pragma unroll
        for (int i = 0; i < MT; ++i) {
          x[i] = a0 + i < k ? static_cast<double>(sv[(a0 + i) * (TR + 1) + r]) : 0.0;
          y[i] = b0 + i < l ? static_cast<double>(sw[(b0 + i) * (TR + 1) + r]) : 0.0;
        }
#pragma unroll
        for (int i = 0; i < MT; ++i)
#pragma unroll
          for (int j = 0; j < MT; ++j) acc[i][j] += x[i] * y[j];
      }
    }
    __syncthreads();
  }
  // Lanes in lane order, then this block's partial per output.
  double* red = smem_d;  // R * P * MT^2 doubles (<= 256 MT^2), the tile is no longer needed
  if (lane < R) {
    double* mine = red + (lane * P + micro) * MT * MT;
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
      for (int j = 0; j < MT; ++j) mine[i * MT + j] = acc[i][j];
  }
  __syncthreads();
  const int outputs = k * l;
  for (int o = t; o < outputs; o += kThreads) {
    const int a = o % k, b = o / k, m = (a / MT) * ml + b / MT, q = (a % MT) * MT + (b % MT);
    double sum = 0;
    for (int ln = 0; ln < R; ++ln) sum += red[(ln * P + m) * MT * MT + q];
    partials[o * static_cast<long long>(gridDim.x) + blockIdx.x] = sum;
  }
  detail::finish_dot(k, l, partials, counter, alpha, beta, s, lds);
}

template <class D>
__global__ void __launch_bounds__(kThreads) ts_update_kernel(long long n, int k, int l, const D* __restrict__ v, long long ldv, const D* __restrict__ s,
                                                             long long lds, D alpha, D beta, D* y, long long ldy) {
  __shared__ D ss[kMax * kMax];
  for (int e = threadIdx.x; e < k * l; e += kThreads) ss[(e % k) + (e / k) * kMax] = alpha * s[(e % k) + (e / k) * lds];
  __syncthreads();
  for (long long i = blockIdx.x * static_cast<long long>(kThreads) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * kThreads) {
    D x[kMax];
#pragma unroll
    for (int a = 0; a < kMax; ++a) x[a] = a < k ? v[i + a * ldv] : D(0);
    for (int b = 0; b < l; ++b) {
      D sum = D(0);
#pragma unroll
      for (int a = 0; a < kMax; ++a) {
        if (a < k) sum += x[a] * ss[a + b * kMax];  // ss past k is not written: never read it
      }
      D& out = y[i + b * ldy];
      out = beta == D(0) ? sum : sum + beta * out;
    }
  }
}

int dot_blocks(const Executor& ex, long long n, int tr) {
  const long long tiles = (n + tr - 1) / tr;
  return static_cast<int>(std::clamp<long long>(tiles, 1, 4LL * ex.multiprocessors()));
}

template <class D>
void launch_dot(const Executor& ex, long long n, int k, int l, const D* v, long long ldv, const D* w, long long ldw, D alpha, D beta, D* s,
                long long lds) {
  detail::TallSkinnyScratch& scratch = detail::tall_skinny_scratch();
  const auto stream = detail::stream_of(ex);
  // Short tiles for many columns (shared memory), long ones for few (every lane busy).
  const bool wide = k + l > 16;
  const int tr = wide ? 64 : 256;
  const int blocks = dot_blocks(ex, n, tr);
  double* partials = scratch.reserve(ex, static_cast<std::size_t>(blocks) * k * l);
  // 4 x 4 outputs per thread (8 shared loads per 16 FMAs) once k and l
  // are both above 16. Measured on the H200, V^T W with n = 1e7:
  // k = l = 32 4.46 ms with 2 x 2, 3.84 ms with 4 x 4; but
  // k = l = 16 1.35 ms with 2 x 2 (R = 4 lanes), 1.61 ms with 4 x 4.
  const bool big = k > 16 && l > 16;
  const std::size_t shared = std::max<std::size_t>(static_cast<std::size_t>(k + l) * (tr + 1) * sizeof(D), kThreads * (big ? 16 : 4) * sizeof(double));
  if (big) {
    ts_dot_kernel<D, 64, 4><<<blocks, kThreads, shared, stream>>>(n, k, l, v, ldv, w, ldw, partials, scratch.counter.data(), alpha, beta, s, lds);
  } else if (wide) {
    ts_dot_kernel<D, 64, 2><<<blocks, kThreads, shared, stream>>>(n, k, l, v, ldv, w, ldw, partials, scratch.counter.data(), alpha, beta, s, lds);
  } else {
    ts_dot_kernel<D, 256, 2><<<blocks, kThreads, shared, stream>>>(n, k, l, v, ldv, w, ldw, partials, scratch.counter.data(), alpha, beta, s, lds);
  }
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

// Double V^T W goes to the tensor-core kernel from this many columns on a
// side. Measured (H200, n = 1e7, tensor-core kernel against the
// narrow one): k = l = 8 0.303 / 0.335 ms (the narrow kernel: 254
// registers, one block per SM), 6 x 6 0.260 / 0.279, 8 x 2 0.244 / 0.245;
// but 4 x 4 0.228 / 0.158 and 2 x 2 0.201 / 0.082 (8 KB or less per tile:
// too few bytes in flight per SM).
constexpr int kDotTensorFromColumns = 6;

// The one place a tall-skinny shape picks its kernel (k and l per launch up to 32).
template <class D>
void launch_dot_block(const Executor& ex, long long n, int k, int l, const D* v, long long ldv, const D* w, long long ldw, D alpha, D beta, D* s,
                      long long lds) {
  const bool tensor = std::is_same_v<D, double> && std::max(k, l) >= kDotTensorFromColumns;
  if (k <= 8 && l <= 8 && !tensor) return detail::ts_dot_narrow<D>(ex, n, k, l, v, ldv, w, ldw, alpha, beta, s, lds);
  if constexpr (std::is_same_v<D, double>) {
    detail::ts_dot_dmma(ex, n, k, l, v, ldv, w, ldw, alpha, beta, s, lds);
  } else {
    launch_dot<D>(ex, n, k, l, v, ldv, w, ldw, alpha, beta, s, lds);
  }
}

template <class D>
void launch_update_block(const Executor& ex, long long n, int k, int l, const D* v, long long ldv, const D* s, long long lds, D alpha, D beta, D* y,
                         long long ldy) {
  if (k <= 8 && l <= 8) return detail::ts_update_narrow<D>(ex, n, k, l, v, ldv, s, lds, alpha, beta, y, ldy);
  if constexpr (std::is_same_v<D, double>) {
    if (k > 0) return detail::ts_update_dmma(ex, n, k, l, v, ldv, s, lds, alpha, beta, y, ldy);
  }
  const int blocks = static_cast<int>(std::clamp<long long>((n + kThreads - 1) / kThreads, 1, 8LL * ex.multiprocessors()));
  ts_update_kernel<D><<<blocks, kThreads, 0, detail::stream_of(ex)>>>(n, k, l, v, ldv, s, lds, alpha, beta, y, ldy);
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

namespace detail {

double* TallSkinnyScratch::reserve(const Executor& ex, std::size_t n) {
  if (counter.size() == 0) {
    counter = DeviceArray<unsigned>(1);
    ex.fill_zero(counter.data(), sizeof(unsigned));
  }
  if (partials.size() < n) partials = DeviceArray<double>(n);
  return partials.data();
}

TallSkinnyScratch& tall_skinny_scratch() {
  thread_local TallSkinnyScratch scratch;
  return scratch;
}

}  // namespace detail

template <class T>
void tall_skinny_dot(const Executor& ex, T alpha, const ConstDenseView<T>& v, const ConstDenseView<T>& w, T beta, const DenseView<T>& s) {
  const GemmShape sh = check_gemm_shapes<T>(Op::transpose, Op::none, v, w, s);
  if constexpr (is_complex_v<T>) {
    throw Error(ErrorCode::unsupported, "the GPU tall-skinny products take float and double");
  } else {
    if (sh.m == 0 || sh.n == 0) return;
    if ((sh.m == 1 || sh.n == 1) && std::max(sh.m, sh.n) > 8) {  // a multiple dot product of many vectors: mdot's kernel
      thread_local ReductionScratch scratch;
      const bool one_w = sh.n == 1;  // S(a, 0) = <W_0, V_a>; else S(0, b) = <V_0, W_b>
      const ConstDenseView<T>& many = one_w ? v : w;
      std::vector<const T*> columns;
      for (long long c = 0; c < (one_w ? sh.m : sh.n); ++c) columns.push_back(many.data + c * many.ld);
      mdot_scaled<T>(ex, sh.k, one_w ? w.data : v.data, columns, alpha, beta, s.data, one_w ? 1 : s.ld, scratch);
      return;
    }
    for (long long a0 = 0; a0 < sh.m; a0 += kMax) {
      for (long long b0 = 0; b0 < sh.n; b0 += kMax) {
        const int k = static_cast<int>(std::min<long long>(kMax, sh.m - a0)), l = static_cast<int>(std::min<long long>(kMax, sh.n - b0));
        launch_dot_block<T>(ex, sh.k, k, l, v.data + a0 * v.ld, v.ld, w.data + b0 * w.ld, w.ld, alpha, beta, s.data + a0 + b0 * s.ld, s.ld);
      }
    }
  }
}

template <class T>
void tall_skinny_update(const Executor& ex, T alpha, const ConstDenseView<T>& v, const ConstDenseView<T>& s, T beta, const DenseView<T>& y) {
  const GemmShape sh = check_gemm_shapes<T>(Op::none, Op::none, v, s, y);
  if constexpr (is_complex_v<T>) {
    throw Error(ErrorCode::unsupported, "the GPU tall-skinny products take float and double");
  } else {
    if (sh.m == 0 || sh.n == 0) return;
    for (long long b0 = 0; b0 < sh.n; b0 += kMax) {
      const int l = static_cast<int>(std::min<long long>(kMax, sh.n - b0));
      if (sh.k == 0) {  // Y = beta Y: a launch with no columns of V
        launch_update_block<T>(ex, sh.m, 0, l, v.data, v.ld, s.data, s.ld, alpha, beta, y.data + b0 * y.ld, y.ld);
      }
      for (long long a0 = 0; a0 < sh.k; a0 += kMax) {
        const int k = static_cast<int>(std::min<long long>(kMax, sh.k - a0));
        launch_update_block<T>(ex, sh.m, k, l, v.data + a0 * v.ld, v.ld, s.data + a0 + b0 * s.ld, s.ld, alpha, a0 == 0 ? beta : T(1),
                               y.data + b0 * y.ld, y.ld);
      }
    }
  }
}

#define HSPARSE_INSTANTIATE(T)                                                                                                       \
  template void tall_skinny_dot(const Executor&, T, const ConstDenseView<T>&, const ConstDenseView<T>&, T, const DenseView<T>&);    \
  template void tall_skinny_update(const Executor&, T, const ConstDenseView<T>&, const ConstDenseView<T>&, T, const DenseView<T>&);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
