// The LMA product on the GPU (backends/cuda/lma_spmv.hpp): 32 elements a
// block, a warp per row of K_e (M a template parameter: the loops unroll).
#include <string>
#include <type_traits>
#include <vector>

#include "element_launch.cuh"
#include "hsparse/backends/cuda/lma_spmv.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda {

namespace {

// A block: 32 consecutive elements (threadIdx.x) x the M rows of K_e
// (threadIdx.y, a warp per row). The gather puts x_e in shared memory; warp
// i then forms (K_e x_e)_i, each of its M loads one coalesced line of the
// interleaved storage, and scatter-adds it. A thread per element with K_e's
// rows in turn (the first version) needed 176 registers at Q4 and ran at
// 12% occupancy; here a thread holds one row sum. SYM: K_e(i, j) for i > j
// is read from (j, i), an entry warp j reads too (the second read mostly
// hits L1: the block's entries are 32 m (m + 1) / 2 words). Copying the
// block's entries into shared memory first (each read once from global
// memory) was slower: Q4 double 2337 against 2445 CG iterations/s, Q1 2663
// against 2752 (H200, bench --fem).
template <int M, bool SYM, bool ATOMIC, class V, class I>
__global__ void __launch_bounds__(32 * M) lma_kernel(long long first, long long last, long long ne, const I* __restrict__ nodes,
                                                     const V* __restrict__ k, const V* __restrict__ x, V alpha, V* y) {
  __shared__ V xs[M][32];
  const int lane = static_cast<int>(threadIdx.x), i = static_cast<int>(threadIdx.y);
  const long long e = first + blockIdx.x * 32LL + lane;
  const bool live = e < last;
  const I node = live ? nodes[i * ne + e] : I(-1);
  xs[i][lane] = node < 0 ? V(0) : x[node];
  __syncthreads();
  if (node < 0) return;  // a Dirichlet node (or past the last element): no row to form
  V sum(0);
#pragma unroll
  for (int j = 0; j < M; ++j) sum += k[fem::local_entry(i, j, M, SYM) * ne + e] * xs[j][lane];
  if constexpr (ATOMIC) {
    atomicAdd(y + node, alpha * sum);
  } else {
    y[node] += alpha * sum;  // no other element of this launch's colour holds the node
  }
}

template <int M, class V, class I>
void launch(const Executor& ex, LmaScatter scatter, V alpha, const DeviceLocalMatrices<V, I>& a, const V* x, V* y) {
  const auto s = detail::stream_of(ex);
  const std::vector<long long> colours(a.colour_begin.begin(), a.colour_begin.end());
  detail::over_elements(scatter, a.elements, colours, [&](long long first, long long last, auto atomic) {
    if (last <= first) return;
    const auto blocks = static_cast<unsigned>((last - first + 31) / 32);
    const dim3 threads(32, M);
    if (a.symmetric) {
      lma_kernel<M, true, decltype(atomic)::value, V, I><<<blocks, threads, 0, s>>>(first, last, a.elements, a.element_nodes.data(), a.values.data(), x, alpha, y);
    } else {
      lma_kernel<M, false, decltype(atomic)::value, V, I><<<blocks, threads, 0, s>>>(first, last, a.elements, a.element_nodes.data(), a.values.data(), x, alpha, y);
    }
  });
}

}  // namespace

template <class V, class I>
void lma_spmv(const Executor& ex, LmaScatter scatter, V alpha, const DeviceLocalMatrices<V, I>& a, const V* x, V beta, V* y) {
  if (a.rows == 0) return;
  detail::scale_y(ex, a.rows, beta, y);
  switch (a.nodes_per_element) {
    case 4: launch<4>(ex, scatter, alpha, a, x, y); break;
    case 9: launch<9>(ex, scatter, alpha, a, x, y); break;
    case 16: launch<16>(ex, scatter, alpha, a, x, y); break;
    case 25: launch<25>(ex, scatter, alpha, a, x, y); break;
    default: throw Error(ErrorCode::invalid_argument, "GPU LMA product: elements of " + std::to_string(a.nodes_per_element) + " nodes (Q1-Q4 have 4, 9, 16, 25)");
  }
  HSPARSE_CUDA_CHECK(cudaGetLastError());
}

#define HSPARSE_INSTANTIATE(V, I) \
  template void lma_spmv(const Executor&, LmaScatter, V, const DeviceLocalMatrices<V, I>&, const V*, V, V*);

HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
