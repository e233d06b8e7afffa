#include "hsparse/formats/coo.hpp"
#include "traits_models.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "hsparse/core/error.hpp"
#include "hsparse/formats/convert.hpp"

namespace hsparse {

template <class V, class I>
void Coo<V, I>::validate() const {
  if (rows < 0 || cols < 0) throw Error(ErrorCode::invalid_matrix, "COO: negative dimension");
  if (row_idx.size() != values.size() || col_idx.size() != values.size()) {
    throw Error(ErrorCode::invalid_matrix, "COO: row, column and value arrays differ in length (" +
                                               std::to_string(row_idx.size()) + ", " +
                                               std::to_string(col_idx.size()) + ", " +
                                               std::to_string(values.size()) + ")");
  }
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (row_idx[k] < 0 || row_idx[k] >= rows || col_idx[k] < 0 || col_idx[k] >= cols) {
      throw Error(ErrorCode::invalid_matrix,
                  "COO: entry " + std::to_string(k) + " at (" + std::to_string(row_idx[k]) + ", " +
                      std::to_string(col_idx[k]) + ") is outside the " + std::to_string(rows) +
                      "x" + std::to_string(cols) + " matrix");
    }
  }
}

template <class V, class I>
bool Coo<V, I>::is_canonical() const {
  for (std::size_t k = 1; k < values.size(); ++k) {
    if (row_idx[k - 1] > row_idx[k] ||
        (row_idx[k - 1] == row_idx[k] && col_idx[k - 1] >= col_idx[k])) {
      return false;
    }
  }
  return true;
}

template <class V, class I>
void Coo<V, I>::canonicalize() {
  *this = csr_to_coo(coo_to_csr(*this));
}

#define HSPARSE_INSTANTIATE(V, I) template struct Coo<V, I>;
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse

namespace hsparse::detail {

// Its row of the format registry (formats/format.hpp): the byte model counts what the conversion above stores.
FormatTraits format_traits_coo() {
  return {Format::coo, "coo", "COO", "coordinate triplets sorted by row (Owens lecture, COO; segmented reduction)", 0, "", {}, true,
          [](const FormatFootprint& f, std::size_t vb, std::size_t ib) { return count(f.nnz) * (vb + 2 * ib); }, no_padding, no_shape};
}

}  // namespace hsparse::detail
