// The reference SpMM (kernels/csr_spmm.hpp): k reference SpMVs, column by
// column, the definition the other kernels are held to; and the shape
// check and byte model every SpMM shares.
#include <cmath>
#include <string>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/kernels/csr_spmm.hpp"
#include "hsparse/kernels/csr_spmv.hpp"

namespace hsparse {

template <class V>
void check_spmm_shapes(long long rows, long long cols, const ConstDenseView<V>& x, const ConstDenseView<V>& y) {
  if (x.rows != cols || y.rows != rows || x.cols != y.cols) {
    throw Error(ErrorCode::invalid_argument, "SpMM shapes do not match: A " + std::to_string(rows) + " x " + std::to_string(cols) + ", X " +
                                                 std::to_string(x.rows) + " x " + std::to_string(x.cols) + ", Y " + std::to_string(y.rows) + " x " +
                                                 std::to_string(y.cols));
  }
  check_dense_shape(x.rows, x.cols, x.ld, "SpMM X");
  check_dense_shape(y.rows, y.cols, y.ld, "SpMM Y");
}

double spmm_bytes(double rows, double cols, double nnz, double k, double value_bytes, double index_bytes, bool beta_nonzero) {
  const double passes = std::ceil(k / kSpmmColumns);
  const double matrix = nnz * (value_bytes + index_bytes) + (rows + 1) * index_bytes;
  return passes * matrix + k * (cols + rows * (beta_nonzero ? 2 : 1)) * value_bytes;
}

namespace reference {
template <class V, class I>
void csr_spmm(V alpha, const Csr<V, I>& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y) {
  check_spmm_shapes<V, I>(a, x, y);
  for (long long j = 0; j < x.cols; ++j) {
    csr_spmv<V, I>(alpha, a, std::span<const V>(x.data + j * x.ld, static_cast<std::size_t>(x.rows)), beta,
                   std::span<V>(y.data + j * y.ld, static_cast<std::size_t>(y.rows)));
  }
}
}  // namespace reference

#define HSPARSE_INSTANTIATE_CHECK(V) template void check_spmm_shapes<V>(long long, long long, const ConstDenseView<V>&, const ConstDenseView<V>&);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE_CHECK)
#undef HSPARSE_INSTANTIATE_CHECK

#define HSPARSE_INSTANTIATE(V, I) \
  template void reference::csr_spmm(V, const Csr<V, I>&, const ConstDenseView<V>&, V, const DenseView<V>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
