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

namespace {

// The first entry of [first, last) at or past column `boundary` (columns increase within a row).
template <class I>
const I* first_at_or_past(const I* first, const I* last, long long boundary) {
  return std::lower_bound(first, last, boundary, [](I c, long long b) { return static_cast<long long>(c) < b; });
}

}  // namespace

template <class V, class I>
std::vector<std::vector<I>> csr_slab_row_ptrs(const Csr<V, I>& a, const SlabShape& shape) {
  if (shape.slab_cols < 1 || shape.slabs < 1 || shape.slabs > kMaxSlabs || shape.slab_cols * shape.slabs < static_cast<long long>(a.cols)) {
    throw Error(ErrorCode::invalid_argument, "CSR slabs: " + std::to_string(shape.slabs) + " slabs of " + std::to_string(shape.slab_cols) +
                                                 " columns do not cover " + std::to_string(a.cols) + " columns");
  }
  const auto slabs = static_cast<std::size_t>(shape.slabs);
  const long long rows = a.rows;
  std::vector<std::vector<I>> ptr(slabs, std::vector<I>(static_cast<std::size_t>(rows) + 1, I(0)));
  // Each row's length in each slab at ptr[s][r + 1], then a scan per slab
  // (no overflow: every prefix is a part of a.nnz(), which I holds).
#pragma omp parallel for schedule(static)
  for (long long r = 0; r < rows; ++r) {
    const I* const row = a.col_idx.data();
    const I* p = row + a.row_ptr[r];
    const I* const end = row + a.row_ptr[r + 1];
    for (std::size_t s = 0; s < slabs; ++s) {
      const I* q = s + 1 == slabs ? end : first_at_or_past(p, end, static_cast<long long>(s + 1) * shape.slab_cols);
      ptr[s][static_cast<std::size_t>(r) + 1] = static_cast<I>(q - p);
      p = q;
    }
  }
#pragma omp parallel for schedule(static)
  for (std::size_t s = 0; s < slabs; ++s) {
    for (long long r = 0; r < rows; ++r) ptr[s][static_cast<std::size_t>(r) + 1] += ptr[s][static_cast<std::size_t>(r)];
  }
  return ptr;
}

template <class V, class I>
std::vector<Csr<V, I>> csr_slabs(const Csr<V, I>& a, const SlabShape& shape) {
  std::vector<std::vector<I>> ptr = csr_slab_row_ptrs(a, shape);
  const std::size_t slabs = ptr.size();
  const long long rows = a.rows;
  std::vector<Csr<V, I>> out(slabs);
  for (std::size_t s = 0; s < slabs; ++s) {
    out[s].rows = a.rows;
    out[s].cols = a.cols;
    out[s].row_ptr = std::move(ptr[s]);
    out[s].col_idx.resize(static_cast<std::size_t>(out[s].row_ptr.back()));
    out[s].values.resize(static_cast<std::size_t>(out[s].row_ptr.back()));
  }
  // Every row's slab segments, in order: slab s's part of row r is the next
  // row_ptr[r + 1] - row_ptr[r] entries of the row.
#pragma omp parallel for schedule(static)
  for (long long r = 0; r < rows; ++r) {
    auto k = static_cast<std::size_t>(a.row_ptr[r]);
    for (auto& slab : out) {
      const auto at = static_cast<std::size_t>(slab.row_ptr[r]), n = static_cast<std::size_t>(slab.row_ptr[r + 1]) - at;
      std::copy_n(a.col_idx.begin() + static_cast<std::ptrdiff_t>(k), n, slab.col_idx.begin() + static_cast<std::ptrdiff_t>(at));
      std::copy_n(a.values.begin() + static_cast<std::ptrdiff_t>(k), n, slab.values.begin() + static_cast<std::ptrdiff_t>(at));
      k += n;
    }
  }
  return out;
}

#define HSPARSE_INSTANTIATE(V, I)                                                                  \
  template std::vector<std::vector<I>> csr_slab_row_ptrs(const Csr<V, I>&, const SlabShape&); \
  template std::vector<Csr<V, I>> csr_slabs(const Csr<V, I>&, const SlabShape&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
