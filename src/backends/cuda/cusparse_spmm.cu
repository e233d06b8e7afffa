// cuSPARSE's SpMM (generic API, CSR times a dense matrix of either order)
// as the baseline of hsparse's SpMM (backends/cuda/cusparse_spmv.hpp).
#include <cusparse.h>

#include "cusparse_check.hpp"
#include "device_common.cuh"
#include "hsparse/backends/cuda/cusparse_spmv.hpp"

namespace hsparse::cuda {

namespace {
template <class V> constexpr cudaDataType spmm_value_type() { return detail::cusparse_value_type<V>(); }

cusparseSpMMAlg_t spmm_algorithm(CusparseSpmmAlgorithm a) {
  switch (a) {
    case CusparseSpmmAlgorithm::default_algorithm: return CUSPARSE_SPMM_ALG_DEFAULT;
    case CusparseSpmmAlgorithm::csr_alg1: return CUSPARSE_SPMM_CSR_ALG1;
    case CusparseSpmmAlgorithm::csr_alg2: return CUSPARSE_SPMM_CSR_ALG2;
  }
  throw Error(ErrorCode::invalid_argument, "cuSPARSE SpMM: unknown algorithm");
}
}  // namespace

template <class V, class I>
struct CusparseSpmm<V, I>::State {
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t matrix = nullptr;
  cusparseDnMatDescr_t x = nullptr, y = nullptr;
  cusparseSpMMAlg_t algorithm = CUSPARSE_SPMM_ALG_DEFAULT;
  DeviceArray<unsigned char> buffer;
  ~State() {
    if (x) cusparseDestroyDnMat(x);
    if (y) cusparseDestroyDnMat(y);
    if (matrix) cusparseDestroySpMat(matrix);
    if (handle) cusparseDestroy(handle);
  }
};

template <class V, class I>
CusparseSpmm<V, I>::CusparseSpmm(const Executor& ex, const DeviceCsr<V, I>& a, const ConstDenseView<V>& x, const DenseView<V>& y,
                                 CusparseSpmmVariant variant)
    : state_(new State) {
  const bool rows = variant.order == DenseOrder::row_major;
  // Row-major: the views are X^T and Y^T (see the header).
  const long long x_rows = rows ? x.cols : x.rows, x_cols = rows ? x.rows : x.cols, y_rows = rows ? y.cols : y.rows, y_cols = rows ? y.rows : y.cols;
  if (x_rows != a.cols || y_rows != a.rows || x_cols != y_cols) {
    throw Error(ErrorCode::invalid_argument, "cuSPARSE SpMM (" + variant.name() + "): X is " + std::to_string(x_rows) + " x " + std::to_string(x_cols) +
                                                 " and Y " + std::to_string(y_rows) + " x " + std::to_string(y_cols) + " for A of " + std::to_string(a.rows) +
                                                 " x " + std::to_string(a.cols));
  }
  State& s = *state_;
  s.algorithm = spmm_algorithm(variant.algorithm);
  const auto order = rows ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL;
  constexpr auto it = detail::cusparse_index_type<I>();
  HSPARSE_CUSPARSE_CHECK(cusparseCreate(&s.handle));
  HSPARSE_CUSPARSE_CHECK(cusparseSetStream(s.handle, detail::stream_of(ex)));
  HSPARSE_CUSPARSE_CHECK(cusparseCreateCsr(&s.matrix, a.rows, a.cols, static_cast<std::int64_t>(a.nnz()), const_cast<I*>(a.row_ptr.data()),
                                           const_cast<I*>(a.col_idx.data()), const_cast<V*>(a.values.data()), it, it, CUSPARSE_INDEX_BASE_ZERO,
                                           spmm_value_type<V>()));
  HSPARSE_CUSPARSE_CHECK(cusparseCreateDnMat(&s.x, x_rows, x_cols, x.ld, const_cast<V*>(x.data), spmm_value_type<V>(), order));
  HSPARSE_CUSPARSE_CHECK(cusparseCreateDnMat(&s.y, y_rows, y_cols, y.ld, y.data, spmm_value_type<V>(), order));
  const V one(1), zero(0);
  std::size_t bytes = 0;
  HSPARSE_CUSPARSE_CHECK(cusparseSpMM_bufferSize(s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s.matrix, s.x, &zero,
                                                 s.y, spmm_value_type<V>(), s.algorithm, &bytes));
  s.buffer = DeviceArray<unsigned char>(std::max<std::size_t>(bytes, 1));
}

template <class V, class I>
CusparseSpmm<V, I>::~CusparseSpmm() = default;

template <class V, class I>
void CusparseSpmm<V, I>::apply(V alpha, V beta) const {
  const State& s = *state_;
  HSPARSE_CUSPARSE_CHECK(cusparseSpMM(s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, s.matrix, s.x, &beta, s.y,
                                      spmm_value_type<V>(), s.algorithm, const_cast<unsigned char*>(s.buffer.data())));
}

#define HSPARSE_INSTANTIATE(V, I) template class CusparseSpmm<V, I>;
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
