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
#include <span>

#include "hsparse/formats/csr.hpp"

namespace hsparse {

template <class V, class I>
void check_spmv_sizes(const Csr<V, I>& a, std::size_t x_size, std::size_t y_size);

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

}  // namespace openmp
}  // namespace hsparse
