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
#include "hsparse/backends/cuda/timing.hpp"
#include "hsparse/backends/cuda/tridiagonal.hpp"

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
  std::vector<V> x(t.d.size());
  const bool gpu = resolve_backend(o.backend) == "cuda";
  // The CPU has Thomas only (OpenMP over systems): another algorithm is
  // refused, never silently replaced.
  if (!gpu && o.algorithm != "auto" && o.algorithm != "thomas") {
    throw Error(ErrorCode::unsupported, "--algorithm " + o.algorithm + " runs on the GPU only (" + (o.backend == "cpu" ? std::string("--backend cpu") : cuda::device_description()) +
                                            "); the CPU solver is thomas");
  }
  TimingSummary tm;
  std::string what;
  if (!gpu) {
    tm = time_repeated([&] { openmp::tridiagonal_solve<V>(s, t.d, x); }, o.repetitions, 1);
    what = "cpu/thomas (OpenMP)";
  } else {
    const cuda::Executor ex;
    cuda::TridiagonalSolver<V> solver(ex);
    cuda::DeviceArray<V> da(t.a), db(t.b), dc(t.c), dd(t.d), dx(x.size());
    const TridiagonalSystems<V> ds{t.size, t.count, layout, da.data(), db.data(), dc.data()};
    if (o.algorithm == "cusparse") {
      tm = cuda::time_on_device(ex, [&] { solver.cusparse_solve(ds, dd.data(), dx.data()); }, o.repetitions, 1);
      what = "cuda/cusparse (with its copies)";
    } else {
      cuda::TridiagonalOptions to;
      to.algorithm = cuda::parse_tridiagonal_algorithm(o.algorithm);
      if (o.hybrid_switch > 0) to.hybrid_switch = o.hybrid_switch;
      if (o.partition_rows > 0) to.partition_rows = o.partition_rows;
      solver.solve(ds, dd.data(), dx.data(), to);
      solver.check();  // a zero pivot is an error, never infinities in x
      tm = cuda::time_on_device(ex, [&] { solver.solve(ds, dd.data(), dx.data(), to); }, o.repetitions, 1);
      what = "cuda/" + solver.description();
    }
    x = dx.download();
  }
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
  cmd->add_option("--algorithm", o->algorithm, "auto, thomas (CPU and GPU); cr, pcr, hybrid, partition, cusparse (GPU only)")
      ->check(CLI::IsMember({"auto", "thomas", "cr", "pcr", "hybrid", "partition", "cusparse"}))
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
