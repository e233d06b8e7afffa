// The sum-factorised product on the GPU (backends/cuda/lma_spmv.hpp;
// kernels/pa_spmv.hpp). A block takes 32 consecutive elements (threadIdx.x)
// and Q = P + 2 rows of threads (threadIdx.y) that share each stage's work;
// the stages pass their values through shared memory, element by lane:
//   gather u (the (P+1)^2 nodal values)
//   -> xi:   B u and G u at the Q points of each node row  (P+1) x Q pairs
//   -> eta:  the reference gradient at the Q^2 points, D_q applied
//   -> eta^T back to the node rows                           (P+1) x Q pairs
//   -> xi^T  back to the nodes, then the scatter-add         (P+1)^2 nodes.
// The first version (a thread per element, every array in registers) took
// 254 registers and spilled at Q3 and Q4 (ran at 1.2 TB/s of its data).
#include <string>
#include <type_traits>

#include "element_launch.cuh"
#include "hsparse/backends/cuda/lma_spmv.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda {

namespace {

template <int P, bool ATOMIC, class V, class I>
__global__ void __launch_bounds__(32 * (P + 2)) pa_kernel(long long first, long long last, long long ne, const I* __restrict__ nodes,
                                                          const V* __restrict__ d, const V* __restrict__ basis, const V* __restrict__ gradient,
                                                          const V* __restrict__ x, V alpha, V* y) {
  constexpr int q1 = P + 1, q = P + 2, q2 = q * q, rows = q;
  __shared__ V b[q * q1], g[q * q1];  // the 1-D tables: phi_i and phi_i' at point gi, [gi * q1 + i]
  __shared__ V tb[q1 * q][32], tg[q1 * q][32];  // per node row j and point gi: [j * q + gi]
  __shared__ V c0[q2][32], c1[q2][32];          // u at [j * q1 + i] first, then the two gradient components at [gj * q + gi]
  static_assert(q1 * q1 <= q2);
  const int lane = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const long long e = first + blockIdx.x * 32LL + lane;
  const bool live = e < last;
  for (int t = ty * 32 + lane; t < q * q1; t += 32 * rows) {
    b[t] = basis[t];
    g[t] = gradient[t];
  }
#pragma unroll
  for (int n = ty; n < q1 * q1; n += rows) {
    const I node = live ? nodes[n * ne + e] : I(-1);
    c0[n][lane] = node < 0 ? V(0) : x[node];
  }
  __syncthreads();
#pragma unroll
  for (int t = ty; t < q1 * q; t += rows) {  // xi
    const int j = t / q, gi = t % q;
    V sb(0), sg(0);
#pragma unroll
    for (int i = 0; i < q1; ++i) {
      sb += b[gi * q1 + i] * c0[j * q1 + i][lane];
      sg += g[gi * q1 + i] * c0[j * q1 + i][lane];
    }
    tb[t][lane] = sb;
    tg[t][lane] = sg;
  }
  __syncthreads();
#pragma unroll
  for (int t = ty; t < q2; t += rows) {  // eta, then D_q (u in c0 is read no more)
    const int gj = t / q, gi = t % q;
    V dx(0), de(0);
#pragma unroll
    for (int j = 0; j < q1; ++j) {
      dx += b[gj * q1 + j] * tg[j * q + gi][lane];
      de += g[gj * q1 + j] * tb[j * q + gi][lane];
    }
    V d0(0), d1(0), d2(0);
    if (live) {
      d0 = d[t * ne + e];
      d1 = d[(q2 + t) * ne + e];
      d2 = d[(2 * q2 + t) * ne + e];
    }
    c0[t][lane] = d0 * dx + d1 * de;
    c1[t][lane] = d1 * dx + d2 * de;
  }
  __syncthreads();
#pragma unroll
  for (int t = ty; t < q1 * q; t += rows) {  // eta^T
    const int j = t / q, gi = t % q;
    V sg(0), sb(0);
#pragma unroll
    for (int gj = 0; gj < q; ++gj) {
      sg += b[gj * q1 + j] * c0[gj * q + gi][lane];
      sb += g[gj * q1 + j] * c1[gj * q + gi][lane];
    }
    tg[t][lane] = sg;
    tb[t][lane] = sb;
  }
  __syncthreads();
  if (!live) return;
#pragma unroll
  for (int n = ty; n < q1 * q1; n += rows) {  // xi^T and the scatter
    const int j = n / q1, i = n % q1;
    V s(0);
#pragma unroll
    for (int gi = 0; gi < q; ++gi) s += g[gi * q1 + i] * tg[j * q + gi][lane] + b[gi * q1 + i] * tb[j * q + gi][lane];
    const I node = nodes[n * ne + e];
    if (node < 0) continue;
    if constexpr (ATOMIC) {
      atomicAdd(y + node, alpha * s);
    } else {
      y[node] += alpha * s;  // no other element of this launch's colour holds the node
    }
  }
}

}  // namespace

template <class V, class I>
void pa_spmv(const Executor& ex, LmaScatter scatter, V alpha, const DeviceQuadratureData<V, I>& a, const V* x, V beta, V* y) {
  if (a.degree < 1 || a.degree > 4 || a.points != a.degree + 2) {
    throw Error(ErrorCode::invalid_argument, "GPU PA product: degree " + std::to_string(a.degree) + " with " + std::to_string(a.points) + " points (Q1-Q4 with p + 2 points)");
  }
  if (a.rows == 0) return;
  detail::scale_y(ex, a.rows, beta, y);
  const std::vector<long long> colours(a.colour_begin.begin(), a.colour_begin.end());
  const auto s = detail::stream_of(ex);
  const auto with_degree = [&](auto degree) {
    constexpr int P = decltype(degree)::value;
    detail::over_elements(scatter, a.elements, colours, [&](long long first, long long last, auto atomic) {
      if (last <= first) return;
      pa_kernel<P, decltype(atomic)::value, V, I><<<static_cast<unsigned>((last - first + 31) / 32), dim3(32, P + 2), 0, s>>>(
          first, last, a.elements, a.element_nodes.data(), a.d.data(), a.basis.data(), a.gradient.data(), x, alpha, y);
    });
  };
  switch (a.degree) {
    case 1: with_degree(std::integral_constant<int, 1>{}); break;
    case 2: with_degree(std::integral_constant<int, 2>{}); break;
    case 3: with_degree(std::integral_constant<int, 3>{}); break;
    default: with_degree(std::integral_constant<int, 4>{}); break;
  }
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

#define HSPARSE_INSTANTIATE(V, I) template void pa_spmv(const Executor&, LmaScatter, V, const DeviceQuadratureData<V, I>&, const V*, V, V*);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
