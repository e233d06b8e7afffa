// CSR cut into column slabs (kernels/csr_slabs.hpp).
#include "hsparse/kernels/csr_slabs.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"

namespace hsparse {

SlabShape csr_slab_shape(long long cols, std::size_t value_bytes, double cache_bytes, int requested_slabs) {
  if (requested_slabs < 0 || requested_slabs > kMaxSlabs) {
    throw Error(ErrorCode::invalid_argument, "slabs: " + std::to_string(requested_slabs) + " is outside 0 (from the L2 size) .. " +
                                                 std::to_string(kMaxSlabs));
  }
  SlabShape s;
  long long wanted = requested_slabs;
  if (wanted == 0) {
    const double x_bytes = static_cast<double>(std::max(cols, 0LL)) * static_cast<double>(value_bytes);
    wanted = std::max(1LL, static_cast<long long>(std::ceil(x_bytes / std::max(cache_bytes * kSlabCacheShare, 1.0))));
  }
  s.slab_cols = std::max(1LL, (std::max(cols, 0LL) + wanted - 1) / wanted);
  s.slabs = std::max(1LL, (std::max(cols, 0LL) + s.slab_cols - 1) / s.slab_cols);
  return s;
}

template <class V, class I>
std::vector<Csr<V, I>> csr_slabs(const Csr<V, I>& a, const SlabShape& shape) {
  if (shape.slab_cols < 1 || shape.slabs < 1 || shape.slab_cols * shape.slabs < static_cast<long long>(a.cols)) {
    throw Error(ErrorCode::invalid_argument, "CSR slabs: " + std::to_string(shape.slabs) + " slabs of " + std::to_string(shape.slab_cols) +
                                                 " columns do not cover " + std::to_string(a.cols) + " columns");
  }
  const auto slabs = static_cast<std::size_t>(shape.slabs);
  const long long rows = a.rows;
  std::vector<Csr<V, I>> out(slabs);
  // Pass 1: each slab's row lengths; pass 2: the entries, in row order.
  for (auto& s : out) {
    s.rows = a.rows;
    s.cols = a.cols;
    s.row_ptr.assign(static_cast<std::size_t>(rows) + 1, I(0));
  }
#pragma omp parallel for schedule(static)
  for (long long r = 0; r < rows; ++r) {
    for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) ++out[static_cast<std::size_t>(a.col_idx[k] / shape.slab_cols)].row_ptr[r + 1];
  }
  for (auto& s : out) {
    for (long long r = 0; r < rows; ++r) s.row_ptr[r + 1] += s.row_ptr[r];  // no overflow: each is a part of a.nnz()
    s.col_idx.resize(static_cast<std::size_t>(s.row_ptr[rows]));
    s.values.resize(static_cast<std::size_t>(s.row_ptr[rows]));
  }
#pragma omp parallel for schedule(static)
  for (long long r = 0; r < rows; ++r) {
    std::vector<I> fill(slabs);
    for (std::size_t s = 0; s < slabs; ++s) fill[s] = out[s].row_ptr[r];
    for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const auto s = static_cast<std::size_t>(a.col_idx[k] / shape.slab_cols);
      const auto at = static_cast<std::size_t>(fill[s]++);
      out[s].col_idx[at] = a.col_idx[k];
      out[s].values[at] = a.values[k];
    }
  }
  return out;
}

#define HSPARSE_INSTANTIATE(V, I) template std::vector<Csr<V, I>> csr_slabs(const Csr<V, I>&, const SlabShape&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
