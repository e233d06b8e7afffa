// Serial reference CSR SpMV: the oracle every other kernel is tested against.
// Deliberately plain: one row at a time, entries in stored order.
#include "hsparse/kernels/csr_spmv.hpp"

#include <string>

#include "hsparse/core/error.hpp"

namespace hsparse {

namespace reference {

template <class V, class I>
void csr_spmv(V alpha, const Csr<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  check_spmv_sizes(a, x.size(), y.size());
  for (I r = 0; r < a.rows; ++r) {
    V sum(0);
    for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) sum += a.values[k] * x[a.col_idx[k]];
    y[r] = beta == V(0) ? alpha * sum : alpha * sum + beta * y[r];
  }
}

}  // namespace reference

#define HSPARSE_INSTANTIATE(V, I)                                             \
  template void reference::csr_spmv(V, const Csr<V, I>&, std::span<const V>, V, std::span<V>);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
