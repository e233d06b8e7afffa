// hsparse tridiag: solves a random diagonally dominant batch of `count`
// tridiagonal systems of `size` unknowns (or one read from Matrix Market
// vectors a, b, c, d of size*count entries in the stated layout) on the
// CPU or GPU with a chosen algorithm; reports the time, systems per second,
// GB/s and the residual ||Ax - d|| / ||d|| in double; writes x.
#include <cstdio>

#include "commands.hpp"
#include "option_checks.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/core/types.hpp"
#include <cmath>
#include "hsparse/generators/tridiagonal_batch.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/solvers/tridiagonal.hpp"
#include "bench/call_timing.hpp"

namespace hsparse::tool {

namespace {

struct TridiagCli {
  long long size = 512, count = 512;
  std::string layout = "contiguous", algorithm = "auto", backend = "auto", out_file;
  std::vector<std::string> diagonals;  // a b c d files
  int repetitions = 10, hybrid_switch = 0, partition_rows = 0;
  bool single = false;
};

template <class V>
int run_tridiag(const TridiagCli& o) {
  const auto layout = o.layout == "interleaved" ? TridiagonalLayout::interleaved : TridiagonalLayout::contiguous;
  generators::TridiagonalBatch<V> t;
  if (o.diagonals.empty()) {
    t = generators::random_tridiagonal_batch<V>(o.size, o.count, layout, 1);
  } else {
    t.size = o.size;
    t.count = o.count;
    t.layout = layout;
    std::vector<V>* arrays[4] = {&t.a, &t.b, &t.c, &t.d};
    for (int k = 0; k < 4; ++k) {
      *arrays[k] = io::read_matrix_market_vector<V>(o.diagonals[static_cast<std::size_t>(k)]);
      if (static_cast<long long>(arrays[k]->size()) != o.size * o.count) {
        throw Error(ErrorCode::invalid_argument, o.diagonals[static_cast<std::size_t>(k)] + ": " + std::to_string(arrays[k]->size()) + " entries, --size x --count is " +
                                                     std::to_string(o.size * o.count));
      }
    }
  }
  const auto s = t.systems();
  const auto dom = check_diagonal_dominance(s);
  if (!dom.dominant) {
    std::fprintf(stderr, "warning: not diagonally dominant (system %lld, row %lld: (|a|+|c|)/|b| = %.3g); no pivoting is done\n", dom.system, dom.row,
                 dom.worst_ratio);
  }
  // One entry point on either backend (solvers/tridiagonal.hpp): an
  // algorithm the backend lacks is refused there, naming those it has.
  const ExecutorPtr ex = make_executor(o.backend);
  TridiagonalOptions to;
  to.algorithm = o.algorithm;
  to.hybrid_switch = o.hybrid_switch;
  to.partition_rows = o.partition_rows;
  const Array<V> da(ex, std::span<const V>(t.a)), db(ex, std::span<const V>(t.b)), dc(ex, std::span<const V>(t.c)), dd(ex, std::span<const V>(t.d));
  Array<V> dx(ex, t.d.size());
  const TridiagonalSystems<V> ds{t.size, t.count, layout, da.data(), db.data(), dc.data()};
  TridiagonalSolver<V> solver(ex);
  solver.solve(ds, dd.data(), dx.data(), to);
  solver.check();  // a zero pivot is an error, never infinities in x
  const TimingSummary tm = bench::time_calls(*ex, [&] { solver.solve(ds, dd.data(), dx.data(), to); }, 0, o.repetitions);
  const std::string what = std::string(to_string(ex->backend())) + "/" + solver.description();
  const std::vector<V> x = dx.to_host();
  const double bytes = 5.0 * static_cast<double>(x.size()) * sizeof(V);
  std::printf("%lld systems of %lld unknowns (%s, %s): %s\n", t.count, t.size, to_string(layout), type_name<V>(), what.c_str());
  std::printf("time %.3f ms (median of %d), %.3g systems/s, %.1f GB/s\n", tm.median_s * 1e3, tm.repetitions, static_cast<double>(t.count) / tm.median_s,
              bytes / tm.median_s * 1e-9);
  const double res = tridiagonal_relative_residual<V>(s, t.d, x);
  std::printf("residual ||Ax - d||/||d|| = %.3e\n", res);
  if (!o.out_file.empty()) io::write_matrix_market_vector<V>(o.out_file, x);
  return std::isfinite(res) ? 0 : 1;
}

}  // namespace

Action add_tridiag_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("tridiag", "Solve a batch of tridiagonal systems (random dominant, or a b c d from files) on the CPU or GPU");
  auto o = std::make_shared<TridiagCli>();
  cmd->add_option("--size", o->size, "Unknowns per system")->check(integer_in(1))->capture_default_str();
  cmd->add_option("--count", o->count, "Systems")->check(integer_in(1))->capture_default_str();
  cmd->add_option("--layout", o->layout, "contiguous or interleaved")->check(CLI::IsMember({"contiguous", "interleaved"}))->capture_default_str();
  cmd->add_option("--algorithm", o->algorithm, "auto, thomas (CPU and GPU); reference (CPU); cr, pcr, hybrid, partition, cusparse (GPU)")
      ->check(CLI::IsMember({"auto", "thomas", "reference", "cr", "pcr", "hybrid", "partition", "cusparse"}))
      ->capture_default_str();
  add_backend_option(cmd, o->backend);
  cmd->add_option("--diagonals", o->diagonals, "a b c d as Matrix Market vectors (size*count entries each)")->expected(4);
  cmd->add_option("--hybrid-switch", o->hybrid_switch, "Equations left when the hybrid switches from CR to PCR")->check(integer_in(1));
  cmd->add_option("--partition-rows", o->partition_rows, "Rows per thread in the partition method")->check(integer_in(1));
  cmd->add_option("--repetitions", o->repetitions, "Timed runs (median)")->check(integer_in(1, 100000))->capture_default_str();
  cmd->add_option("--out", o->out_file, "Write x here (Matrix Market array)");
  cmd->add_flag("--single", o->single, "Single precision");
  return [o]() { return o->single ? run_tridiag<float>(*o) : run_tridiag<double>(*o); };
}

}  // namespace hsparse::tool
