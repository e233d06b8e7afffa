// CSR16 on the CPU (kernels/format_spmv.hpp; formats/csr16.hpp): rows over
// OpenMP threads, static schedule (the formats it pays for, stencils, banded
// and FEM matrices, have even rows). A row's column is its base plus the
// 16-bit offset; its wide-part entries, if any, are summed in the same pass.
// Stored values S (V, or single precision for csr16-single) widen to V.
#include "../common/output.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/kernels/format_spmv.hpp"

namespace hsparse::openmp {

template <class V, class S, class I>
void csr16_spmv(V alpha, const Csr16<S, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  check_spmv_dimensions(a.rows, a.cols, x.size(), y.size());
  const I* __restrict rp = a.row_ptr.data();
  const std::uint16_t* __restrict off = a.offset.data();
  const S* __restrict vals = a.values.data();
  const bool wide = a.has_wide();
#pragma omp parallel for schedule(static)
  for (I r = 0; r < a.rows; ++r) {
    const V* __restrict xr = x.data() + a.base[static_cast<std::size_t>(r)];
    V sum(0);
    for (I k = rp[r]; k < rp[r + 1]; ++k) sum += V(vals[k]) * xr[off[k]];
    if (wide) {
      for (I k = a.wide.row_ptr[static_cast<std::size_t>(r)]; k < a.wide.row_ptr[static_cast<std::size_t>(r) + 1]; ++k) {
        sum += V(a.wide.values[static_cast<std::size_t>(k)]) * x[static_cast<std::size_t>(a.wide.col_idx[static_cast<std::size_t>(k)])];
      }
    }
    y[static_cast<std::size_t>(r)] = detail::combine_output(alpha, sum, beta, y[static_cast<std::size_t>(r)]);
  }
}

#define HSPARSE_INSTANTIATE(V, I) template void csr16_spmv<V, V, I>(V, const Csr16<V, I>&, std::span<const V>, V, std::span<V>);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE
#define HSPARSE_INSTANTIATE(V, S, I) template void csr16_spmv<V, S, I>(V, const Csr16<S, I>&, std::span<const V>, V, std::span<V>);
HSPARSE_FOR_EACH_DOUBLE_SINGLE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
