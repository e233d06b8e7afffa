// The graph partitioner's cut (distributed/graph_partition.hpp).
#include "hsparse/distributed/graph_partition.hpp"

#include <algorithm>
#include <complex>
#include <limits>
#include <numeric>
#include <string>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"

#ifdef HSPARSE_HAVE_METIS
#include <metis.h>
#endif

namespace hsparse::distributed {

bool built_with_metis() noexcept {
#ifdef HSPARSE_HAVE_METIS
  return true;
#else
  return false;
#endif
}

template <class V>
GraphCut metis_cut(const Csr<V, std::int64_t>& a, int parts) {
  a.validate();
  if (a.rows != a.cols) throw Error(ErrorCode::invalid_argument, "metis_cut: a graph cut needs a square matrix, not " + std::to_string(a.rows) + " x " + std::to_string(a.cols));
  if (parts < 1) throw Error(ErrorCode::invalid_argument, "metis_cut: parts must be >= 1, got " + std::to_string(parts));
  std::vector<std::int64_t> part(static_cast<std::size_t>(a.rows), 0);
#ifdef HSPARSE_HAVE_METIS
  if (parts > 1 && a.rows > 0) {
    // The graph of A + A^T without the diagonal: each row's columns and the
    // rows that name it, merged.
    const auto n = static_cast<std::size_t>(a.rows);
    std::vector<std::vector<std::int64_t>> adj(n);
    for (std::size_t i = 0; i < n; ++i) {
      for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
        const auto j = static_cast<std::size_t>(a.col_idx[static_cast<std::size_t>(k)]);
        if (j == i) continue;
        adj[i].push_back(static_cast<std::int64_t>(j));
        adj[j].push_back(static_cast<std::int64_t>(i));
      }
    }
    std::uint64_t edges = 0;
    for (auto& list : adj) {
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
      edges += list.size();
    }
    if (n > static_cast<std::uint64_t>(std::numeric_limits<idx_t>::max()) || edges > static_cast<std::uint64_t>(std::numeric_limits<idx_t>::max())) {
      throw Error(ErrorCode::overflow, "metis_cut: a graph of " + std::to_string(n) + " vertices and " + std::to_string(edges) +
                                           " edge ends exceeds METIS's " + std::to_string(sizeof(idx_t) * 8) + "-bit indices");
    }
    std::vector<idx_t> xadj{0}, adjncy, vwgt, where(n);
    xadj.reserve(n + 1);
    adjncy.reserve(edges);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::int64_t j : adj[i]) adjncy.push_back(static_cast<idx_t>(j));
      xadj.push_back(static_cast<idx_t>(adjncy.size()));
      // A vertex weighs its row's nonzeros (at least 1): the parts balance the product's work.
      vwgt.push_back(static_cast<idx_t>(std::max<std::int64_t>(1, a.row_ptr[i + 1] - a.row_ptr[i])));
    }
    idx_t nv = static_cast<idx_t>(n), ncon = 1, np = parts, objval = 0;
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = 1;  // the same cut on every run
    const int status = METIS_PartGraphKway(&nv, &ncon, xadj.data(), adjncy.data(), vwgt.data(), nullptr, nullptr, &np, nullptr, nullptr, options,
                                           &objval, where.data());
    if (status != METIS_OK) throw Error(ErrorCode::internal, "METIS_PartGraphKway failed (status " + std::to_string(status) + ")");
    for (std::size_t i = 0; i < n; ++i) part[i] = where[i];
  }
#else
  if (parts > 1) throw Error(ErrorCode::unsupported, "metis_cut: this hsparse was built without METIS (install libmetis-dev: scripts/install-deps.sh)");
