// hsparse spmv: y = A*x with a chosen backend and kernel, written as a
// Matrix Market array, so users can check hsparse against their own code.
#include <cstdio>

#include "commands.hpp"
#include "hsparse/core/error.hpp"
#include "distributed_cli.hpp"
#include "default_vector.hpp"
#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/io/atomic_file.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/kernels/spmv_registry.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/tuning/advisor.hpp"
#include "hsparse/tuning/spmv_handle.hpp"
#include "hsparse/tuning/tuning_cache.hpp"
#include "matrix_dispatch.hpp"
#include "option_checks.hpp"

namespace hsparse::tool {

namespace {

struct SpmvCommandOptions {
  std::string source;
  std::string x_file, out_file, cache;
  std::string format = "csr", backend = "auto", kernel;
  bool single = false, check = false, align_blocks = false;
  int repetitions = 10, block = 0, chunk = 0;
  long long sigma = 0, hyb_width = -1, spmv_count = 100;  // 0 / -1: not given, the backend's default
  double max_fill = 0;  // 0: the format's own limit (formats/format.cpp)
  double value_tolerance = 0;  // --format auto: lossy formats only when allowed
  double min_time_s = 0.2;
  std::optional<bool> x_in_l2;  // --x-in-l2 auto: unset
  std::map<std::string, long long> params;  // the kernel's own (--coop, --lanes, ..., --param)
  std::string cut = "nonzeros";  // several ranks: how a file's rows are cut
  std::string transport = "automatic";  // several GPU ranks: how the halo travels
};

// Under mpirun with several ranks: the distributed product. The layout and
// kernel options are per-plan settings the distributed path does not pass
// on yet; given there, they are refused rather than ignored.
int spmv_on_several_ranks(const SpmvCommandOptions& o) {
  const bool layout = o.block != 0 || o.chunk != 0 || o.sigma != 0 || o.hyb_width >= 0 || o.max_fill != 0 || o.align_blocks || !o.params.empty() ||
                      o.x_in_l2.has_value() || !o.cache.empty() || !o.x_file.empty();
  if (layout) {
    throw Error(ErrorCode::invalid_argument, "hsparse spmv on several ranks takes --format, --kernel, --backend, --cut, --single, --check, --out, "
                                             "--repetitions and --min-time; --x and the layout and kernel-parameter options are for one rank");
  }
  const DistributedRun run = distributed_run(o);
  return distributed_spmv(run, o.repetitions, o.min_time_s, o.check, o.out_file);
}

// --kernel's help, from the plans' own lists (so it cannot drift from them).
std::string kernel_help() {
  auto list = [](const std::vector<std::string>& names) {
    std::string s;
    for (const auto& n : names) s += (s.empty() ? "" : "|") + n;
    return s;
  };
  std::string help = "Kernel of the format (first = default; hsparse info --formats lists them with their sources).";
  for (Backend b : all_backends()) {
    help += std::string(" ") + to_string(b) + ":";
    for (Format f : all_formats()) help += std::string(" ") + to_string(f) + " " + list(spmv_kernel_names(b, f)) + ";";
  }
  return help;
}

template <class V, class I>
int run_spmv(const SpmvCommandOptions& o, const Csr<V, I>& a) {
  std::vector<V> x = o.x_file.empty() ? default_x<V>(static_cast<std::size_t>(a.cols)) : io::read_matrix_market_vector<V>(o.x_file);
  std::vector<V> y(static_cast<std::size_t>(a.rows), V(std::numeric_limits<real_type_t<V>>::quiet_NaN()));
  check_spmv_sizes(a, x.size(), y.size());
  std::string kernel = o.kernel, format = o.format;
  const ExecutorPtr ex = make_executor(o.backend);
  const std::string backend = to_string(ex->backend());
  hsparse::SpmvOptions po;
  // "auto": the plan chooses format, kernel and layout for --spmv-count products (resolve_spmv_options).
  po.format = parse_format_choice(format);
  po.spmv_count = o.spmv_count;
  po.value_tolerance = o.value_tolerance;
  po.kernel = kernel;
  if (o.block != 0) po.layout.block = o.block;
  po.layout.align_blocks = o.align_blocks;
  po.layout.chunk = o.chunk;
  po.layout.sigma = o.sigma;
  if (o.hyb_width >= 0) po.layout.hyb_width = o.hyb_width;
  po.layout.max_fill = o.max_fill;
  // The kernel's own parameters; the plan refuses one its kernel does not take (kernels/spmv_registry.hpp).
  po.params = o.params;
  if (o.x_in_l2) po.params["x_in_l2"] = *o.x_in_l2 ? 1 : 0;
  const Array<V> d_x(ex, std::span<const V>(x));
  Array<V> d_y(ex, std::span<const V>(y));
  const auto sync = [&] { ex->synchronize(); };
  TimingSummary t;
  if (po.format && *po.format == Format::sell && o.chunk == 0 && o.sigma == 0 && po.kernel.empty()) {
    // SELL without C or sigma: the tuning cache's parameters (hsparse tune) if it has this matrix.
    HandleOptions ho;
    ho.format = Format::sell;
    ho.tune = false;
    ho.cache_path = o.cache;
    SpmvHandle<V, I> handle(ex, a, ho);
    kernel = handle.description();
    std::string axes;
    for (const auto& name : handle.axis_names()) axes += (axes.empty() ? "" : ", ") + name;
    std::fprintf(stderr, "format %s: %s\n", kernel.c_str(),
                 handle.origin() == "cache" ? (axes + " from the tuning cache " + (o.cache.empty() ? TuningCache::default_path() : o.cache)).c_str()
                                            : ("default " + axes + " (no tuning cache entry for this matrix: hsparse tune stores one)").c_str());
    t = time_for([&] { handle.apply(V(1), d_x, V(0), d_y); }, o.min_time_s, o.repetitions, sync);
  } else {
    const SpmvPlan<V, I> plan(ex, a, po);
    if (!po.format) std::fprintf(stderr, "auto: %s, chosen in %.3f s\n", plan.choice().c_str(), plan.choice_seconds());
    format = to_string(plan.format());
    kernel = plan.description();
    std::fprintf(stderr, "format %s: %zu bytes, %zu stored entries (%.3f per nonzero), set up (convert, upload, preprocess) in %.3f s\n",
                 kernel.c_str(), plan.matrix_bytes(), plan.stored_entries(),
                 a.nnz() ? static_cast<double>(plan.stored_entries()) / static_cast<double>(a.nnz()) : 1.0, plan.setup_seconds());
    t = time_for([&] { plan.apply(V(1), d_x, V(0), d_y); }, o.min_time_s, o.repetitions, sync);
  }
  y = d_y.to_host();
  const double gflops = 2.0 * static_cast<double>(a.nnz()) / t.median_s * 1e-9;
  std::fprintf(stderr, "spmv %s/%s: %lld x %lld, %zu nonzeros, %s: median %.3f ms over %d runs, %.2f GFLOP/s\n",
               backend.c_str(), kernel.c_str(), static_cast<long long>(a.rows),
               static_cast<long long>(a.cols), a.nnz(), type_name<V>(), t.median_s * 1e3, t.repetitions, gflops);
  int status = 0;
  if (o.check) {
    // A format storing rounded values (csr16-single) is checked with its rounding in the bound, and its error stated.
    const double rounding = format_traits(parse_format(format)).value_rounding;
    const SpmvCheck c = check_spmv_result<V, I>(a, x, V(1), V(0), {}, y, rounding);
    std::fprintf(stderr, "check against the serial double-precision reference: %s (relative error %.3g, worst row at %.3g of its bound%s)\n",
                 c.passed ? "PASSED" : "FAILED", c.relative_error, c.worst_bound_ratio,
                 rounding > 0 ? ", values stored in single precision: the bound allows their rounding" : "");
    if (!c.passed) {
      std::fprintf(stderr, "  %s\n", c.message.c_str());
      status = 1;
    }
  }
  if (!o.out_file.empty()) io::write_matrix_market_vector<V>(o.out_file, y);
  return status;
}

}  // namespace

Action add_spmv_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("spmv", "Compute y = A*x and write y as a Matrix Market array");
  auto o = std::make_shared<SpmvCommandOptions>();
  cmd->add_option("matrix", o->source, "Matrix Market file, .hsp file or generator spec (e.g. stencil3d:n=64)")->required();
  cmd->add_option("--x", o->x_file, "x as a Matrix Market vector (default: x[i] = 1 + (i*7919 mod 1000)/1000)");
  cmd->add_option("--out", o->out_file, "Write y here (Matrix Market array, full precision)");
  cmd->add_option("--format", o->format, "Storage format")
      ->check(CLI::IsMember(format_choices()))
      ->capture_default_str();
  cmd->add_option("--spmv-count", o->spmv_count, "--format auto: the products the choice must pay off over")->check(integer_in(1))->capture_default_str();
  add_value_tolerance_option(cmd, o->value_tolerance);
  cmd->add_option("--block-size", o->block, "BCSR block size (default: the one with the fewest bytes, 1..8)")->check(integer_in(1, 32));
  cmd->add_flag("--align-blocks", o->align_blocks, "BCSR: start every block on a 64-byte boundary");
  cmd->add_option("--chunk", o->chunk, "SELL chunk height C (default: the SIMD width)")->check(integer_in(1, 1024));
  cmd->add_option("--sigma", o->sigma, "SELL sorting scope sigma (1: no sorting; default CPU 256 or the tuning cache's, GPU 1)")->check(integer_in(1));
  cmd->add_option("--cache", o->cache, "CPU SELL: the tuning cache to read C and sigma from (default: $HSPARSE_TUNING_CACHE or ~/.cache/hsparse/tuning.json)");
  // Kernel parameters under their own names (the registry checks each against its kernel and range).
  add_kernel_param_option(cmd, "--coop", "coop", o->params, "CUDA CSR vector: threads per row (parameter coop; default: the fixed rule)");
  add_kernel_param_option(cmd, "--repeat", "repeat", o->params, "CUDA CSR vector: rows per thread group (parameter repeat; default: the fixed rule)");
  add_kernel_param_option(cmd, "--block-threads", "block", o->params, "CUDA CSR vector: threads per block (parameter block; default: the fixed rule)");
  add_kernel_param_option(cmd, "--threads-per-row", "threads", o->params, "CUDA SELL 'threads' kernel: T threads per row (parameter threads; default 4)");
  add_kernel_param_option(cmd, "--lanes", "lanes", o->params, "CUDA BCSR by-column: lanes per block row (parameter lanes; default: from the mean block row)");
  add_kernel_param_option(cmd, "--slabs", "slabs", o->params, "CUDA CSR slabs: column slabs (parameter slabs; default: x's bytes over a third of L2)");
  add_kernel_params_option(cmd, o->params);
  cmd->add_option("--hyb-width", o->hyb_width, "HYB ELL width (default: cusp's histogram rule)")->check(integer_in(0));
  cmd->add_option("--max-fill", o->max_fill,
                  "ELL, DIA, BCSR: accept up to this many stored slots per nonzero (default: the format's limit, hsparse info --formats)")
      ->check(real_above_zero());
  add_x_in_l2_option(cmd, o->x_in_l2);
  add_backend_option(cmd, o->backend);
  cmd->add_option("--kernel", o->kernel, kernel_help());
  cmd->add_option("--repetitions", o->repetitions, "At least this many timed runs (median reported)")->check(integer_in(1))->capture_default_str();
  cmd->add_option("--min-time", o->min_time_s, "Seconds of timed runs after a warm-up")->check(real_above_zero())->capture_default_str();
  cmd->add_flag("--single", o->single, "Single precision (complex<float> for complex matrices)");
  cmd->add_flag("--check", o->check, "Compare y with the serial double-precision reference; exit 1 if it fails");
  add_rank_options(cmd, o->cut, o->transport);
  return [o]() {
    io::remove_temporaries_on_signal();  // Ctrl-C while --out is written leaves no temporary
    if (several_ranks()) return spmv_on_several_ranks(*o);
    if (o->transport != "automatic" || o->cut != "nonzeros") {
      throw Error(ErrorCode::invalid_argument, "--transport and --cut are for several ranks under mpirun; this is one rank");
    }
    int status = 0;
    with_matrix(o->source, o->single ? Precision::single : Precision::double_,
                [&](const auto& a) { status = run_spmv(*o, a); });
    return status;
  };
}

}  // namespace hsparse::tool
