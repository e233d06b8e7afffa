// COO SpMV with segmented reduction (Owens lecture, "COO"; Bell and
// Garland). Decomposition: thread t owns entries [t*K, (t+1)*K) (K = 15) of the
// row-sorted COO. A first kernel scales y by beta unless beta is 1 (rows
// without entries are then done); each thread adds the rows that lie wholly inside its share
// (no other thread touches them) and leaves its first and last row's partial
// sums as carries; carries.cuh combines those in order, inside the block
// and then across blocks. Sortedness is
// checked when the matrix is uploaded (DeviceCoo callers use canonical COO).
#include "carries.cuh"
#include "hsparse/backends/cuda/format_spmv.hpp"

namespace hsparse::cuda {

namespace {

// Odd on purpose (as CUB's segmented reductions): each thread walks
// consecutive staged entries, so the lanes of a warp read shared memory
// kEntriesPerThread entries apart; at 16 (64 bytes of row indices, 128 of
// double products) every lane hits the same bank, a 16-32-way conflict.
constexpr int kEntriesPerThread = 15;

template <class D>
__global__ void scale_kernel(long long n, D beta, bool read_y, D* __restrict__ y) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = read_y ? beta * y[i] : D(0);
}

constexpr int kThreadsPerBlock = 128;
constexpr int kTile = kThreadsPerBlock * kEntriesPerThread;

// The block first stages its tile's row indices and products val*x[col]
// in shared memory with coalesced loads (thread t reads entries t, t+128,
// ...), then each thread walks its own 15 consecutive entries there: the
// per-thread walk over global memory was uncoalesced (42 GFLOP/s).
template <class D, class I>
__global__ void __launch_bounds__(kThreadsPerBlock)
    coo_kernel(long long rows, long long nnz, long long threads, const I* __restrict__ row_idx, const I* __restrict__ col_idx,
               const D* __restrict__ values, const D* __restrict__ x, D alpha, D* __restrict__ y,
               long long* __restrict__ carry_row, D* __restrict__ carry_val) {
  __shared__ alignas(16) unsigned char product_bytes[kTile * sizeof(D)];
  __shared__ I tile_rows[kTile];
  D* products = reinterpret_cast<D*>(product_bytes);
  const long long tile_begin = static_cast<long long>(blockIdx.x) * kTile;
  const int tile_size = static_cast<int>(nnz - tile_begin < kTile ? nnz - tile_begin : kTile);
  for (int i = threadIdx.x; i < tile_size; i += kThreadsPerBlock) tile_rows[i] = row_idx[tile_begin + i];
  detail::stage_products<kThreadsPerBlock, kEntriesPerThread, true>(tile_begin, tile_size, col_idx, values, x, products);
  __syncthreads();
  const long long t = blockIdx.x * static_cast<long long>(kThreadsPerBlock) + threadIdx.x;
  // Threads past the end (last block) take part in the carry combination with no carry.
  long long carry[2] = {-1, -1};
  D carried[2] = {D(0), D(0)};
  if (t < threads) {
    const int k0 = threadIdx.x * kEntriesPerThread;
    const int k1 = k0 + kEntriesPerThread < tile_size ? k0 + kEntriesPerThread : tile_size;
    int k = k0;
    // The share's first row: always a carry (it may continue from the previous thread).
    const long long first = tile_rows[k];
    for (; k < k1 && tile_rows[k] == first; ++k) carried[0] += products[k];
    carry[0] = first;
    long long row = -1;
    D sum(0);
    for (; k < k1; ++k) {
      const long long r = tile_rows[k];
      if (r != row) {
        if (row >= 0) y[row] += alpha * sum;  // a row wholly inside this share
        row = r;
        sum = D(0);
      }
      sum += products[k];
    }
    // The share's last row (if not its first): a carry, it may continue in the
    // next thread. Without one, repeat the first row with 0, so the carries
    // stay sorted and a row's carries form one run.
    carry[1] = row >= 0 ? row : first;
    carried[1] = row >= 0 ? sum : D(0);
  }
  detail::combine_block_carries<2>(static_cast<long long>(rows), carry, carried, alpha, y, carry_row, carry_val, product_bytes);
}

long long coo_threads(std::size_t nnz) { return (static_cast<long long>(nnz) + kEntriesPerThread - 1) / kEntriesPerThread; }
long long coo_blocks(std::size_t nnz) { return (coo_threads(nnz) + kThreadsPerBlock - 1) / kThreadsPerBlock; }

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
  const long long nnz = static_cast<long long>(a.nnz()), threads = coo_threads(a.nnz());
  if (nnz == 0) return;
  auto* carry_row = static_cast<long long*>(workspace);
  const long long blocks = coo_blocks(a.nnz());
  if (blocks > (1LL << 30)) throw Error(ErrorCode::invalid_argument, "COO: the matrix needs more blocks than one grid holds");
  D* carry_val = detail::carry_values<D>(workspace, blocks);  // one carry per block
  const D al = detail::dev_value(alpha);
  coo_kernel<D, I><<<static_cast<unsigned>(blocks), kThreadsPerBlock, 0, detail::stream_of(ex)>>>(
      a.rows, nnz, threads, a.row_idx.data(), a.col_idx.data(), detail::dev(a.values.data()), detail::dev(x), al, detail::dev(y), carry_row,
      carry_val);
  HSPARSE_CUDA_CHECK(cudaGetLastError());
  detail::add_carries(ex, blocks, a.rows, carry_row, carry_val, al, detail::dev(y));
}

#define HSPARSE_INSTANTIATE(V, I) \
  template void coo_spmv_segmented(const Executor&, V, const DeviceCoo<V, I>&, const V*, V, V*, void*);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
