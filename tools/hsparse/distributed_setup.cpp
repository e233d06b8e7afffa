// What the distributed commands share (distributed_setup.hpp).
#include "distributed_setup.hpp"

#include <cstdio>
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "hsparse/core/error.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/distributed/rank_speed.hpp"
#include "hsparse/distributed/graph_partition.hpp"
#include "default_vector.hpp"
#include "option_checks.hpp"

namespace hsparse::tool {

using distributed::DistributedSpmv;
using distributed::RankRows;

namespace {

// Rows in proportion to the weights (a generator's rows carry about equal work).
distributed::RowPartition rows_by_weight(std::int64_t rows, const std::vector<double>& weights) {
  double total = 0;
  for (double w : weights) total += w;
  distributed::RowPartition p;
  double sum = 0;
  for (double w : weights) {
    sum += w;
    p.offsets.push_back(std::min(rows, static_cast<std::int64_t>(std::llround(static_cast<double>(rows) * sum / total))));
  }
  p.offsets.back() = rows;
  return p;
}

// --cut graph: rank 0 reads the file, METIS cuts it, the matrix is
// renumbered so that each part is a block, and each rank learns its rows'
// indices in the file. The cut's cost is printed beside the default cut's.
template <class V>
RankRows<V> graph_cut_rows(const Communicator& comm, const DistributedRun& run, Renumbering* renumbering) {
  if (generators::is_generator_spec(run.source) || renumbering == nullptr) {
    throw Error(ErrorCode::invalid_argument, "--cut graph takes a matrix file (rank 0 reads it whole and cuts it) and hsparse spmv or solve; " +
                                                 run.source + " is not one");
  }
  Csr<V, std::int64_t> whole;
  distributed::RowPartition parts;
  on_every_rank(comm, [&] {
    if (comm.rank() != 0) return;
    whole = io::load_matrix<V, std::int64_t>(run.source);
    const distributed::GraphCut cut = distributed::metis_cut(whole, comm.size());
    const distributed::CutCost before = distributed::cut_cost(whole, distributed::weighted_rows(whole.row_ptr, std::vector<double>(static_cast<std::size_t>(comm.size()), 1.0)));
    whole = distributed::permute_symmetric(whole, cut.order);
    const distributed::CutCost after = distributed::cut_cost(whole, cut.partition);
    std::printf("graph cut (METIS) into %d parts: %lld nonzeros cut, halo %lld entries per product (contiguous by nonzeros: %lld and %lld)\n",
                comm.size(), static_cast<long long>(after.cut_nonzeros), static_cast<long long>(after.halo_volume),
                static_cast<long long>(before.cut_nonzeros), static_cast<long long>(before.halo_volume));
    renumbering->order = cut.order;
    parts = cut.partition;
  });
  RankRows<V> out = distributed::scatter_rows<V>(comm, whole, parts, 0);
  // Each rank's slice of the order: its rows' indices in the file.
  renumbering->original.resize(static_cast<std::size_t>(out.partition.size(comm.rank())));
  std::vector<CommMessage> sends, receives;
  if (comm.rank() == 0) {
    for (int r = 1; r < comm.size(); ++r) {
      sends.push_back({r, renumbering->order.data() + out.partition.begin(r), static_cast<std::size_t>(out.partition.size(r)) * sizeof(std::int64_t)});
    }
    std::copy_n(renumbering->order.begin(), renumbering->original.size(), renumbering->original.begin());
  } else {
    receives.push_back({0, renumbering->original.data(), renumbering->original.size() * sizeof(std::int64_t)});
  }
  comm.start_exchange(sends, receives)->wait();
  return out;
}

}  // namespace

template <class V>
RankRows<V> load_rows(const Communicator& comm, const DistributedRun& run, const ExecutorPtr& ex, Renumbering* renumbering) {
  if (run.cut == "graph") return graph_cut_rows<V>(comm, run, renumbering);
  // --cut speed: each rank's share in proportion to its measured SpMV speed
  // (GHOST's heterogeneous mode), by nonzeros for a file and by rows for a
  // generator (whose rows are generated where they are cut).
  std::vector<double> weights;
  if (run.cut == "speed") {
    weights = distributed::rank_speeds(comm, ex, part_options(run, 1000).local);
    if (comm.rank() == 0) {
      std::printf("cut by measured speed:");
      for (std::size_t r = 0; r < weights.size(); ++r) std::printf(" rank %zu %.2f G nonzeros/s", r, weights[r] * 1e-9);
      std::printf("\n");
    }
  }
  RankRows<V> out;
  if (generators::is_generator_spec(run.source)) {
    on_every_rank(comm, [&] {
      const int me = comm.rank();
      auto g = weights.empty() ? generators::generate_rows<V>(run.source, comm.size(), me)
                               : generators::generate_rows<V>(run.source, [&](std::int64_t rows) {
                                   const distributed::RowPartition p = rows_by_weight(rows, weights);
                                   return std::make_pair(p.begin(me), p.begin(me) + p.size(me));
                                 });
      out.partition = weights.empty() ? distributed::contiguous_rows(g.global_rows, comm.size()) : rows_by_weight(g.global_rows, weights);
      out.global_cols = g.rows.cols;
      out.rows = std::move(g.rows);
    });
    return out;
  }
  Csr<V, std::int64_t> whole;
  on_every_rank(comm, [&] {
    if (comm.rank() == 0) whole = io::load_matrix<V, std::int64_t>(run.source);
  });
  return distributed::scatter_rows<V>(comm, whole, run.cut == "rows" ? distributed::RowCut::rows : distributed::RowCut::nonzeros, 0, weights);
}

distributed::DistributedSpmvOptions part_options(const DistributedRun& run, long long products) {
  distributed::DistributedSpmvOptions o;
  SpmvOptions p;
  p.format = parse_format_choice(run.format);
  p.kernel = run.kernel;
  p.spmv_count = products;
  o.local = o.remote = p;
  o.transport = distributed::parse_halo_transport(run.transport);
  return o;
}

// A sum of one-hot slots.
std::vector<double> per_rank(const Communicator& comm, const std::vector<double>& mine) {
  const std::size_t k = mine.size();
  std::vector<double> all(k * static_cast<std::size_t>(comm.size()), 0.0);
  for (std::size_t i = 0; i < k; ++i) all[static_cast<std::size_t>(comm.rank()) * k + i] = mine[i];
  comm.allreduce_sum(all.data(), all.size());
  return all;
}

template <class V>
void print_layout(const Communicator& comm, const DistributedSpmv<V, std::int32_t>& d, const RankRows<V>& rows) {
  const auto& p = d.pattern();
  const std::vector<double> all = per_rank(comm, {static_cast<double>(d.rows()), static_cast<double>(rows.rows.nnz()),
                                                  static_cast<double>(d.remote_plan() ? d.remote_plan()->cols() : 0),
                                                  static_cast<double>(p.send_volume()), static_cast<double>(p.recv_ranks.size())});
  if (comm.rank() != 0) return;
  double most = 0, total = 0, halo = 0;
  for (int r = 0; r < comm.size(); ++r) {
    const double* a = &all[static_cast<std::size_t>(r) * 5];
    most = std::max(most, a[1]);
    total += a[1];
    halo += a[3];
    std::printf("rank %-3d %10.0f rows %12.0f nonzeros, %9.0f ghosts from %2.0f ranks, sends %9.0f entries\n", r, a[0], a[1], a[2], a[4], a[3]);
  }
  std::printf("balance  largest rank's nonzeros / mean = %.3f; halo %.0f entries (%.3f MB) per product\n", total > 0 ? most / (total / comm.size()) : 1.0,
              halo, halo * sizeof(V) * 1e-6);
}

template <class V>
std::vector<V> default_entries(std::size_t n, std::size_t first, const Renumbering& renumbering) {
  if (renumbering.empty()) return default_x<V>(n, first);
  std::vector<V> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = default_x<V>(1, static_cast<std::size_t>(renumbering.original[i]))[0];
  return x;
}

template <class V>
std::vector<V> gather_on_root(const Communicator& comm, const distributed::RowPartition& partition, const std::vector<V>& mine,
                              const Renumbering& renumbering) {
  std::vector<V> all;
  std::vector<CommMessage> sends, receives;
  if (comm.rank() == 0) {
    all.resize(static_cast<std::size_t>(partition.rows()));
    std::copy(mine.begin(), mine.end(), all.begin());
    for (int r = 1; r < comm.size(); ++r) receives.push_back({r, all.data() + partition.begin(r), static_cast<std::size_t>(partition.size(r)) * sizeof(V)});
  } else {
    sends.push_back({0, const_cast<V*>(mine.data()), mine.size() * sizeof(V)});
  }
  comm.start_exchange(sends, receives)->wait();
  if (comm.rank() != 0 || renumbering.empty()) return all;
  std::vector<V> in_file_order(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) in_file_order[static_cast<std::size_t>(renumbering.order[i])] = all[i];
  return in_file_order;
}

bool source_is_complex_on_rank0(const Communicator& comm, const std::string& source) {
  std::int64_t complex_values = 0;
  on_every_rank(comm, [&] {
    if (comm.rank() == 0 && !generators::is_generator_spec(source)) complex_values = io::source_is_complex(source) ? 1 : 0;
  });
  comm.allreduce_max(&complex_values, 1);
  return complex_values != 0;
}

#define HSPARSE_INSTANTIATE(V)                                                             \
  template RankRows<V> load_rows(const Communicator&, const DistributedRun&, const ExecutorPtr&, Renumbering*);                  \
  template std::vector<V> default_entries(std::size_t, std::size_t, const Renumbering&);                                          \
  template std::vector<V> gather_on_root(const Communicator&, const distributed::RowPartition&, const std::vector<V>&, const Renumbering&); \
  template void print_layout(const Communicator&, const DistributedSpmv<V, std::int32_t>&, const RankRows<V>&);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::tool