#endif
  GraphCut cut;
  cut.partition.offsets.assign(static_cast<std::size_t>(parts) + 1, 0);
  for (std::int64_t p : part) ++cut.partition.offsets[static_cast<std::size_t>(p) + 1];
  for (int r = 0; r < parts; ++r) cut.partition.offsets[static_cast<std::size_t>(r) + 1] += cut.partition.offsets[static_cast<std::size_t>(r)];
  cut.order.resize(part.size());
  std::vector<std::int64_t> next(cut.partition.offsets.begin(), cut.partition.offsets.end() - 1);
  for (std::size_t i = 0; i < part.size(); ++i) cut.order[static_cast<std::size_t>(next[static_cast<std::size_t>(part[i])]++)] = static_cast<std::int64_t>(i);
  return cut;
}

template <class V>
Csr<V, std::int64_t> permute_symmetric(const Csr<V, std::int64_t>& a, const std::vector<std::int64_t>& order) {
  const auto n = static_cast<std::size_t>(a.rows);
  if (a.rows != a.cols || order.size() != n) {
    throw Error(ErrorCode::invalid_argument, "permute_symmetric: a square matrix and one entry per row (" + std::to_string(order.size()) + " for " +
                                                 std::to_string(a.rows) + " x " + std::to_string(a.cols) + ")");
  }
  std::vector<std::int64_t> inverse(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    const auto o = order[i];
    if (o < 0 || o >= a.rows || inverse[static_cast<std::size_t>(o)] >= 0) {
      throw Error(ErrorCode::invalid_argument, "permute_symmetric: order is not a permutation (entry " + std::to_string(i) + " = " + std::to_string(o) + ")");
    }
    inverse[static_cast<std::size_t>(o)] = static_cast<std::int64_t>(i);
  }
  Csr<V, std::int64_t> b;
  b.rows = b.cols = a.rows;
  b.row_ptr.reserve(n + 1);
  b.col_idx.reserve(a.nnz());
  b.values.reserve(a.nnz());
  std::vector<std::pair<std::int64_t, V>> row;
  for (std::size_t i = 0; i < n; ++i) {
    const auto o = static_cast<std::size_t>(order[i]);
    row.clear();
    for (auto k = a.row_ptr[o]; k < a.row_ptr[o + 1]; ++k) {
      row.emplace_back(inverse[static_cast<std::size_t>(a.col_idx[static_cast<std::size_t>(k)])], a.values[static_cast<std::size_t>(k)]);
    }
    std::sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& [c, v] : row) {
      b.col_idx.push_back(c);
      b.values.push_back(v);
    }
    b.row_ptr.push_back(static_cast<std::int64_t>(b.col_idx.size()));
  }
  return b;
}

template <class V>
CutCost cut_cost(const Csr<V, std::int64_t>& a, const RowPartition& p) {
  p.validate();
  if (p.rows() != a.rows || a.rows != a.cols) throw Error(ErrorCode::invalid_argument, "cut_cost: the partition must cover the square matrix's rows");
  CutCost c;
  std::vector<std::int64_t> seen(static_cast<std::size_t>(a.cols), -1);  // the last rank that counted column j as a ghost
  for (int r = 0; r < p.ranks(); ++r) {
    for (std::int64_t i = p.begin(r); i < p.begin(r) + p.size(r); ++i) {
      for (auto k = a.row_ptr[static_cast<std::size_t>(i)]; k < a.row_ptr[static_cast<std::size_t>(i) + 1]; ++k) {
        const std::int64_t j = a.col_idx[static_cast<std::size_t>(k)];
        if (j >= p.begin(r) && j < p.begin(r) + p.size(r)) continue;
        ++c.cut_nonzeros;
        if (seen[static_cast<std::size_t>(j)] != r) {
          seen[static_cast<std::size_t>(j)] = r;
          ++c.halo_volume;
        }
      }
    }
  }
  return c;
}

#define HSPARSE_INSTANTIATE(V)                                                                              \
  template GraphCut metis_cut(const Csr<V, std::int64_t>&, int);                                            \
  template Csr<V, std::int64_t> permute_symmetric(const Csr<V, std::int64_t>&, const std::vector<std::int64_t>&); \
  template CutCost cut_cost(const Csr<V, std::int64_t>&, const RowPartition&);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::distributed
