#pragma once
// What the distributed commands share (hsparse spmv, solve and bench under
// mpirun with several ranks, distributed_cli.hpp): each rank's rows, the
// parts' options, the per-rank report and the value type.
#include <complex>
#include <string>
#include <vector>

#include "distributed_cli.hpp"
#include "hsparse/core/communicator.hpp"
#include "hsparse/core/executor.hpp"
#include "hsparse/distributed/distributed_spmv.hpp"
#include "hsparse/distributed/rank_executor.hpp"
#include "hsparse/distributed/scatter_rows.hpp"

namespace hsparse::tool {

// This rank's rows: a generator spec evaluated for its own rows (equal
// rows per rank), or a file read by rank 0 and scattered (run.cut); with
// run.cut "speed", in proportion to the ranks' speeds measured on `ex`.
template <class V>
distributed::RankRows<V> load_rows(const Communicator& comm, const DistributedRun& run, const ExecutorPtr& ex);

// Both parts with run.format and run.kernel ("auto": for `products`).
distributed::DistributedSpmvOptions part_options(const DistributedRun& run, long long products);

// Each rank's values on every rank: [rank * mine.size() + i].
std::vector<double> per_rank(const Communicator& comm, const std::vector<double>& mine);

// On rank 0: each rank's rows, nonzeros, ghosts and sends, the nonzero
// imbalance and the halo volume. Collective.
template <class V>
void print_layout(const Communicator& comm, const distributed::DistributedSpmv<V, std::int32_t>& d, const distributed::RankRows<V>& rows);

// The value type every rank uses: what rank 0 finds in a file (complex or
// real), in the precision asked for; generators are real. Calls fn(V{}).
template <class Fn>
int with_value_type(const DistributedRun& run, Fn&& fn);

// Whether rank 0's source is a complex matrix file (collective).
bool source_is_complex_on_rank0(const Communicator& comm, const std::string& source);

template <class Fn>
int with_value_type(const DistributedRun& run, Fn&& fn) {
  const bool complex_values = source_is_complex_on_rank0(*world_communicator(), run.source);
  if (complex_values) return run.single ? fn(std::complex<float>{}) : fn(std::complex<double>{});
  return run.single ? fn(float{}) : fn(double{});
}

}  // namespace hsparse::tool
