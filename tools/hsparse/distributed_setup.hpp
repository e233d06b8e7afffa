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

// Where a graph cut renumbered the rows (run.cut "graph"): on every rank
// its rows' indices in the file (`original`), and on rank 0 the whole order
// (new row i is the file's row order[i]). Empty where the file's order stays.
struct Renumbering {
  std::vector<std::int64_t> order, original;
  bool empty() const { return original.empty(); }
};

// This rank's rows: a generator spec evaluated for its own rows (equal
// rows per rank), or a file read by rank 0 and scattered (run.cut); with
// run.cut "speed", in proportion to the ranks' speeds measured on `ex`;
// with "graph", METIS's parts (rows renumbered: `renumbering`, which must
// then be given, says how).
template <class V>
distributed::RankRows<V> load_rows(const Communicator& comm, const DistributedRun& run, const ExecutorPtr& ex, Renumbering* renumbering = nullptr);

// This rank's entries [first, first + n) of the tool's default vector
// (default_vector.hpp), taken at the file's indices where renumbered.
template <class V>
std::vector<V> default_entries(std::size_t n, std::size_t first, const Renumbering& renumbering);

// The ranks' pieces of a vector cut by `partition`, on rank 0 and in the
// file's order (empty elsewhere). Collective.
template <class V>
std::vector<V> gather_on_root(const Communicator& comm, const distributed::RowPartition& partition, const std::vector<V>& mine,
                              const Renumbering& renumbering);

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
