// Serial reference kernels of the non-CSR formats, each written directly
// from its format's layout (formats/*.hpp), touching only real entries.
// They are the oracles of the OpenMP and CUDA kernels of each format. A
// padded slot (DIA's, BCSR's block fill) adds nothing whatever x holds;
// an entry stored as zero adds 0 * x (formats/padding.hpp).
#include <vector>

#include "../common/output.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/formats/padding.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/kernels/format_spmv.hpp"

namespace hsparse::reference {

using detail::combine_output;

template <class V, class I>
void coo_spmv(V alpha, const Coo<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  check_spmv_dimensions(a.rows, a.cols, x.size(), y.size());
  std::vector<V> sum(y.size(), V(0));
  for (std::size_t k = 0; k < a.nnz(); ++k) sum[static_cast<std::size_t>(a.row_idx[k])] += a.values[k] * x[static_cast<std::size_t>(a.col_idx[k])];
  for (std::size_t r = 0; r < y.size(); ++r) y[r] = combine_output(alpha, sum[r], beta, y[r]);
}

template <class V, class I>
void ell_spmv(V alpha, const Ell<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  check_spmv_dimensions(a.rows, a.cols, x.size(), y.size());
  const auto pr = static_cast<std::size_t>(a.padded_rows);
  for (I r = 0; r < a.rows; ++r) {
    V sum(0);
    for (I k = 0; k < a.row_len[r]; ++k) {
      const std::size_t slot = static_cast<std::size_t>(k) * pr + static_cast<std::size_t>(r);
      sum += a.values[slot] * x[static_cast<std::size_t>(a.col_idx[slot])];
    }
    y[r] = combine_output(alpha, sum, beta, y[r]);
  }
}

template <class V, class I>
void hyb_spmv(V alpha, const Hyb<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  check_spmv_dimensions(a.rows(), a.cols(), x.size(), y.size());
  std::vector<V> sum(y.size(), V(0));
  std::span<V> s(sum);
  ell_spmv(V(1), a.ell, x, V(0), s);
  for (std::size_t k = 0; k < a.coo.nnz(); ++k) sum[static_cast<std::size_t>(a.coo.row_idx[k])] += a.coo.values[k] * x[static_cast<std::size_t>(a.coo.col_idx[k])];
  for (std::size_t r = 0; r < y.size(); ++r) y[r] = combine_output(alpha, sum[r], beta, y[r]);
}

template <class V, class I>
void dia_spmv(V alpha, const Dia<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  check_spmv_dimensions(a.rows, a.cols, x.size(), y.size());
  for (I r = 0; r < a.rows; ++r) {
    V sum(0);
    for (std::size_t d = 0; d < a.offsets.size(); ++d) {
      const std::int64_t c = static_cast<std::int64_t>(r) + a.offsets[d];
      if (c >= 0 && c < a.cols) sum += entry_product(a.values[d * static_cast<std::size_t>(a.rows) + static_cast<std::size_t>(r)], x[static_cast<std::size_t>(c)]);
    }
    y[r] = combine_output(alpha, sum, beta, y[r]);
  }
}

template <class V, class S, class I>
void csr16_spmv(V alpha, const Csr16<S, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  check_spmv_dimensions(a.rows, a.cols, x.size(), y.size());
  for (I r = 0; r < a.rows; ++r) {
    V sum(0);
    const auto row = static_cast<std::size_t>(r);
    for (I k = a.row_ptr[row]; k < a.row_ptr[row + 1]; ++k) {
      sum += V(a.values[static_cast<std::size_t>(k)]) * x[static_cast<std::size_t>(a.base[row]) + a.offset[static_cast<std::size_t>(k)]];
    }
    if (a.has_wide()) {
      for (I k = a.wide.row_ptr[row]; k < a.wide.row_ptr[row + 1]; ++k) {
        sum += V(a.wide.values[static_cast<std::size_t>(k)]) * x[static_cast<std::size_t>(a.wide.col_idx[static_cast<std::size_t>(k)])];
      }
    }
    y[row] = combine_output(alpha, sum, beta, y[row]);
  }
}

template <class V, class I>
void bcsr_spmv(V alpha, const Bcsr<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  check_spmv_dimensions(a.rows, a.cols, x.size(), y.size());
  const int bs = a.block;
  for (I r = 0; r < a.rows; ++r) {
    const I br = r / bs, i = r % bs;
    V sum(0);
    for (I k = a.row_ptr[br]; k < a.row_ptr[br + 1]; ++k) {
      for (int j = 0; j < bs; ++j) {
        const std::int64_t c = static_cast<std::int64_t>(a.col_idx[k]) * bs + j;
        if (c < a.cols) sum += entry_product(a.values[static_cast<std::size_t>(k) * a.block_stride + static_cast<std::size_t>(j) * bs + static_cast<std::size_t>(i)], x[static_cast<std::size_t>(c)]);
      }
    }
    y[r] = combine_output(alpha, sum, beta, y[r]);
  }
}

template <class V, class I>
void sell_spmv(V alpha, const SellCSigma<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  check_spmv_dimensions(a.rows, a.cols, x.size(), y.size());
  const auto C = static_cast<std::size_t>(a.chunk);
  for (I i = 0; i < a.rows; ++i) {
    const std::size_t base = static_cast<std::size_t>(a.chunk_ptr[static_cast<std::size_t>(i) / C]) + static_cast<std::size_t>(i) % C;
    V sum(0);
    for (I k = 0; k < a.row_len[i]; ++k) sum += a.values[base + static_cast<std::size_t>(k) * C] * x[static_cast<std::size_t>(a.col_idx[base + static_cast<std::size_t>(k) * C])];
    const std::size_t out = a.permuted_columns ? static_cast<std::size_t>(i) : static_cast<std::size_t>(a.perm[i]);
    y[out] = combine_output(alpha, sum, beta, y[out]);
  }
}

#define HSPARSE_INSTANTIATE_COO(V, I) \
  template void coo_spmv(V, const Coo<V, I>&, std::span<const V>, V, std::span<V>);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE_COO)
#undef HSPARSE_INSTANTIATE_COO
#define HSPARSE_INSTANTIATE(V, I)                                                             \
  template void ell_spmv(V, const Ell<V, I>&, std::span<const V>, V, std::span<V>);           \
  template void hyb_spmv(V, const Hyb<V, I>&, std::span<const V>, V, std::span<V>);           \
  template void dia_spmv(V, const Dia<V, I>&, std::span<const V>, V, std::span<V>);           \
  template void bcsr_spmv(V, const Bcsr<V, I>&, std::span<const V>, V, std::span<V>);         \
  template void sell_spmv(V, const SellCSigma<V, I>&, std::span<const V>, V, std::span<V>);         \
  template void csr16_spmv<V, V, I>(V, const Csr16<V, I>&, std::span<const V>, V, std::span<V>);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE
#define HSPARSE_INSTANTIATE_CSR16_SINGLE(V, S, I) template void csr16_spmv<V, S, I>(V, const Csr16<S, I>&, std::span<const V>, V, std::span<V>);
HSPARSE_FOR_EACH_DOUBLE_SINGLE_INDEX(HSPARSE_INSTANTIATE_CSR16_SINGLE)
#undef HSPARSE_INSTANTIATE_CSR16_SINGLE

}  // namespace hsparse::reference
