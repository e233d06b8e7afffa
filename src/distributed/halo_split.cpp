// A rank's rows split into local and remote parts (distributed/halo_split.hpp).
#include "hsparse/distributed/halo_split.hpp"

#include <algorithm>
#include <string>

#include "hsparse/core/error.hpp"

namespace hsparse::distributed {

namespace {

template <class I>
void require_fits(std::int64_t value, const char* what) {
  if (value < 0 || !fits_index<I>(static_cast<std::uint64_t>(value))) {
    throw Error(ErrorCode::overflow, std::string("halo split: ") + what + " (" + std::to_string(value) + ") does not fit the index type (" +
                                         std::to_string(sizeof(I) * 8) + "-bit)");
  }
}

}  // namespace

template <class V>
Csr<V, std::int64_t> row_block(const Csr<V, std::int64_t>& a, std::int64_t begin, std::int64_t end) {
  if (begin < 0 || end < begin || end > a.rows) {
    throw Error(ErrorCode::invalid_argument, "row block [" + std::to_string(begin) + ", " + std::to_string(end) + ") of a matrix of " +
                                                 std::to_string(a.rows) + " rows");
  }
  Csr<V, std::int64_t> part;
  part.rows = end - begin;
  part.cols = a.cols;
  const std::int64_t k0 = a.row_ptr[static_cast<std::size_t>(begin)], k1 = a.row_ptr[static_cast<std::size_t>(end)];
  part.row_ptr.assign(a.row_ptr.begin() + begin, a.row_ptr.begin() + end + 1);
  for (std::int64_t& k : part.row_ptr) k -= k0;
  part.col_idx.assign(a.col_idx.begin() + k0, a.col_idx.begin() + k1);
  part.values.assign(a.values.begin() + k0, a.values.begin() + k1);
  return part;
}

template <class V, class I>
HaloSplit<V, I> split_by_owner(const Csr<V, std::int64_t>& rows, const RowPartition& columns, int rank) {
  columns.validate();
  if (rank < 0 || rank >= columns.ranks()) {
    throw Error(ErrorCode::invalid_argument, "halo split: rank " + std::to_string(rank) + " is not in the partition's " +
                                                 std::to_string(columns.ranks()) + " ranks");
  }
  if (rows.cols != columns.rows()) {
    throw Error(ErrorCode::invalid_argument, "halo split: the rows have " + std::to_string(rows.cols) + " columns, the column partition " +
                                                 std::to_string(columns.rows()));
  }
  rows.validate();
  const std::int64_t first = columns.begin(rank), last = first + columns.size(rank);
  const auto owned = [&](std::int64_t c) { return c >= first && c < last; };

  HaloSplit<V, I> s;
  // The ghost columns, sorted: with contiguous blocks, sorted by global
  // index is grouped by owner, each owner's piece in increasing order.
  for (std::int64_t c : rows.col_idx) {
    if (!owned(c)) s.ghost_columns.push_back(c);
  }
  std::sort(s.ghost_columns.begin(), s.ghost_columns.end());
  s.ghost_columns.erase(std::unique(s.ghost_columns.begin(), s.ghost_columns.end()), s.ghost_columns.end());
  s.ghost_offsets.resize(static_cast<std::size_t>(columns.ranks()) + 1);
  for (int r = 0; r <= columns.ranks(); ++r) {
    const std::int64_t bound = r < columns.ranks() ? columns.begin(r) : columns.rows();
    s.ghost_offsets[static_cast<std::size_t>(r)] =
        std::lower_bound(s.ghost_columns.begin(), s.ghost_columns.end(), bound) - s.ghost_columns.begin();
  }

  std::int64_t local_nnz = 0;
  for (std::int64_t c : rows.col_idx) local_nnz += owned(c) ? 1 : 0;
  const auto remote_nnz = static_cast<std::int64_t>(rows.nnz()) - local_nnz;
  require_fits<I>(rows.rows, "the rank's rows");
  require_fits<I>(last - first, "the rank's columns");
  require_fits<I>(static_cast<std::int64_t>(s.ghost_columns.size()), "the ghost columns");
  require_fits<I>(local_nnz, "the local part's entries");
  require_fits<I>(remote_nnz, "the remote part's entries");

  s.local.rows = s.remote.rows = static_cast<I>(rows.rows);
  s.local.cols = static_cast<I>(last - first);
  s.remote.cols = static_cast<I>(s.ghost_columns.size());
  s.local.row_ptr.assign(static_cast<std::size_t>(rows.rows) + 1, 0);
  s.remote.row_ptr.assign(static_cast<std::size_t>(rows.rows) + 1, 0);
  s.local.col_idx.reserve(static_cast<std::size_t>(local_nnz));
  s.local.values.reserve(static_cast<std::size_t>(local_nnz));
  s.remote.col_idx.reserve(static_cast<std::size_t>(remote_nnz));
  s.remote.values.reserve(static_cast<std::size_t>(remote_nnz));
  for (std::int64_t i = 0; i < rows.rows; ++i) {
    for (std::int64_t k = rows.row_ptr[static_cast<std::size_t>(i)]; k < rows.row_ptr[static_cast<std::size_t>(i) + 1]; ++k) {
      const std::int64_t c = rows.col_idx[static_cast<std::size_t>(k)];
      const V v = rows.values[static_cast<std::size_t>(k)];
      if (owned(c)) {
        s.local.col_idx.push_back(static_cast<I>(c - first));
        s.local.values.push_back(v);
      } else {
        const auto g = std::lower_bound(s.ghost_columns.begin(), s.ghost_columns.end(), c) - s.ghost_columns.begin();
        s.remote.col_idx.push_back(static_cast<I>(g));
        s.remote.values.push_back(v);
      }
    }
    s.local.row_ptr[static_cast<std::size_t>(i) + 1] = static_cast<I>(s.local.col_idx.size());
    s.remote.row_ptr[static_cast<std::size_t>(i) + 1] = static_cast<I>(s.remote.col_idx.size());
  }
  return s;
}

#define HSPARSE_INSTANTIATE(V, I) template HaloSplit<V, I> split_by_owner(const Csr<V, std::int64_t>&, const RowPartition&, int);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE
#define HSPARSE_INSTANTIATE(V) template Csr<V, std::int64_t> row_block(const Csr<V, std::int64_t>&, std::int64_t, std::int64_t);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::distributed
