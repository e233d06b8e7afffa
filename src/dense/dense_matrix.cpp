// Shape checks of dense matrices (dense/dense_matrix.hpp).
#include "hsparse/dense/dense_matrix.hpp"

#include <limits>

namespace hsparse {

void check_dense_shape(long long rows, long long cols, long long ld, const std::string& what) {
  if (rows < 0 || cols < 0) {
    throw Error(ErrorCode::invalid_argument, what + ": negative size " + std::to_string(rows) + " x " + std::to_string(cols));
  }
  if (ld < std::max(1LL, rows)) {
    throw Error(ErrorCode::invalid_argument, what + ": leading dimension " + std::to_string(ld) + " < rows " + std::to_string(rows));
  }
  if (cols > 0 && ld > std::numeric_limits<long long>::max() / 16 / cols) {
    throw Error(ErrorCode::overflow, what + ": " + std::to_string(ld) + " x " + std::to_string(cols) + " entries overflow");
  }
}

}  // namespace hsparse
