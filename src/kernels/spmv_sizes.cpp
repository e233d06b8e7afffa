// The size check every SpMV entry point shares (kernels/csr_spmv.hpp).
#include <string>

#include "hsparse/core/error.hpp"
#include "hsparse/kernels/csr_spmv.hpp"

namespace hsparse {

void check_spmv_dimensions(std::int64_t rows, std::int64_t cols, std::size_t x_size, std::size_t y_size) {
  if (x_size != static_cast<std::size_t>(cols) || y_size != static_cast<std::size_t>(rows)) {
    throw Error(ErrorCode::invalid_argument,
                "SpMV size mismatch: A is " + std::to_string(rows) + "x" + std::to_string(cols) +
                    ", x has " + std::to_string(x_size) + " entries, y has " + std::to_string(y_size));
  }
}

}  // namespace hsparse
