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
// i then forms (K_e x_e)_i and scatter-adds it. A thread per element with
// K_e's rows in turn (the first version) needed 176 registers at Q4 and ran
// at 12% occupancy; here a thread holds one row sum.
//   Full K_e: warp i reads row i straight from global memory, each of its M
//   loads one coalesced line of the interleaved storage.
//   Upper triangles (SYM): row i needs (j, i) for j < i, an entry warp j
//   reads too, so the block first copies its 32 elements' m (m + 1) / 2
//   entries into shared memory (coalesced, each entry read once) and the
//   rows are formed from there. Reading them from global memory instead,
//   relying on L1 for the second read, gave 2445 CG iterations/s against
//   the full storage's 1923 for 0.56x the bytes (H200, Q4, double, 5669e1f).
template <int M, bool SYM, bool ATOMIC, class V, class I>
__global__ void __launch_bounds__(32 * M) lma_kernel(long long first, long long last, long long ne, const I* __restrict__ nodes,
                                                     const V* __restrict__ k, const V* __restrict__ x, V alpha, V* y) {
  constexpr int entries = fem::local_entries(M, SYM);
  extern __shared__ __align__(16) unsigned char lma_shared[];
  auto* xs = reinterpret_cast<V(*)[32]>(lma_shared);  // M x 32, then (SYM) entries x 32
  auto* ks = xs + M;
  const int lane = static_cast<int>(threadIdx.x), i = static_cast<int>(threadIdx.y);
  const long long e = first + blockIdx.x * 32LL + lane;
  const bool live = e < last;
  const I node = live ? nodes[i * ne + e] : I(-1);
  xs[i][lane] = node < 0 ? V(0) : x[node];
  if constexpr (SYM) {
#pragma unroll
    for (int q = i; q < entries; q += M) ks[q][lane] = live ? k[q * ne + e] : V(0);
  }
  __syncthreads();
  if (node < 0) return;  // a Dirichlet node (or past the last element): no row to form
  V sum(0);
#pragma unroll
  for (int j = 0; j < M; ++j) {
    if constexpr (SYM) sum += ks[fem::local_entry(i, j, M, true)][lane] * xs[j][lane];
    else sum += k[(i * M + j) * ne + e] * xs[j][lane];
  }
  if constexpr (ATOMIC) {
    atomicAdd(y + node, alpha * sum);
  } else {
    y[node] += alpha * sum;  // no other element of this launch's colour holds the node
  }
}

// Launches lma_kernel<M, SYM, ATOMIC> over [first, last) with its shared
// memory (above 48 KiB for Q4's upper triangles in double: opted in).
template <int M, bool SYM, bool ATOMIC, class V, class I>
void launch_range(cudaStream_t s, long long first, long long last, const DeviceLocalMatrices<V, I>& a, const V* x, V alpha, V* y) {
  constexpr std::size_t bytes = static_cast<std::size_t>(M + (SYM ? fem::local_entries(M, true) : 0)) * 32 * sizeof(V);
  if constexpr (bytes > 48 * 1024) {  // per call: the attribute is the current device's
    HSPARSE_CUDA_CHECK(cudaFuncSetAttribute(lma_kernel<M, SYM, ATOMIC, V, I>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  }
  lma_kernel<M, SYM, ATOMIC, V, I><<<static_cast<unsigned>((last - first + 31) / 32), dim3(32, M), bytes, s>>>(
      first, last, a.elements, a.element_nodes.data(), a.values.data(), x, alpha, y);
}

template <int M, class V, class I>
void launch(const Executor& ex, LmaScatter scatter, V alpha, const DeviceLocalMatrices<V, I>& a, const V* x, V* y) {
  const auto s = detail::stream_of(ex);
  const std::vector<long long> colours(a.colour_begin.begin(), a.colour_begin.end());
  detail::over_elements(scatter, a.elements, colours, [&](long long first, long long last, auto atomic) {
    if (last <= first) return;
    if (a.symmetric) launch_range<M, true, decltype(atomic)::value>(s, first, last, a, x, alpha, y);
    else launch_range<M, false, decltype(atomic)::value>(s, first, last, a, x, alpha, y);
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
