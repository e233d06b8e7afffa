#include "hsparse/formats/csr.hpp"
#include "traits_models.hpp"

#include <string>

#include "hsparse/core/error.hpp"

namespace hsparse {

namespace {
[[noreturn]] void invalid(const std::string& what) {
  throw Error(ErrorCode::invalid_matrix, "CSR: " + what);
}
}  // namespace

template <class V, class I>
void Csr<V, I>::validate() const {
  if (rows < 0 || cols < 0) invalid("negative dimension");
  if (row_ptr.size() != static_cast<std::size_t>(rows) + 1) {
    invalid("row_ptr has " + std::to_string(row_ptr.size()) + " entries, expected rows + 1 = " +
            std::to_string(static_cast<std::size_t>(rows) + 1));
  }
  if (col_idx.size() != values.size()) {
    invalid("col_idx has " + std::to_string(col_idx.size()) + " entries but values has " +
            std::to_string(values.size()));
  }
  if (row_ptr[0] != 0) invalid("row_ptr[0] is " + std::to_string(row_ptr[0]) + ", expected 0");
  if (static_cast<std::size_t>(row_ptr[rows]) != values.size()) {
    invalid("row_ptr[rows] is " + std::to_string(row_ptr[rows]) + " but there are " +
            std::to_string(values.size()) + " nonzeros");
  }
  // Two passes, each parallel over rows, each naming the first bad row (the
  // least index, whatever the threads): row_ptr first, so that the column
  // pass reads only inside [0, nnz) (a row pointer past nnz before a
  // decrease made the one serial pass read past col_idx). Reading a binary
  // matrix file and the CSR16 conversion validate: on the 2-core build VM,
  // 26.5 M entries, the one serial pass took 11.3-12.8 ms, these two 7.1-9.2
  // ms on two threads (17.6-20.6 on one: the price of the safe order).
  const auto first_bad = [this](auto bad_row) {
    long long first = rows;
#pragma omp parallel for schedule(static) reduction(min : first)
    for (long long r = 0; r < static_cast<long long>(rows); ++r) {
      if (r < first && bad_row(static_cast<I>(r))) first = r;
    }
    return static_cast<I>(first);
  };
  const I* const rp = row_ptr.data();
  const I* const ci = col_idx.data();
  const I n_cols = cols;
  const I decreasing = first_bad([rp](I r) { return rp[r + 1] < rp[r]; });
  if (decreasing < rows) invalid("row_ptr decreases at row " + std::to_string(decreasing));
  // Row r's first entry whose column is outside [0, cols) or not above the
  // one before it; row_ptr[r + 1] where there is none.
  const auto fault = [rp, ci, n_cols](I r) {
    const I end = rp[r + 1];
    for (I k = rp[r]; k < end; ++k) {
      if (ci[k] < 0 || ci[k] >= n_cols || (k > rp[r] && ci[k] <= ci[k - 1])) return k;
    }
    return end;
  };
  const I r = first_bad([&](I row) { return fault(row) < rp[row + 1]; });
  if (r == rows) return;
  const I k = fault(r);
  if (col_idx[k] < 0 || col_idx[k] >= cols) {
    invalid("row " + std::to_string(r) + " has column index " + std::to_string(col_idx[k]) + " outside [0, " + std::to_string(cols) + ")");
  }
  invalid("row " + std::to_string(r) + " has column indices not strictly increasing (" + std::to_string(col_idx[k - 1]) + " then " +
          std::to_string(col_idx[k]) + ")");
}

#define HSPARSE_INSTANTIATE(V, I) template struct Csr<V, I>;
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse

namespace hsparse::detail {

// Its row of the format registry (formats/format.hpp): the byte model counts what the conversion above stores.
FormatTraits format_traits_csr() {
  return {Format::csr, "csr", "CSR", "compressed sparse rows (every paper's baseline)", 0, "", {}, false,
          [](const FormatFootprint& f, std::size_t vb, std::size_t ib) { return count(f.nnz) * (vb + ib) + (count(f.rows) + 1) * ib; },
          no_padding, no_shape};
}

}  // namespace hsparse::detail
