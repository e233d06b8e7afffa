#include "hsparse/formats/convert.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

#include "hsparse/core/error.hpp"
#include "hsparse/core/host_system.hpp"

namespace hsparse {

namespace {

// Sorts one row's entries by column and sums repeats, in place.
// Returns the row's new length.
template <class V, class I>
std::size_t sort_and_merge_row(I* cols, V* vals, std::size_t n,
                               std::vector<std::pair<I, V>>& scratch) {
  bool sorted = true;
  for (std::size_t k = 1; k < n && sorted; ++k) sorted = cols[k - 1] < cols[k];
  if (sorted) return n;
  scratch.resize(n);
  for (std::size_t k = 0; k < n; ++k) scratch[k] = {cols[k], vals[k]};
  // Stable, so repeated entries are summed in file order (deterministic rounding).
  std::stable_sort(scratch.begin(), scratch.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::size_t out = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (out > 0 && cols[out - 1] == scratch[k].first) {
      vals[out - 1] += scratch[k].second;
    } else {
      cols[out] = scratch[k].first;
      vals[out] = scratch[k].second;
      ++out;
    }
  }
  return out;
}

// Bytes as a double (no size_t overflow for absurd sizes), saturated.
std::size_t saturated_bytes(double bytes) {
  return bytes >= 1.8e19 ? std::numeric_limits<std::size_t>::max() : static_cast<std::size_t>(bytes);
}

}  // namespace

template <class V, class I>
Csr<V, I> coo_to_csr(const Coo<V, I>& coo) {
  coo.validate();
  const std::size_t nnz = coo.nnz();
  if (!fits_index<I>(nnz)) {
    throw Error(ErrorCode::overflow, std::to_string(nnz) + " nonzeros overflow " +
                                         type_name<I>() + " row offsets");
  }
  const auto rows = static_cast<std::size_t>(coo.rows);
  // A valid COO of few entries can name billions of rows (a 3e9 x 2 file
  // with one entry): the row offsets alone may not fit, so check first.
  require_host_memory(saturated_bytes(static_cast<double>(rows + 1) * sizeof(I) * 2 + static_cast<double>(nnz) * (sizeof(I) + sizeof(V))),
                      "CSR of " + std::to_string(rows) + " rows and " + std::to_string(nnz) + " entries");
  Csr<V, I> csr;
  csr.rows = coo.rows;
  csr.cols = coo.cols;
  csr.row_ptr.assign(rows + 1, 0);
  for (std::size_t k = 0; k < nnz; ++k) ++csr.row_ptr[static_cast<std::size_t>(coo.row_idx[k]) + 1];
  std::partial_sum(csr.row_ptr.begin(), csr.row_ptr.end(), csr.row_ptr.begin());
  csr.col_idx.resize(nnz);
  csr.values.resize(nnz);
  {
    std::vector<I> next(csr.row_ptr.begin(), csr.row_ptr.end() - 1);
    for (std::size_t k = 0; k < nnz; ++k) {
      const I dest = next[static_cast<std::size_t>(coo.row_idx[k])]++;
      csr.col_idx[dest] = coo.col_idx[k];
      csr.values[dest] = coo.values[k];
    }
  }
  std::vector<I> new_length(rows, 0);
  bool merged = false;
#pragma omp parallel reduction(|| : merged)
  {
    std::vector<std::pair<I, V>> scratch;
#pragma omp for schedule(dynamic, 1024)
    for (std::size_t r = 0; r < rows; ++r) {
      const std::size_t begin = csr.row_ptr[r], n = csr.row_ptr[r + 1] - csr.row_ptr[r];
      const std::size_t len =
          sort_and_merge_row(csr.col_idx.data() + begin, csr.values.data() + begin, n, scratch);
      new_length[r] = static_cast<I>(len);
      merged = merged || (len != n);
    }
  }
  if (merged) {  // compact away the slots freed by summed duplicates
    std::vector<I> ptr(rows + 1, 0);
    for (std::size_t r = 0; r < rows; ++r) ptr[r + 1] = ptr[r] + new_length[r];
    std::vector<I> cols(static_cast<std::size_t>(ptr[rows]));
    std::vector<V> vals(static_cast<std::size_t>(ptr[rows]));
#pragma omp parallel for schedule(static)
    for (std::size_t r = 0; r < rows; ++r) {
      std::copy_n(csr.col_idx.begin() + csr.row_ptr[r], new_length[r], cols.begin() + ptr[r]);
      std::copy_n(csr.values.begin() + csr.row_ptr[r], new_length[r], vals.begin() + ptr[r]);
    }
    csr.row_ptr = std::move(ptr);
    csr.col_idx = std::move(cols);
    csr.values = std::move(vals);
  }
  return csr;
}

template <class V, class I>
Coo<V, I> csr_to_coo(const Csr<V, I>& csr) {
  Coo<V, I> coo;
  coo.rows = csr.rows;
  coo.cols = csr.cols;
  coo.row_idx.resize(csr.nnz());
  coo.col_idx = csr.col_idx;
  coo.values = csr.values;
#pragma omp parallel for schedule(static)
  for (I r = 0; r < csr.rows; ++r) {
    std::fill(coo.row_idx.begin() + csr.row_ptr[r], coo.row_idx.begin() + csr.row_ptr[r + 1], r);
  }
  return coo;
}

template <class V, class I>
Csr<V, I> transpose(const Csr<V, I>& a, bool conjugate) {
  Csr<V, I> t;
  t.rows = a.cols;
  t.cols = a.rows;
  require_host_memory(saturated_bytes((static_cast<double>(a.cols) + 1) * sizeof(I) * 2 + static_cast<double>(a.nnz()) * (sizeof(I) + sizeof(V))),
                      "the transpose of a " + std::to_string(a.rows) + " x " + std::to_string(a.cols) + " matrix");
  t.row_ptr.assign(static_cast<std::size_t>(a.cols) + 1, 0);
  for (std::size_t k = 0; k < a.nnz(); ++k) ++t.row_ptr[static_cast<std::size_t>(a.col_idx[k]) + 1];
  std::partial_sum(t.row_ptr.begin(), t.row_ptr.end(), t.row_ptr.begin());
  t.col_idx.resize(a.nnz());
  t.values.resize(a.nnz());
  std::vector<I> next(t.row_ptr.begin(), t.row_ptr.end() - 1);
  // Rows visited in order, so each transposed row comes out sorted.
  for (I r = 0; r < a.rows; ++r) {
    for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const I dest = next[static_cast<std::size_t>(a.col_idx[k])]++;
      t.col_idx[dest] = r;
      t.values[dest] = conjugate ? conj_value(a.values[k]) : a.values[k];
    }
  }
  return t;
}

#define HSPARSE_INSTANTIATE(V, I)                          \
  template Csr<V, I> coo_to_csr(const Coo<V, I>&);         \
  template Coo<V, I> csr_to_coo(const Csr<V, I>&);         \
  template Csr<V, I> transpose(const Csr<V, I>&, bool);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
