// cuSPARSE baseline (generic API). Every call is checked; errors name the call.
#include <cusparse.h>

#include "device_common.cuh"
#include "hsparse/backends/cuda/cusparse_spmv.hpp"

namespace hsparse::cuda {

namespace {

void check_cusparse(cusparseStatus_t status, const char* what) {
  if (status != CUSPARSE_STATUS_SUCCESS) {
    throw Error(status == CUSPARSE_STATUS_ALLOC_FAILED ? ErrorCode::out_of_memory : ErrorCode::cuda,
                std::string(what) + ": " + cusparseGetErrorString(status));
  }
}
#define HSPARSE_CUSPARSE_CHECK(call) check_cusparse((call), #call)

template <class V> constexpr cudaDataType value_type() {
  if constexpr (std::is_same_v<V, float>) return CUDA_R_32F;
  else if constexpr (std::is_same_v<V, double>) return CUDA_R_64F;
  else if constexpr (std::is_same_v<V, std::complex<float>>) return CUDA_C_32F;
  else return CUDA_C_64F;
}
template <class I> constexpr cusparseIndexType_t index_type() { return sizeof(I) == 4 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I; }

}  // namespace

template <class V, class I>
struct CusparseSpmv<V, I>::State {
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
    cusparseDestroyDnVec(vx);
    cusparseDestroyDnVec(vy);
  }
};

template <class V, class I>
CusparseSpmv<V, I>::CusparseSpmv(const Executor& ex, const DeviceCsr<V, I>& a, CusparseAlgorithm algorithm) : state_(new State) {
  State& s = *state_;
  s.rows = a.rows;
  s.cols = a.cols;
  HSPARSE_CUSPARSE_CHECK(cusparseCreate(&s.handle));
  HSPARSE_CUSPARSE_CHECK(cusparseCreateCsr(&s.matrix, a.rows, a.cols, static_cast<std::int64_t>(a.nnz()),
                                           const_cast<I*>(a.row_ptr.data()), const_cast<I*>(a.col_idx.data()),
                                           const_cast<V*>(a.values.data()), index_type<I>(), index_type<I>(),
                                           CUSPARSE_INDEX_BASE_ZERO, value_type<V>()));
  s.algorithm = algorithm == CusparseAlgorithm::csr_alg2 ? CUSPARSE_SPMV_CSR_ALG2 : CUSPARSE_SPMV_CSR_ALG1;
  s.prepare(ex, true);
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
  check_cusparse(status, "cusparseSpMV");
}

#define HSPARSE_INSTANTIATE(V, I) template class CusparseSpmv<V, I>;
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
