// cuSPARSE's SpMM (generic API, CSR times a column-major dense matrix) as
// the baseline of hsparse's SpMM (backends/cuda/cusparse_spmv.hpp).
#include <cusparse.h>

#include "cusparse_check.hpp"
#include "device_common.cuh"
#include "hsparse/backends/cuda/cusparse_spmv.hpp"

namespace hsparse::cuda {

namespace {
template <class V> constexpr cudaDataType spmm_value_type() { return detail::cusparse_value_type<V>(); }
}  // namespace

template <class V, class I>
struct CusparseSpmm<V, I>::State {
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t matrix = nullptr;
  cusparseDnMatDescr_t x = nullptr, y = nullptr;
  DeviceArray<unsigned char> buffer;
  ~State() {
    if (x) cusparseDestroyDnMat(x);
    if (y) cusparseDestroyDnMat(y);
    if (matrix) cusparseDestroySpMat(matrix);
    if (handle) cusparseDestroy(handle);
  }
};

template <class V, class I>
CusparseSpmm<V, I>::CusparseSpmm(const Executor& ex, const DeviceCsr<V, I>& a, const ConstDenseView<V>& x, const DenseView<V>& y) : state_(new State) {
  if (x.rows != a.cols || y.rows != a.rows || x.cols != y.cols) throw Error(ErrorCode::invalid_argument, "cuSPARSE SpMM: shapes do not match");
  State& s = *state_;
  constexpr auto it = detail::cusparse_index_type<I>();
  HSPARSE_CUSPARSE_CHECK(cusparseCreate(&s.handle));
  HSPARSE_CUSPARSE_CHECK(cusparseSetStream(s.handle, detail::stream_of(ex)));
  HSPARSE_CUSPARSE_CHECK(cusparseCreateCsr(&s.matrix, a.rows, a.cols, static_cast<std::int64_t>(a.nnz()), const_cast<I*>(a.row_ptr.data()),
                                           const_cast<I*>(a.col_idx.data()), const_cast<V*>(a.values.data()), it, it, CUSPARSE_INDEX_BASE_ZERO,
                                           spmm_value_type<V>()));
  HSPARSE_CUSPARSE_CHECK(cusparseCreateDnMat(&s.x, x.rows, x.cols, x.ld, const_cast<V*>(x.data), spmm_value_type<V>(), CUSPARSE_ORDER_COL));
  HSPARSE_CUSPARSE_CHECK(cusparseCreateDnMat(&s.y, y.rows, y.cols, y.ld, y.data, spmm_value_type<V>(), CUSPARSE_ORDER_COL));
  const V one(1), zero(0);
  std::size_t bytes = 0;
  HSPARSE_CUSPARSE_CHECK(cusparseSpMM_bufferSize(s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s.matrix, s.x, &zero,
                                                 s.y, spmm_value_type<V>(), CUSPARSE_SPMM_ALG_DEFAULT, &bytes));
  s.buffer = DeviceArray<unsigned char>(std::max<std::size_t>(bytes, 1));
}

template <class V, class I>
CusparseSpmm<V, I>::~CusparseSpmm() = default;

template <class V, class I>
void CusparseSpmm<V, I>::apply(V alpha, V beta) const {
  const State& s = *state_;
  HSPARSE_CUSPARSE_CHECK(cusparseSpMM(s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, s.matrix, s.x, &beta, s.y,
                                      spmm_value_type<V>(), CUSPARSE_SPMM_ALG_DEFAULT, const_cast<unsigned char*>(s.buffer.data())));
}

#define HSPARSE_INSTANTIATE(V, I) template class CusparseSpmm<V, I>;
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
