// cuSPARSE baseline (generic API). Every call is checked; errors name the call.
#include <cusparse.h>

#include "cusparse_check.hpp"
#include "device_common.cuh"
#include "hsparse/backends/cuda/cusparse_spmv.hpp"

namespace hsparse::cuda {

namespace {


template <class V> constexpr cudaDataType value_type() { return detail::cusparse_value_type<V>(); }
template <class I> constexpr cusparseIndexType_t index_type() { return detail::cusparse_index_type<I>(); }

// cuSPARSE marks SELL padding with column -1; ours repeats a real column (value 0).
template <class I>
__global__ void mark_padding_kernel(int chunk, const I* __restrict__ chunk_ptr, const I* __restrict__ row_len,
                                    long long chunks, I* __restrict__ col_idx) {
  const long long c = blockIdx.x * static_cast<long long>(blockDim.x) / 32 + threadIdx.x / 32;  // a warp per chunk
  if (c >= chunks) return;
  const long long begin = chunk_ptr[c], end = chunk_ptr[c + 1];
  for (long long e = begin + threadIdx.x % 32; e < end; e += 32) {
    const long long j = (e - begin) % chunk, k = (e - begin) / chunk;
    if (k >= row_len[c * chunk + j]) col_idx[e] = I(-1);
  }
}

}  // namespace

template <class V, class I>
struct CusparseSpmv<V, I>::State {
  DeviceArray<I> sell_columns;  // SELL only: the column indices with padding marked -1
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t matrix = nullptr;
  cusparseSpMVAlg_t algorithm = CUSPARSE_SPMV_ALG_DEFAULT;
  I rows = 0, cols = 0;
  DeviceArray<unsigned char> buffer;
  // Dense vector descriptors are recreated per call (the pointers change); cheap.
  ~State() {
    if (matrix) cusparseDestroySpMat(matrix);
    if (handle) cusparseDestroy(handle);
  }
  void prepare(const Executor& ex, bool preprocess) {
    HSPARSE_CUSPARSE_CHECK(cusparseSetStream(handle, detail::stream_of(ex)));
    // Buffer size and preprocessing need vector descriptors: use temporaries.
    DeviceArray<V> x(static_cast<std::size_t>(cols) + 1), y(static_cast<std::size_t>(rows) + 1);
    cusparseDnVecDescr_t vx, vy;
    HSPARSE_CUSPARSE_CHECK(cusparseCreateDnVec(&vx, cols, x.data(), value_type<V>()));
    HSPARSE_CUSPARSE_CHECK(cusparseCreateDnVec(&vy, rows, y.data(), value_type<V>()));
    const V one(1), zero(0);
    std::size_t bytes = 0;
    HSPARSE_CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, matrix, vx, &zero, vy,
                                                   value_type<V>(), algorithm, &bytes));
    buffer = DeviceArray<unsigned char>(bytes + 16);
    if (preprocess) {
      HSPARSE_CUSPARSE_CHECK(cusparseSpMV_preprocess(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, matrix, vx, &zero, vy,
                                                     value_type<V>(), algorithm, buffer.data()));
    }
    // One trial product: cuSPARSE reports some unsupported cases (BSR with
    // block size 1, some shapes) only when it runs, and a plan must refuse
    // at creation, not fail later.
    const cusparseStatus_t trial = cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, matrix, vx, &zero, vy,
                                                value_type<V>(), algorithm, buffer.data());
    cusparseDestroyDnVec(vx);
    cusparseDestroyDnVec(vy);
    detail::check_cusparse(trial, "cusparseSpMV (trial product at setup)");
  }
};

template <class V, class I>
CusparseSpmv<V, I>::CusparseSpmv(const Executor& ex, const DeviceCsr<V, I>& a, CusparseAlgorithm algorithm, bool preprocess)
    : state_(new State) {
  State& s = *state_;
  s.rows = a.rows;
  s.cols = a.cols;
  HSPARSE_CUSPARSE_CHECK(cusparseCreate(&s.handle));
  HSPARSE_CUSPARSE_CHECK(cusparseCreateCsr(&s.matrix, a.rows, a.cols, static_cast<std::int64_t>(a.nnz()),
                                           const_cast<I*>(a.row_ptr.data()), const_cast<I*>(a.col_idx.data()),
                                           const_cast<V*>(a.values.data()), index_type<I>(), index_type<I>(),
                                           CUSPARSE_INDEX_BASE_ZERO, value_type<V>()));
  s.algorithm = algorithm == CusparseAlgorithm::csr_alg2 ? CUSPARSE_SPMV_CSR_ALG2 : CUSPARSE_SPMV_CSR_ALG1;
  s.prepare(ex, preprocess);
}

template <class V, class I>
CusparseSpmv<V, I>::CusparseSpmv(const Executor& ex, const DeviceCoo<V, I>& a) : state_(new State) {
  State& s = *state_;
  s.rows = a.rows;
  s.cols = a.cols;
  HSPARSE_CUSPARSE_CHECK(cusparseCreate(&s.handle));
  HSPARSE_CUSPARSE_CHECK(cusparseCreateCoo(&s.matrix, a.rows, a.cols, static_cast<std::int64_t>(a.nnz()),
                                           const_cast<I*>(a.row_idx.data()), const_cast<I*>(a.col_idx.data()),
                                           const_cast<V*>(a.values.data()), index_type<I>(), CUSPARSE_INDEX_BASE_ZERO,
                                           value_type<V>()));
  s.algorithm = CUSPARSE_SPMV_COO_ALG1;
  s.prepare(ex, false);
}

