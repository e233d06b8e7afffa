// hsparse tune MATRIX: the exhaustive search over CSR vector's parameters
// on the GPU (coop x repeat x block size, the tuner's own axes), and where
// the paper's fixed rule (Reguly section 5.4), its GPU-scaled form and the
// run-time tuner (section 6, after --calls products) land against its
// best; then the same for SELL (T x sigma) and BCSR (block x algorithm). The best is stored in the
// tuning cache, so the next handle for this matrix on this device starts tuned.
#include <cstdio>

#include <omp.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "commands.hpp"
#include "option_checks.hpp"
#include "default_vector.hpp"
#include "hsparse/analysis/matrix_analysis.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/tuning/coordinate_tuner.hpp"
#include "hsparse/tuning/exhaustive_search.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/io/atomic_file.hpp"
#include "hsparse/io/file_bytes.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/tuning/spmv_handle.hpp"
#include "hsparse/tuning/tuning_spaces.hpp"
#include "hsparse/tuning/tuning_cache.hpp"
#include "hsparse/backends/cuda/timing.hpp"

namespace hsparse::tool {

namespace {

struct TuneOptions {
  std::string source, backend = "auto";
  int calls = 10, repetitions = 20;
  std::string cache, table;  // table: CSV file every measured point is appended to (GPU)
  bool no_store = false, sell_bcsr = true;
};

// CPU: SELL-C-sigma's C and sigma (the SELL-C-sigma paper's choice: C the
// SIMD width, sigma a few chunks) and BCSR's block size (the fewest-bytes
// rule), each against the exhaustive best; the tuner walks (C, sigma) from
// the defaults, converting the matrix at every step as a handle would.
int run_tune_cpu(const TuneOptions& o) {
  using V = double;
  using I = std::int32_t;
  const auto a = io::load_matrix<V, I>(o.source);
  const std::vector<V> x = default_x<V>(static_cast<std::size_t>(a.cols));
  std::vector<V> y(static_cast<std::size_t>(a.rows));
  const double flops = 2.0 * static_cast<double>(a.nnz());
  const ExecutorPtr cpu = make_executor(Backend::cpu);
  auto time_plan = [&](const SpmvOptions& po, std::string* description) {
    const SpmvPlan<V, I> plan(cpu, a, po);
    if (description) *description = plan.description();
    return time_repeated([&] { plan.apply(1.0, x, 0.0, y); }, o.repetitions, 2).median_s;
  };
  std::printf("%s: %d x %d, %zu nonzeros, CPU (%d threads)\n", o.source.c_str(), a.rows, a.cols, a.nnz(), omp_get_max_threads());
  auto line = [&](const char* what, const std::string& d, double t, double best) {
    std::printf("  %-34s %-28s %9.3f ms %8.2f GFLOP/s  %5.1f%% of best\n", what, d.c_str(), t * 1e3, flops / t * 1e-9, 100 * best / t);
  };
  // SELL: C x sigma, exhaustive.
  const SearchTable table = exhaustive_search(cpu_sell_tuning_axes(0), [&](const std::vector<int>& c) {
    SpmvOptions po;
    po.format = Format::sell;
    po.layout.chunk = c[0];
    po.layout.sigma = c[1];
    return time_plan(po, nullptr);
  });
  const SearchPoint* best = table.best();
  if (!best) throw Error(ErrorCode::invalid_argument, o.source + ": SELL-C-sigma refused every (C, sigma)");
  const double best_t = best->seconds;
  const std::string best_d = "sell-" + std::to_string(best->configuration[0]) + "-" + std::to_string(best->configuration[1]);
  std::printf("SELL-C-sigma, exhaustive over %zu (C, sigma) pairs (median of %d runs each):\n", table.points.size(), o.repetitions);
  line("best", best_d, best_t, best_t);
  SpmvOptions defaults;
  defaults.format = Format::sell;
  std::string dd;
  const double dt = time_plan(defaults, &dd);
  line("defaults (C = SIMD width, sigma 256)", dd, dt, best_t);
  // The tuner from the defaults' (C, sigma), walking the measured table: the
  // steps a handle converting at every step would take, without re-timing.
  SearchTable from_defaults = table;
  from_defaults.axes = cpu_sell_tuning_axes(std::stoi(dd.substr(5)));
  int calls = 0;
  const auto tb = replay_tuner(from_defaults, o.calls, &calls);
  char what[64], d[64];
  std::snprintf(what, sizeof what, "tuner after %d steps", calls);
  std::snprintf(d, sizeof d, "sell-%d-%d", tb[0], tb[1]);
  line(what, d, table.seconds_at(tb).value_or(0), best_t);
  // BCSR block size: the fewest-bytes rule against every size 1..8 (a refused size is no candidate).
  std::map<int, std::string> block_names;
  const SearchTable blocks = exhaustive_search({TunerAxis{"block", {1, 2, 3, 4, 5, 6, 7, 8}}}, [&](const std::vector<int>& c) {
    SpmvOptions po;
    po.format = Format::bcsr;
    po.layout.block = c[0];
    return time_plan(po, &block_names[c[0]]);
  });
  const SearchPoint* bbest_point = blocks.best();
  const double bbest = bbest_point ? bbest_point->seconds : 1e30;
  const std::string bbest_d = bbest_point ? block_names[bbest_point->configuration[0]] : "none";
  SpmvOptions rule;
  rule.format = Format::bcsr;
  std::string rd;
  const double rt = time_plan(rule, &rd);
  std::printf("BCSR, exhaustive over block sizes 1-8:\n");
  line("best", bbest_d, bbest, bbest);
  line("fewest-bytes rule", rd, rt, bbest);
  if (!o.no_store) {
    // The exhaustive best (C, sigma) under the CPU handle's key: the next
    // CPU SpmvHandle (and hsparse spmv --format sell) for this matrix uses it.
    HandleOptions ho;
    ho.format = Format::sell;
    ho.tune = false;
    ho.use_cache = false;
    const SpmvHandle<V, I> handle(cpu, a, ho);
    TuningCache cache(o.cache.empty() ? TuningCache::default_path() : o.cache);
    cache.store_or_throw(handle.cache_key(), best->configuration);
    std::printf("stored SELL C = %d, sigma = %d in %s: hsparse spmv --format sell and the CPU handle start with it\n", best->configuration[0],
                best->configuration[1], cache.path().c_str());
  }
  return 0;
}

int run_tune(const TuneOptions& o) {
  using V = double;
  using I = std::int32_t;
  const auto a = io::load_matrix<V, I>(o.source);
  const auto executor = cuda::make_cuda_executor();
  const cuda::Executor& ex = *executor;
  const cuda::DeviceCsr<V, I> m = cuda::DeviceCsr<V, I>::upload(a);
  const std::vector<V> xh = default_x<V>(static_cast<std::size_t>(a.cols));
  const cuda::DeviceArray<V> x(xh);
  cuda::DeviceArray<V> y(static_cast<std::size_t>(a.rows));
  const cuda::L2Flusher flush(ex);
  auto time_params = [&](const cuda::CsrVectorParams& p) {
    return cuda::time_on_device(ex, [&] { cuda::csr_spmv_vector(ex, 1.0, m, x.data(), 0.0, y.data(), p); }, o.repetitions, 2,
                                [&] { flush(); })
        .median_s;
  };
  const double flops = 2.0 * static_cast<double>(a.nnz());
  std::printf("%s: %d x %d, %zu nonzeros, %s\n", o.source.c_str(), a.rows, a.cols, a.nnz(), cuda::device_description().c_str());
  const auto fixed = cuda::csr_vector_fixed_rule(a.rows, static_cast<long long>(a.nnz()), ex.shape());
  const auto paper = cuda::csr_vector_paper_rule(a.rows, static_cast<long long>(a.nnz()));
  const auto axes = csr_vector_tuning_axes(fixed);
  // Every point, for calibrating rules offline: added to the file's rows
  // (a header when it is new), and the whole file written through a
  // temporary and renamed, so that it is complete or as it was.
  const bool table = !o.table.empty();
  std::string rows;
  if (table) rows = std::filesystem::exists(o.table) ? io::read_file_bytes(o.table) : "matrix,rows,nnz,coop,repeat,block,grid,seconds,gflops\n";
  // A grid past CUDA's limit is skipped, not refused: the rule never picks one.
  const auto grid_of = [&](const std::vector<int>& c) {
    return 1 + (static_cast<long long>(a.rows) * c[0] - 1) / (static_cast<long long>(c[1]) * c[2]);
  };
  const SearchTable search = exhaustive_search(
      axes,
      [&](const std::vector<int>& c) {
        const double t = time_params(csr_vector_params(c));
        if (table) {
          char figures[160];  // numbers only: bounded; the source, of any length, is added whole
          std::snprintf(figures, sizeof figures, ",%d,%zu,%d,%d,%d,%lld,%.6e,%.2f\n", a.rows, a.nnz(), c[0], c[1], c[2], grid_of(c), t, flops / t * 1e-9);
          rows += "\"" + o.source + "\"" + figures;
        }
        return t;
      },
      [&](const std::vector<int>& c) { return grid_of(c) > (1LL << 31) - 1; });
  const double best_t = search.best()->seconds;
  const cuda::CsrVectorParams best = csr_vector_params(search.best()->configuration);
  const auto points = static_cast<int>(search.points.size());
  if (table) io::write_file_atomically(o.table, rows);  // Error(io) naming the file on any failed write
  const double fixed_t = time_params(fixed);
  const double paper_t = time_params(paper);
  // The run-time tuner as a solver would drive it: --calls products on one handle.
  HandleOptions ho;
  ho.format = Format::csr;
  ho.kernel = "vector";
  ho.use_cache = false;
  SpmvHandle<V, I> handle(executor, a, ho);
  for (int c = 0; c < o.calls; ++c) handle.apply(1.0, x.data(), 0.0, y.data());
  ex.synchronize();
  const auto tuned = csr_vector_params(handle.configuration());
  const double tuned_t = time_params(tuned);
  auto line = [&](const char* what, const cuda::CsrVectorParams& p, double t) {
    std::printf("  %-28s coop %2d  repeat %6d  block %3d  %9.4f ms  %8.1f GFLOP/s  %5.1f%% of best\n", what, p.coop, p.repeat, p.block_size,
                t * 1e3, flops / t * 1e-9, 100 * best_t / t);
  };
  std::printf("exhaustive search over %d parameter sets (median of %d event-timed runs each, L2 flushed):\n", points, o.repetitions);
  line("best", best, best_t);
  line("paper's rule (section 5.4)", paper, paper_t);
  line("fixed rule (GPU-scaled)", fixed, fixed_t);
  char what[64];
  std::snprintf(what, sizeof what, "tuner after %d calls (%s)", o.calls, handle.origin().c_str());
  line(what, tuned, tuned_t);
  if (!o.no_store) {
    TuningCache cache(o.cache.empty() ? TuningCache::default_path() : o.cache);
    cache.store_or_throw(handle.cache_key(), csr_vector_configuration(best));
    std::printf("stored in %s: the next handle for this matrix starts with the best\n", cache.path().c_str());
  }
  if (!o.sell_bcsr) return 0;
  // SELL (T x sigma) and BCSR (block size x algorithm): every point a plan,
  // against the starting guess and a handle's tuner after 40 products.
  auto time_plan = [&](const SpmvOptions& po, std::string* d) {
    const SpmvPlan<V, I> plan(executor, a, po);
    if (d) *d = plan.description();
    return cuda::time_on_device(ex, [&] { plan.apply(1.0, x.data(), 0.0, y.data()); }, o.repetitions, 2, [&] { flush(); }).median_s;
  };
  auto plan_line = [&](const char* what, const std::string& d, double t, double b) {
    std::printf("  %-28s %-34s %9.4f ms  %8.1f GFLOP/s  %5.1f%% of best\n", what, d.c_str(), t * 1e3, flops / t * 1e-9, 100 * b / t);
  };
  for (Format f : {Format::sell, Format::bcsr}) {
    SpmvOptions base;
    base.format = f;
    const auto space = f == Format::sell ? cuda_sell_tuning_axes(1, 1) : cuda_bcsr_tuning_axes(best_bcsr_block(a), 1);
    std::map<std::vector<int>, std::string> names;
    const SearchTable times = exhaustive_search(space, [&](const std::vector<int>& c) {
      return time_plan(tuned_plan_options(Backend::cuda, base, c), &names[c]);
    });
    if (!times.best()) {
      std::printf("%s: the matrix is refused at every point\n", to_string(f));
      continue;
    }
    const double sbest = times.best()->seconds;
    std::printf("%s, exhaustive over %zu points (%s x %s):\n", to_string(f), times.points.size(), space[0].name.c_str(), space[1].name.c_str());
    plan_line("best", names[times.best()->configuration], sbest, sbest);
    const std::vector<int> start = {space[0].values[space[0].start], space[1].values[space[1].start]};
    if (const auto t = times.seconds_at(start)) plan_line("starting guess", names[start], *t, sbest);
    HandleOptions fo;
    fo.format = f;
    fo.kernel = "";
    fo.use_cache = false;
    fo.max_tuning_calls = 40;
    SpmvHandle<V, I> fh(executor, a, fo);
    int calls = 0;
    for (; calls < 40 && fh.tuning(); ++calls) fh.apply(1.0, x.data(), 0.0, y.data());
    ex.synchronize();
    const auto c = fh.configuration();
    char fwhat[64];
    std::snprintf(fwhat, sizeof fwhat, "tuner after %d calls (%s)", calls, fh.origin().c_str());
    if (const auto t = times.seconds_at(c)) plan_line(fwhat, fh.description(), *t, sbest);
  }
  return 0;
}

}  // namespace

Action add_tune_command(CLI::App& app) {
  auto o = std::make_shared<TuneOptions>();
  auto* cmd = app.add_subcommand("tune", "Exhaustive parameter search (GPU: CSR vector; CPU: SELL C/sigma, BCSR block) against the rules and the tuner");
  cmd->add_option("matrix", o->source, "Matrix file or generator spec")->required();
  add_backend_option(cmd, o->backend);
  cmd->add_option("--calls", o->calls, "Products the run-time tuner gets")->check(integer_in(1, 100000))->capture_default_str();
  cmd->add_option("--repetitions", o->repetitions, "Timed runs per parameter set (median)")->check(integer_in(1, 100000))->capture_default_str();
  cmd->add_option("--cache", o->cache, "Tuning cache file (default: $HSPARSE_TUNING_CACHE or ~/.cache/hsparse/tuning.json)");
  cmd->add_option("--table", o->table, "GPU: append every measured point to this CSV file");
  cmd->add_flag("!--no-formats", o->sell_bcsr, "GPU: tune CSR vector only, not SELL and BCSR too");
  cmd->add_flag("--no-store", o->no_store, "Do not store the best in the tuning cache");
  return [o]() {
    if (io::source_is_complex(o->source)) {
      throw Error(ErrorCode::unsupported, o->source + ": complex values: hsparse tune tunes real matrices only");
    }
    const bool gpu = resolve_backend(o->backend) == "cuda";
    if (!gpu) return run_tune_cpu(*o);
    return run_tune(*o);
  };
}

}  // namespace hsparse::tool
