#pragma once
// CSR sparse matrix-vector product, y = alpha*A*x + beta*y.
//
// One declaration, one implementation per backend (Ginkgo's layout):
//   hsparse::reference::csr_spmv  src/backends/reference/  serial oracle, the definition
//   hsparse::openmp::csr_spmv     src/backends/openmp/     row-parallel, schedule by eq. (15)
//   hsparse::cuda::csr_spmv_*     src/backends/cuda/       on device data (backends/cuda/)
//
// BLAS convention: when beta == 0, y is not read (so NaN or garbage in y does
// not propagate). Sizes are checked: x must have cols entries and y rows
// entries, else Error(invalid_argument).
#include <cstdint>
#include <span>
#include <vector>

#include "hsparse/formats/csr.hpp"

namespace hsparse {

// Error(invalid_argument) unless x has cols entries and y rows entries.
void check_spmv_dimensions(std::int64_t rows, std::int64_t cols, std::size_t x_size, std::size_t y_size);
template <class V, class I>
void check_spmv_sizes(const Csr<V, I>& a, std::size_t x_size, std::size_t y_size) {
  check_spmv_dimensions(a.rows, a.cols, x_size, y_size);
}

namespace reference {
template <class V, class I>
void csr_spmv(V alpha, const Csr<V, I>& a, std::span<const V> x, V beta, std::span<V> y);
}  // namespace reference

namespace openmp {

enum class Schedule { static_rows, guided_rows };

// The SELL-C-sigma paper's rule (Kreutzer et al. 2014, section 5, eq. (15)):
// "STATIC" when the matrix data fits in the last-level cache or the row
// lengths vary little, else "GUIDED,1". The threshold on the coefficient of
// variation was lost from the seed's text; we use 1.0 (standard deviation as
// large as the mean), which separates stencil/FEM matrices (c_v < 0.5) from
// power-law ones (c_v > 2). The cache size is read from the OS (sysconf).
Schedule choose_schedule(std::size_t matrix_bytes, double row_length_cv);

template <class V, class I>
Schedule choose_schedule(const Csr<V, I>& a);

template <class V, class I>
void csr_spmv(V alpha, const Csr<V, I>& a, std::span<const V> x, V beta, std::span<V> y);

template <class V, class I>
void csr_spmv(V alpha, const Csr<V, I>& a, std::span<const V> x, V beta, std::span<V> y, Schedule schedule);

// Merge-path CSR (Merrill and Garland, SC'16; Owens lecture, "merge-based
// CSR SpMV"): the merge of the row-end offsets with the nonzero indices,
// rows + nnz items, is cut into one equal share per thread, found by a
// binary search along each share's first diagonal. A row split between
// threads is finished by the thread holding its end; the other parts are
// carried out and added after the loop, in thread order (deterministic).
// Rows of any length cost the same, so a few huge rows do not serialise.
template <class V, class I>
void csr_merge_spmv(V alpha, const Csr<V, I>& a, std::span<const V> x, V beta, std::span<V> y);

// CSR with its rows reordered by length, longest first, within windows of
// kSortedRowWindow consecutive rows: the SELL-C-sigma paper's sorting scope
// (Kreutzer et al. 2014, section 3, sigma), kept in CSR, without padding.
// Neighbouring rows then run loops of equal or near trip counts, so the
// branch that ends each row is predicted. On a power law (894785 rows, 6.5
// entries a row on average, lengths from 1 to thousands) the row-parallel
// kernel ran 4.7-4.9 ms before sorting and 1.9-2.0 ms after (2-core build
// VM); on circuit and the regular matrices it changed nothing.
// rows.row i is row row_of[i] of the original; y is written there.
//
// Taken (sort_rows_by_length) where most rows differ in length from the row
// before: the power law 84% of its rows; circuit 1%, cage10 22%, bcsstk16
// 24%, stencils 2%, where sorting gained nothing (circuit 5-10% slower, its
// hub rows aside all of one length; cage10 and bcsstk16 within the noise).
inline constexpr long long kSortedRowWindow = 256;
inline constexpr double kSortedRowsChangeShare = 0.5;
template <class V, class I>
bool sort_rows_by_length(const Csr<V, I>& a);
template <class V, class I>
struct CsrSortedRows {
  Csr<V, I> rows;
  std::vector<I> row_of;
};
template <class V, class I>
CsrSortedRows<V, I> csr_sorted_rows(const Csr<V, I>& a);
template <class V, class I>
void csr_sorted_spmv(V alpha, const CsrSortedRows<V, I>& s, std::span<const V> x, V beta, std::span<V> y);

}  // namespace openmp
}  // namespace hsparse