template <class V, class I>
CusparseSpmv<V, I>::CusparseSpmv(const Executor& ex, const DeviceSell<V, I>& a) : state_(new State) {
  if (!a.identity_order || a.permuted_columns) {
    throw Error(ErrorCode::invalid_argument, "cuSPARSE SELL has no row permutation: build the SELL matrix with sigma = 1");
  }
  State& s = *state_;
  s.rows = a.rows;
  s.cols = a.cols;
  const long long entries = static_cast<long long>(a.values.size()), chunks = static_cast<long long>(a.chunks());
  s.sell_columns = DeviceArray<I>(a.col_idx.size());
  if (entries > 0) {
    HSPARSE_CUDA_CHECK(cudaMemcpyAsync(s.sell_columns.data(), a.col_idx.data(), a.col_idx.size() * sizeof(I),
                                       cudaMemcpyDeviceToDevice, detail::stream_of(ex)));
    mark_padding_kernel<I><<<detail::grid_for(32 * chunks, 256), 256, 0, detail::stream_of(ex)>>>(
        a.chunk, a.chunk_ptr.data(), a.row_len.data(), chunks, s.sell_columns.data());
    HSPARSE_CUDA_CHECK(cudaGetLastError());
  }
  const auto nnz = static_cast<std::int64_t>(a.nnz);
  HSPARSE_CUSPARSE_CHECK(cusparseCreate(&s.handle));
  HSPARSE_CUSPARSE_CHECK(cusparseCreateSlicedEll(&s.matrix, a.rows, a.cols, nnz, entries, a.chunk, const_cast<I*>(a.chunk_ptr.data()),
                                                 s.sell_columns.data(), const_cast<V*>(a.values.data()), index_type<I>(),
                                                 index_type<I>(), CUSPARSE_INDEX_BASE_ZERO, value_type<V>()));
  s.algorithm = CUSPARSE_SPMV_SELL_ALG1;
  s.prepare(ex, false);
}

template <class V, class I>
CusparseSpmv<V, I>::CusparseSpmv(const Executor& ex, const DeviceBcsr<V, I>& a) : state_(new State) {
  const long long b = a.block;
  if (b < 2) {  // cuSPARSE's documented rule (bsrmv: "only blockDim > 1 is supported")
    throw Error(ErrorCode::invalid_argument, "cuSPARSE BSR needs a block size of at least 2 (a 1 x 1 BSR is CSR: use csr/cusparse-alg1)");
  }
  if (a.rows % b != 0 || a.cols % b != 0) {
    throw Error(ErrorCode::invalid_argument, "cuSPARSE BSR needs rows and columns that are multiples of the block size " +
                                                 std::to_string(b) + " (matrix is " + std::to_string(a.rows) + " x " +
                                                 std::to_string(a.cols) + ")");
  }
  if (a.block_stride != static_cast<std::size_t>(b * b)) {
    throw Error(ErrorCode::invalid_argument, "cuSPARSE BSR needs packed blocks (no 64-byte block alignment)");
  }
  State& s = *state_;
  s.rows = a.rows;
  s.cols = a.cols;
  HSPARSE_CUSPARSE_CHECK(cusparseCreate(&s.handle));
  HSPARSE_CUSPARSE_CHECK(cusparseCreateBsr(&s.matrix, a.rows / b, a.cols / b, static_cast<std::int64_t>(a.col_idx.size()), b, b,
                                           const_cast<I*>(a.row_ptr.data()), const_cast<I*>(a.col_idx.data()),
                                           const_cast<V*>(a.values.data()), index_type<I>(), index_type<I>(),
                                           CUSPARSE_INDEX_BASE_ZERO, value_type<V>(), CUSPARSE_ORDER_COL));
  s.algorithm = CUSPARSE_SPMV_BSR_ALG1;
  s.prepare(ex, false);
}

template <class V, class I>
CusparseSpmv<V, I>::~CusparseSpmv() = default;

template <class V, class I>
void CusparseSpmv<V, I>::apply(V alpha, const V* x, V beta, V* y) const {
  const State& s = *state_;
  cusparseDnVecDescr_t vx, vy;
  HSPARSE_CUSPARSE_CHECK(cusparseCreateDnVec(&vx, s.cols, const_cast<V*>(x), value_type<V>()));
  HSPARSE_CUSPARSE_CHECK(cusparseCreateDnVec(&vy, s.rows, y, value_type<V>()));
  const cusparseStatus_t status = cusparseSpMV(s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, s.matrix, vx, &beta, vy,
                                               value_type<V>(), s.algorithm, const_cast<unsigned char*>(s.buffer.data()));
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  detail::check_cusparse(status, "cusparseSpMV");
}

#define HSPARSE_INSTANTIATE(V, I) template class CusparseSpmv<V, I>;
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
