#pragma once
// SpMM: Y = alpha A X + beta Y for a CSR matrix A and dense X, Y of k
// columns (dense/dense_matrix.hpp, column-major). The point over k SpMVs
// (issue 16): A's row pointers, column indices and values are read once
// for up to kSpmmColumns columns at a time, so the bytes per product fall
// from k (12 nnz + x and y traffic) to 12 nnz + k (x and y traffic)
// (int32 indices, double values): the byte model of spmm_bytes.
// beta == 0: Y is not read.
//
//   hsparse::reference::csr_spmm  src/backends/reference/csr_spmm.cpp  k SpMVs, the definition
//   hsparse::openmp::csr_spmm     src/backends/openmp/csr_spmm.cpp     rows in parallel, k accumulators per row
//   hsparse::cuda::csr_spmm       backends/cuda/csr_spmv.hpp           threads per row, k accumulators per thread
#include "hsparse/dense/dense_matrix.hpp"
#include "hsparse/formats/csr.hpp"

namespace hsparse {

inline constexpr int kSpmmColumns = 32;  // columns per pass over the matrix

// Error(invalid_argument) unless X is cols x k and Y rows x k (any format's SpMM).
template <class V>
void check_spmm_shapes(long long rows, long long cols, const ConstDenseView<V>& x, const ConstDenseView<V>& y);
template <class V, class I>
void check_spmm_shapes(const Csr<V, I>& a, const ConstDenseView<V>& x, const ConstDenseView<V>& y) {
  check_spmm_shapes<V>(a.rows, a.cols, x, y);
}

// Bytes an SpMM of k columns moves at least: the matrix once per pass of
// kSpmmColumns columns, x and y once per column (y twice with beta != 0).
double spmm_bytes(double rows, double cols, double nnz, double k, double value_bytes, double index_bytes, bool beta_nonzero);

namespace reference {
template <class V, class I>
void csr_spmm(V alpha, const Csr<V, I>& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y);
}
namespace openmp {
template <class V, class I>
void csr_spmm(V alpha, const Csr<V, I>& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y);
}

}  // namespace hsparse
