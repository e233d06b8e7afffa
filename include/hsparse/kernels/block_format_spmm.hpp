#pragma once
// SpMM Y = alpha A X + beta Y for a SELL-C-sigma matrix (Kreutzer et al.
// 2014, section 3): the chunks' column indices and values are read once
// per pass of up to kSpmmColumns columns (the byte model of spmm_bytes,
// with the chunks' padding counted as entries). x and y follow the
// matrix's ordering: original (y scattered through perm) or, with
// permuted_columns, the sorted one. beta == 0: Y is not read.
//
//
// The same for BCSR (Eberhardt and Hoemmen): a block row's blocks read once
// per pass, each block's b x b values applied to b rows of the packed X.
//
//   hsparse::reference::sell_spmm, bcsr_spmm  src/backends/reference/sell_spmm.cpp  k SpMVs, the definition
//   hsparse::openmp::sell_spmm     src/backends/openmp/sell_spmm.cpp   chunks in parallel, KC sums per row
//   hsparse::openmp::bcsr_spmm     src/backends/openmp/bcsr_spmm.cpp   block rows in parallel, b x KC sums
//   hsparse::cuda::sell_spmm, bcsr_spmm  backends/cuda/format_spmv.hpp  thread per row / b threads per block row, KC sums
#include "hsparse/dense/dense_matrix.hpp"
#include "hsparse/formats/bcsr.hpp"
#include "hsparse/formats/sell_c_sigma.hpp"

namespace hsparse {

namespace reference {
template <class V, class I>
void sell_spmm(V alpha, const SellCSigma<V, I>& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y);
template <class V, class I>
void bcsr_spmm(V alpha, const Bcsr<V, I>& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y);
}
namespace openmp {
template <class V, class I>
void sell_spmm(V alpha, const SellCSigma<V, I>& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y);
template <class V, class I>
void bcsr_spmm(V alpha, const Bcsr<V, I>& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y);
}

}  // namespace hsparse
