#pragma once
// GPU CSR SpMV kernels on device data, y = alpha*A*x + beta*y (beta == 0:
// y is not read). x and y are device pointers of cols and rows elements.
// Every kernel runs on the executor's stream and returns without waiting.
#include "hsparse/backends/cuda/device.hpp"

namespace hsparse::cuda {

// CSR scalar (Owens lecture; Bell and Garland): one thread per row.
template <class V, class I>
void csr_spmv_scalar(const Executor& ex, V alpha, const DeviceCsr<V, I>& a, const V* x, V beta, V* y);

// Reguly and Giles' parametrised CSR (Figure 3): `coop` threads (a power of
// two up to 32) share a row, a group handles `repeat` consecutive rows,
// `block_size` threads per block; the group's partial sums are reduced with
// warp shuffles (the paper's implicit warp synchronisation, made explicit).
struct CsrVectorParams {
  int coop = 1;
  int repeat = 1;
  int block_size = 128;
};
// The fixed rule of section 5.4: block size 128; coop the smallest power of
// two above sqrt(mean row length), at most 32; repeat as large as keeps at
// least 1500 blocks. Constant time: needs only rows and nnz.
CsrVectorParams csr_vector_fixed_rule(long long rows, long long nnz);
template <class V, class I>
void csr_spmv_vector(const Executor& ex, V alpha, const DeviceCsr<V, I>& a, const V* x, V beta, V* y, CsrVectorParams p);

// Merge-path CSR (Merrill and Garland): every thread consumes an equal share
// of the rows + nnz merge path, so long rows are split across threads and
// warps; the parts of split rows are combined by a second, segmented kernel
// (deterministic). Needs a workspace of merge_workspace_bytes.
std::size_t csr_merge_workspace_bytes(long long rows, long long nnz, std::size_t value_bytes);
template <class V, class I>
void csr_spmv_merge(const Executor& ex, V alpha, const DeviceCsr<V, I>& a, const V* x, V beta, V* y, void* workspace);

}  // namespace hsparse::cuda
