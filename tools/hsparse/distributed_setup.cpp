// What the distributed commands share (distributed_setup.hpp).
#include "distributed_setup.hpp"

#include <cstdio>
#include <algorithm>
#include <cstdlib>

#include "hsparse/core/error.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "option_checks.hpp"

namespace hsparse::tool {

using distributed::DistributedSpmv;
using distributed::RankRows;

template <class V>
RankRows<V> load_rows(const Communicator& comm, const DistributedRun& run) {
  RankRows<V> out;
  if (generators::is_generator_spec(run.source)) {
    on_every_rank(comm, [&] {
      auto g = generators::generate_rows<V>(run.source, comm.size(), comm.rank());
      out.partition = distributed::contiguous_rows(g.global_rows, comm.size());
      out.global_cols = g.rows.cols;
      out.rows = std::move(g.rows);
    });
    return out;
  }
  Csr<V, std::int64_t> whole;
  on_every_rank(comm, [&] {
    if (comm.rank() == 0) whole = io::load_matrix<V, std::int64_t>(run.source);
  });
  return distributed::scatter_rows<V>(comm, whole, run.cut == "rows" ? distributed::RowCut::rows : distributed::RowCut::nonzeros, 0);
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

bool source_is_complex_on_rank0(const Communicator& comm, const std::string& source) {
  std::int64_t complex_values = 0;
  on_every_rank(comm, [&] {
    if (comm.rank() == 0 && !generators::is_generator_spec(source)) complex_values = io::source_is_complex(source) ? 1 : 0;
  });
  comm.allreduce_max(&complex_values, 1);
  return complex_values != 0;
}

#define HSPARSE_INSTANTIATE(V)                                                             \
  template RankRows<V> load_rows(const Communicator&, const DistributedRun&);             \
  template void print_layout(const Communicator&, const DistributedSpmv<V, std::int32_t>&, const RankRows<V>&);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::tool
