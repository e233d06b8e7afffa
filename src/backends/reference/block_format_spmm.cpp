// The reference SELL and BCSR SpMM (kernels/block_format_spmm.hpp): k
// reference SpMVs of the format, column by column.
#include "hsparse/kernels/block_format_spmm.hpp"

#include "hsparse/core/types.hpp"
#include "hsparse/kernels/csr_spmm.hpp"
#include "hsparse/kernels/format_spmv.hpp"

namespace hsparse::reference {

namespace {
// Y(:, j) = alpha A X(:, j) + beta Y(:, j) for each column, with the format's reference SpMV.
template <class V, class M, class Spmv>
void column_by_column(V alpha, const M& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y, Spmv spmv) {
  check_spmm_shapes<V>(a.rows, a.cols, x, y);
  for (long long j = 0; j < x.cols; ++j) {
    spmv(alpha, a, std::span<const V>(x.data + j * x.ld, static_cast<std::size_t>(x.rows)), beta,
         std::span<V>(y.data + j * y.ld, static_cast<std::size_t>(y.rows)));
  }
}
}  // namespace

template <class V, class I>
void sell_spmm(V alpha, const SellCSigma<V, I>& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y) {
  column_by_column(alpha, a, x, beta, y, sell_spmv<V, I>);
}

template <class V, class I>
void bcsr_spmm(V alpha, const Bcsr<V, I>& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y) {
  column_by_column(alpha, a, x, beta, y, bcsr_spmv<V, I>);
}

#define HSPARSE_INSTANTIATE(V, I)                                                                                 \
  template void sell_spmm(V, const SellCSigma<V, I>&, const ConstDenseView<V>&, V, const DenseView<V>&); \
  template void bcsr_spmm(V, const Bcsr<V, I>&, const ConstDenseView<V>&, V, const DenseView<V>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::reference
