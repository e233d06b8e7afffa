#include "hsparse/formats/csr.hpp"

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
  for (I r = 0; r < rows; ++r) {
    if (row_ptr[r + 1] < row_ptr[r]) {
      invalid("row_ptr decreases at row " + std::to_string(r));
    }
    for (I k = row_ptr[r]; k < row_ptr[r + 1]; ++k) {
      if (col_idx[k] < 0 || col_idx[k] >= cols) {
        invalid("row " + std::to_string(r) + " has column index " + std::to_string(col_idx[k]) +
                " outside [0, " + std::to_string(cols) + ")");
      }
      if (k > row_ptr[r] && col_idx[k] <= col_idx[k - 1]) {
        invalid("row " + std::to_string(r) + " has column indices not strictly increasing (" +
                std::to_string(col_idx[k - 1]) + " then " + std::to_string(col_idx[k]) + ")");
      }
    }
  }
}

#define HSPARSE_INSTANTIATE(V, I) template struct Csr<V, I>;
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
