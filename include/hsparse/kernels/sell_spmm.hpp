#pragma once
// SpMM Y = alpha A X + beta Y for a SELL-C-sigma matrix (Kreutzer et al.
// 2014, section 3): the chunks' column indices and values are read once
// per pass of up to kSpmmColumns columns (the byte model of spmm_bytes,
// with the chunks' padding counted as entries). x and y follow the
// matrix's ordering: original (y scattered through perm) or, with
// permuted_columns, the sorted one. beta == 0: Y is not read.
//
//   hsparse::reference::sell_spmm  src/backends/reference/sell_spmm.cpp  k SELL SpMVs, the definition
//   hsparse::openmp::sell_spmm     src/backends/openmp/sell_spmm.cpp     chunks in parallel, KC sums per row
#include "hsparse/dense/dense_matrix.hpp"
#include "hsparse/formats/sell_c_sigma.hpp"

namespace hsparse {

namespace reference {
template <class V, class I>
void sell_spmm(V alpha, const SellCSigma<V, I>& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y);
}
namespace openmp {
template <class V, class I>
void sell_spmm(V alpha, const SellCSigma<V, I>& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y);
}

}  // namespace hsparse
