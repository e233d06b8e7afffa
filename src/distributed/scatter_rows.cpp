// A matrix read by one rank, sent out in row blocks (distributed/scatter_rows.hpp).
#include "hsparse/distributed/scatter_rows.hpp"

#include <algorithm>
#include <functional>
#include <complex>
#include <string>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/distributed/halo_split.hpp"

namespace hsparse::distributed {

namespace {

constexpr std::size_t kPieceBytes = std::size_t{1} << 30;

// The messages that move `bytes` at `data` to or from `peer`, in pieces
// both sides cut alike.
void add_pieces(std::vector<CommMessage>& list, int peer, void* data, std::size_t bytes) {
  auto* p = static_cast<unsigned char*>(data);
  for (std::size_t at = 0; at < bytes; at += kPieceBytes) list.push_back({peer, p + at, std::min(kPieceBytes, bytes - at)});
}

}  // namespace

// The scatter under the cut the root computes (on the root only; its
// failure fails every rank).
template <class V>
RankRows<V> scatter_rows_by(const Communicator& comm, const Csr<V, std::int64_t>& whole, int root, const std::function<RowPartition()>& cut_on_root);

template <class V>
RankRows<V> scatter_rows(const Communicator& comm, const Csr<V, std::int64_t>& whole, RowCut cut, int root, const std::vector<double>& weights) {
  // The root's cut, then the one scatter.
  return scatter_rows_by(comm, whole, root, [&] {
    if (!weights.empty() && (cut != RowCut::nonzeros || weights.size() != static_cast<std::size_t>(comm.size()))) {
      throw Error(ErrorCode::invalid_argument, "scatter_rows: " + std::to_string(weights.size()) + " weights for " + std::to_string(comm.size()) +
                                                   " ranks (weights cut the nonzeros, one per rank)");
    }
    return cut == RowCut::rows ? contiguous_rows(whole.rows, comm.size())
           : weights.empty()   ? weighted_rows(whole.row_ptr, std::vector<double>(static_cast<std::size_t>(comm.size()), 1.0))
                               : weighted_rows(whole.row_ptr, weights);
  });
}

template <class V>
RankRows<V> scatter_rows(const Communicator& comm, const Csr<V, std::int64_t>& whole, const RowPartition& partition, int root) {
  return scatter_rows_by(comm, whole, root, [&] {
    partition.validate();
    if (partition.ranks() != comm.size() || partition.rows() != whole.rows) {
      throw Error(ErrorCode::invalid_argument, "scatter_rows: a partition of " + std::to_string(partition.rows()) + " rows over " +
                                                   std::to_string(partition.ranks()) + " ranks for " + std::to_string(whole.rows) + " rows over " +
                                                   std::to_string(comm.size()));
    }
    return partition;
  });
}

template <class V>
RankRows<V> scatter_rows_by(const Communicator& comm, const Csr<V, std::int64_t>& whole, int root, const std::function<RowPartition()>& cut_on_root) {
  const int ranks = comm.size(), me = comm.rank();
  if (root < 0 || root >= ranks) throw Error(ErrorCode::invalid_argument, "scatter_rows: root " + std::to_string(root) + " is not a rank");
  // The root's sizes, cut and nonzeros per rank, sent to all as maxima
  // (the others offer zeros): [rows, cols, offsets (ranks + 1), nnz per rank].
  std::vector<std::int64_t> head(static_cast<std::size_t>(2 * ranks + 3), 0);
  std::string problem;
  if (me == root) {
    try {
      whole.validate();
      const RowPartition p = cut_on_root();
      head[0] = whole.rows;
      head[1] = whole.cols;
      for (int r = 0; r <= ranks; ++r) head[static_cast<std::size_t>(2 + r)] = p.offsets[static_cast<std::size_t>(r)];
      for (int r = 0; r < ranks; ++r) {
        head[static_cast<std::size_t>(3 + ranks + r)] =
            whole.row_ptr[static_cast<std::size_t>(p.offsets[static_cast<std::size_t>(r) + 1])] - whole.row_ptr[static_cast<std::size_t>(p.offsets[static_cast<std::size_t>(r)])];
      }
    } catch (const std::exception& e) {
      problem = e.what();
    }
  }
  agree_on_failure(comm, problem);
  comm.allreduce_max(head.data(), head.size());
  RankRows<V> out;
  out.global_cols = head[1];
  out.partition.offsets.assign(head.begin() + 2, head.begin() + 3 + ranks);
  const std::int64_t my_rows = out.partition.size(me), my_nnz = head[static_cast<std::size_t>(3 + ranks + me)];

  std::vector<CommMessage> sends, receives;
  // The root's pieces for the others: row pointers rebased to 0, columns, values.
  std::vector<std::vector<std::int64_t>> pointers;
  if (me == root) {
    pointers.resize(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) {
      if (r == root) continue;
      const auto first = out.partition.begin(r), count = out.partition.size(r);
      const auto base = whole.row_ptr[static_cast<std::size_t>(first)];
      auto& ptr = pointers[static_cast<std::size_t>(r)];
      for (std::int64_t i = 0; i <= count; ++i) ptr.push_back(whole.row_ptr[static_cast<std::size_t>(first + i)] - base);
      const auto nnz = static_cast<std::size_t>(head[static_cast<std::size_t>(3 + ranks + r)]);
      add_pieces(sends, r, ptr.data(), ptr.size() * sizeof(std::int64_t));
      add_pieces(sends, r, const_cast<std::int64_t*>(whole.col_idx.data() + base), nnz * sizeof(std::int64_t));
      add_pieces(sends, r, const_cast<V*>(whole.values.data() + base), nnz * sizeof(V));
    }
    out.rows = row_block(whole, out.partition.begin(me), out.partition.begin(me) + my_rows);
  } else {
    out.rows.rows = my_rows;
    out.rows.cols = out.global_cols;
    out.rows.row_ptr.resize(static_cast<std::size_t>(my_rows) + 1);
    out.rows.col_idx.resize(static_cast<std::size_t>(my_nnz));
    out.rows.values.resize(static_cast<std::size_t>(my_nnz));
    add_pieces(receives, root, out.rows.row_ptr.data(), out.rows.row_ptr.size() * sizeof(std::int64_t));
    add_pieces(receives, root, out.rows.col_idx.data(), out.rows.col_idx.size() * sizeof(std::int64_t));
    add_pieces(receives, root, out.rows.values.data(), out.rows.values.size() * sizeof(V));
  }
  comm.start_exchange(sends, receives)->wait();
  return out;
}

#define HSPARSE_INSTANTIATE(V)                                                                                                 \
  template RankRows<V> scatter_rows(const Communicator&, const Csr<V, std::int64_t>&, RowCut, int, const std::vector<double>&); \
  template RankRows<V> scatter_rows(const Communicator&, const Csr<V, std::int64_t>&, const RowPartition&, int);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::distributed
