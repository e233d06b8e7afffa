// The benchmark loop (METHOD.md's rules): for every matrix, every candidate
// is built (its setup timed), run once on a NaN-poisoned y and checked
// against the serial double reference (a wrong result is reported, never
// timed), then timed: on the GPU with CUDA events and an L2 flush before
// each repetition; on the CPU in two interleaved rounds over all
// candidates, keeping each one's better median (the order of candidates
// must not decide the ranking). Repetitions fill a minimum time per kernel.
#include <omp.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>

#include "default_vector.hpp"
#include "bench.hpp"
#include "hsparse/formats/row_statistics.hpp"
#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/host_system.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "option_checks.hpp"
#include "hsparse/performance/spmv_model.hpp"
#include "hsparse/tuning/advisor.hpp"
#include "hsparse/backends/cuda/timing.hpp"

#include "hsparse_commit.hpp"  // generated at every build: HSPARSE_GIT_COMMIT

namespace hsparse::bench {

namespace {

std::string first_line_of(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (key.empty() || line.rfind(key, 0) == 0) {
      const auto colon = line.find(':');
      return key.empty() || colon == std::string::npos ? line : line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "";
}

Environment describe_environment(const std::string& backend) {
  Environment env;
  env.backend = backend;
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  env.date = date;
  const char* commit = std::getenv("HSPARSE_COMMIT");  // set by scripts where the build tree is not a git checkout
  env.commit = commit && *commit ? commit : HSPARSE_GIT_COMMIT;
  env.cpu = host_topology().cpu_model;
  env.threads = omp_get_max_threads();
  env.driver = first_line_of("/proc/driver/nvidia/version", "");
  if (backend == "cuda") {
    env.device = cuda::device_description();
    env.cache_bytes = cuda::l2_cache_bytes();
    const cuda::Executor ex;
    const auto bw = cuda::measure_device_bandwidth(ex);
    env.read_bytes_per_s = bw.read_bytes_per_s;
    env.copy_bytes_per_s = bw.copy_bytes_per_s;
  } else {
    env.device = env.cpu + " (" + std::to_string(env.threads) + " OpenMP threads)";
    env.cache_bytes = last_level_cache_bytes();
    env.read_bytes_per_s = measure_read_bandwidth().read_bytes_per_s;
  }
  return env;
}

void progress(std::size_t matrix, std::size_t matrices, std::size_t kernel, std::size_t kernels, const std::string& name,
              const std::string& label) {
  static const bool tty = isatty(2);
  if (!tty) return;
  const double done = (static_cast<double>(matrix) + (kernels ? static_cast<double>(kernel) / static_cast<double>(kernels) : 0)) /
                      static_cast<double>(std::max<std::size_t>(matrices, 1));
  const int width = 30, filled = static_cast<int>(done * width);
  std::fprintf(stderr, "\r\033[K[%s%s] %3.0f%%  matrix %zu/%zu  %s  %s", std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(width - filled), '.').c_str(), 100 * done, matrix + 1, matrices, name.c_str(),
               label.c_str());
  std::fflush(stderr);
}

void log_line(const char* fmt, const std::string& a, const std::string& b) {
  static const bool tty = isatty(2);
  if (tty) std::fprintf(stderr, "\r\033[K");
  std::fprintf(stderr, fmt, a.c_str(), b.c_str());
}

Result base_result(const MatrixInfo& m, const Environment& env, const std::string& label) {
  Result r;
  r.matrix = m.name;
  r.backend = env.backend;
  r.kernel = label;
  r.format = label.substr(0, label.find('/'));
  r.library = label.find("cusparse") != std::string::npos ? "cusparse" : (label == "eigen" || label == "librsb") ? label : "hsparse";
  return r;
}

void fill_metrics(Result& r, const MatrixInfo& m, const Environment& env, const Candidate& c) {
  r.automatic = c.kernel.rfind("auto: ", 0) == 0;
  r.library = c.library;
  r.format = c.format;
  r.kernel = c.kernel;
  r.setup_s = c.setup_s;
  r.choice_s = c.choice_s;
  r.matrix_bytes = c.matrix_bytes;
  r.occupancy = c.stored_entries ? static_cast<double>(m.nnz) / static_cast<double>(c.stored_entries) : 1;
  if (r.status != "ok" || r.time.median_s <= 0) return;
  const double t = r.time.median_s, flops = m.flops_per_nonzero * static_cast<double>(m.nnz);
  r.gflops = flops / t * 1e-9;
  if (r.time_back_to_back.median_s > 0) r.gflops_back_to_back = flops / r.time_back_to_back.median_s * 1e-9;
  r.bytes_min = format_minimum_bytes(c.matrix_bytes, m.rows, m.cols, m.value_bytes);
  r.bytes_csr_min = minimum_spmv_bytes(m.rows, m.cols, m.nnz, m.value_bytes, sizeof(I));
  r.bytes_effective = effective_spmv_bytes(m.rows, m.nnz, m.value_bytes, sizeof(I));
  r.gbs_min = r.bytes_min / t * 1e-9;
  r.gbs_csr_min = r.bytes_csr_min / t * 1e-9;
  r.gbs_effective = r.bytes_effective / t * 1e-9;
  r.bandwidth_fraction = r.bytes_min / t / env.read_bytes_per_s;
  // Eq. (14) gives alpha below its floor 1/N_nzc (x read once), even
  // negative, when the kernel beats the roofline: part of the data came
  // from cache, or the bandwidth test underestimates the machine. Alpha is
  // then reported at its floor and the result marked above the model.
  const double alpha_min = m.nnz ? static_cast<double>(m.cols) / static_cast<double>(m.nnz) : 1;
  // The model's balance counts 2 flops per nonzero: complex products (8)
  // enter it as their rate of real-equivalent products.
  const double flops_scale = m.flops_per_nonzero / 2;
  r.alpha = std::max(alpha_min, estimate_alpha(c.matrix_bytes, m.nnz, m.rows, m.value_bytes, flops / t / flops_scale, env.read_bytes_per_s));
  r.model_gflops = env.read_bytes_per_s / code_balance(c.matrix_bytes, m.nnz, m.rows, m.value_bytes, alpha_min) * flops_scale * 1e-9;
  r.above_model = r.gflops > r.model_gflops;
}

// Builds and checks one candidate; on refusal or a wrong result it fills r and returns null.
std::unique_ptr<Candidate> build_and_check(const CandidateMaker& maker, Result& r) {
  std::unique_ptr<Candidate> c;
  try {
    c = maker.make();
  } catch (const Error& e) {
    r.status = e.code() == ErrorCode::invalid_argument || e.code() == ErrorCode::unsupported ? "refused" : "failed";
    r.message = e.what();
    return nullptr;
  }
  r.library = c->library;
  r.format = c->format;
  r.kernel = c->kernel;
  // A format storing rounded values (csr16-single): its rounding in the bound, its error kept.
  double rounding = 0;
  for (Format f : all_formats()) {
    if (c->library == "hsparse" && c->format == to_string(f)) rounding = format_traits(f).value_rounding;
  }
  SpmvCheck check;
  try {
    check = c->run_and_check(rounding);
  } catch (const Error& e) {
    r.status = "failed";
    r.message = e.what();
    return nullptr;
  }
  r.relative_error = check.relative_error;
  if (!check.passed) {
    r.status = "wrong";
    r.message = check.message;
    return nullptr;
  }
  return c;
}

}  // namespace

Report run_benchmark(const Options& o, const std::atomic<bool>& stop) {
  const std::string backend = tool::resolve_backend(o.backend);
  if (backend == "cpu" && o.x_in_l2)
    throw Error(ErrorCode::invalid_argument, "--x-in-l2: a CUDA option, and this bench runs on the CPU backend");
  // Inputs and memory first: a missing file or a suite that cannot fit
  // stops here, before the bandwidth test and before anything is allocated.
  const std::size_t cache_bytes =
      backend == "cuda" ? cuda::l2_cache_bytes() :
                        last_level_cache_bytes();
  const SuitePlan plan = plan_suite(o, backend, cache_bytes);
  print_plan(plan);
  Report report;
  if (o.dry_run) {
    report.env.backend = backend;
    return report;
  }
  report.env = describe_environment(backend);
  // The idle machine's bandwidth, for every later auto (tuning/advisor.hpp).
  remember_read_bandwidth(backend, report.env.read_bytes_per_s, static_cast<double>(report.env.cache_bytes));
  report.spmv_count = o.spmv_count;
  const Environment& env = report.env;
  const double min_time = o.min_time_s > 0 ? o.min_time_s : (o.quick ? 0.03 : 0.25);
  const std::vector<std::string>& sources = plan.sources;
  const std::size_t suite_size = plan.suite_size;  // the folder's matrices after these are small: a tenth of the time each
  std::fprintf(stderr, "hsparse bench: %zu matrices on %s\n  %s\n  read bandwidth %.1f GB/s", sources.size(), backend.c_str(),
               env.device.c_str(), env.read_bytes_per_s * 1e-9);
  if (env.copy_bytes_per_s > 0) std::fprintf(stderr, ", copy %.1f GB/s", env.copy_bytes_per_s * 1e-9);
  std::fprintf(stderr, "; cache %.0f MiB\n", static_cast<double>(env.cache_bytes) / (1 << 20));
  if (backend == "cpu") initialize_cpu_baselines();
  const ExecutorPtr executor = make_executor(backend);

  for (std::size_t mi = 0; mi < sources.size() && !stop; ++mi) {
    MatrixInfo m;
    m.name = sources[mi];
    progress(mi, sources.size(), 0, 0, m.name, "loading");
    const std::string position = "[" + std::to_string(mi + 1) + "/" + std::to_string(sources.size()) + "] ";
    log_line("%s%s\n", position + m.name, generators::is_generator_spec(m.name) ? ": generating" : ": reading");
    // The matrix's own value type: real matrices as double, complex ones as
    // complex<double> (8 real flops per nonzero, 16-byte values), with every
    // kernel checked against the serial reference as for real ones. The CPU
    // baselines (Eigen, librsb) run for real matrices only.
    const auto bench_values = [&]<class T>() {
      constexpr bool complex = is_complex_v<T>;
      m.values = complex ? "complex<double>" : "double";
      m.value_bytes = sizeof(T);
      m.flops_per_nonzero = complex ? 8 : 2;
      Csr<T, I> a;
      try {
        Stopwatch load;
        a = io::load_matrix<T, I>(m.name);
        m.load_s = load.seconds();
        // Every candidate's copy of this matrix, checked before the first is made.
        // (measured for double; an entry of complex<double> is 20 bytes, not 12)
        const double entry_scale = static_cast<double>(sizeof(T) + sizeof(I)) / static_cast<double>(sizeof(V) + sizeof(I));
        require_host_memory(static_cast<std::size_t>(static_cast<double>(a.nnz()) * bench_host_bytes_per_nonzero(backend) * entry_scale),
                            "benchmarking " + m.name + " (its candidates' copies)");
      } catch (const Error& e) {
        log_line("  %s: not loaded: %s\n", m.name, e.what());
        Result r = base_result(m, env, "(load)");
        r.status = "failed";
        r.message = e.what();
        report.results.push_back(r);
        return;
      }
      m.rows = a.rows;
      m.cols = a.cols;
      m.nnz = a.nnz();
      m.csr_bytes = static_cast<double>(a.nnz() * (sizeof(T) + sizeof(I)) + a.row_ptr.size() * sizeof(I));
      const auto stats = row_length_statistics(a);
      m.row_cv = stats.coefficient_of_variation;
      m.max_row = static_cast<int>(stats.max_length);
      m.cache_resident = m.csr_bytes + static_cast<double>(a.rows + a.cols) * sizeof(T) < static_cast<double>(env.cache_bytes);
      report.matrices.push_back(m);
      char loaded[64];
      std::snprintf(loaded, sizeof loaded, ", ready in %.1f s", m.load_s);
      log_line("%s%s\n", position + m.name, " (" + std::to_string(m.rows) + " x " + std::to_string(m.cols) + ", " + std::to_string(m.nnz) +
                                     " nonzeros" + (complex ? ", complex<double> values" : "") + (m.cache_resident ? ", fits in cache: timed after a cache flush" : "") + loaded + ")");

      const std::vector<T> x = tool::default_x<T>(static_cast<std::size_t>(a.cols));
      const SpmvReference<T, I> reference(a, x, T(1), T(0), {});  // once per matrix, for every candidate's check
      std::vector<Result> results;
      const double kernel_time = mi < suite_size ? min_time : min_time / 10;
      if (backend == "cuda") {
        const Array<T> d_x(executor, std::span<const T>(x));
        // One untimed CSR plan first: the first plan of each matrix paid 40-110
        // ms more setup than the same plan later (H100: "auto", always
        // first, 61 against 21 ms on power law, 185 against 73 on cage10), a
        // cost every user pays once whatever the format; without this, the
        // candidate that happens to come first is charged with it.
        try {
          const SpmvPlan<T, I> warm_up(executor, a, SpmvOptions{});
        } catch (const Error&) {  // the candidates report their own failures
        }
        const auto makers = plan_candidates(executor, a, d_x.data(), reference, env, o.spmv_count, o.x_in_l2);
        for (std::size_t k = 0; k < makers.size() && !stop; ++k) {
          progress(mi, sources.size(), k, makers.size(), m.name, makers[k].label);
          Result r = base_result(m, env, makers[k].label);
          try {
            if (auto c = build_and_check(makers[k], r)) {
              r.time = c->time(kernel_time);
              if (c->time_back_to_back) r.time_back_to_back = c->time_back_to_back(kernel_time / 2);
              fill_metrics(r, m, env, *c);
            }
          } catch (const Error& e) {
            r.status = "failed";
            r.message = e.what();
          }
          results.push_back(r);
        }
      } else {
        auto makers = plan_candidates(executor, a, x.data(), reference, env, o.spmv_count, o.x_in_l2);
        if constexpr (!complex) {
          for (auto& m : cpu_baseline_candidates(a, x.data(), reference)) makers.push_back(std::move(m));
        }
        // Built and checked with "auto" (the first candidate) last. Built
        // first, its plan ran 10-50% slower than the same plan built later, in
        // every run of the build machine's suite (FEM bs = 3: 6.44 against
        // 5.64 ms); built last, within 3% (3.84 against 3.87), and the plan
        // built first instead (COO) showed no such loss. The cause is not
        // found (not malloc's mmap threshold, a pause, or a plan built before
        // the candidates: docs/results/2026-11-26-csr-adaptive-bcsr-lanes-h200, section 5).
        std::vector<std::unique_ptr<Candidate>> built(makers.size());
        std::vector<bool> attempted(makers.size(), false);
        for (std::size_t k = 0; k < makers.size(); ++k) results.push_back(base_result(m, env, makers[k].label));
        for (std::size_t j = 0; j < makers.size() && !stop; ++j) {
          const std::size_t k = (j + 1) % makers.size();
          progress(mi, sources.size(), j, 2 * makers.size(), m.name, makers[k].label + " (check)");
          attempted[k] = true;
          built[k] = build_and_check(makers[k], results[k]);
        }
        for (std::size_t k = 0; k < makers.size(); ++k) {
          if (attempted[k]) continue;
          results[k].status = "failed";
          results[k].message = "interrupted before it was built";
        }
        std::vector<TimingSummary> best(makers.size());
        for (int round = 0; round < 2 && !stop; ++round) {
          for (std::size_t i = 0; i < built.size() && !stop; ++i) {
            // The second round in reverse: no candidate is timed first in both
            // rounds. "auto", first in the list, ran 10-50% slower than the
            // same plan later in the list, and 2-3% when put last; reversing
            // the second round narrowed that but did not end it (build
            // machine, docs/results/2026-11-26-csr-adaptive-bcsr-lanes-h200, section 5).
            const std::size_t k = round == 0 ? i : built.size() - 1 - i;
            if (!built[k]) continue;
            progress(mi, sources.size(), makers.size() + k, 2 * makers.size(), m.name, makers[k].label);
            const auto t = built[k]->time(kernel_time / 2);
            if (best[k].repetitions == 0 || t.median_s < best[k].median_s) best[k] = t;
          }
        }
        for (std::size_t k = 0; k < built.size(); ++k) {
          if (!built[k]) continue;
          results[k].time = best[k];
          if (best[k].repetitions == 0) {
            results[k].status = "failed";
            results[k].message = "interrupted before timing";
          }
          fill_metrics(results[k], m, env, *built[k]);
        }
      }
      derive_comparisons(results);
      for (const auto& r : results) {
        if (r.status == "ok") {
          char line[256];
          std::snprintf(line, sizeof line, "%9.1f GFLOP/s %6.1f%% of read BW", r.gflops, 100 * r.bandwidth_fraction);
          if (r.gflops_back_to_back > 0) std::snprintf(line + std::strlen(line), sizeof line - std::strlen(line), "  (back to back %.1f)", r.gflops_back_to_back);
          log_line("    %-44s %s\n", r.library + " " + r.kernel, line);
        } else {
          log_line("    %-44s %s\n", r.library + " " + r.kernel, status_text(r));
        }
      }
      report.results.insert(report.results.end(), results.begin(), results.end());
    };
    if (io::source_is_complex(m.name)) bench_values.template operator()<std::complex<double>>();
    else bench_values.template operator()<double>();
  }
  if (isatty(2)) std::fprintf(stderr, "\r\033[K");
  if (backend == "cpu") finalize_cpu_baselines();
  report.interrupted = stop;
  return report;
}

std::string breakeven_text(const Result& x) {
  if (x.format == "csr") return "-";
  if (x.status != "ok" || !x.csr_measured) return "not measured";
  if (!x.breakeven_spmvs) return "never";
  if (*x.breakeven_spmvs < 1) return "at once";  // its setup is no longer than the fastest CSR kernel's
  char b[32];
  std::snprintf(b, sizeof b, "%.0f", std::ceil(*x.breakeven_spmvs));
  return b;
}

std::string status_text(const Result& r) {
  if (r.status == "ok") return "ok";
  return r.message.find(r.status) != std::string::npos ? r.message : r.status + ": " + r.message;
}

void derive_comparisons(std::vector<Result>& results) {
  double best_csr = 0, best_any = 0, t_ref = 0, setup_ref = 0;
  Result* ref = nullptr;
  for (auto& r : results) {
    if (r.status != "ok") continue;
    if (r.library != "hsparse") {
      best_any = std::max(best_any, r.gflops);
      if (r.format == "csr") best_csr = std::max(best_csr, r.gflops);
    }
    if (r.format == "csr" && (!ref || r.time.median_s < t_ref)) {
      ref = &r;
      t_ref = r.time.median_s;
      setup_ref = r.setup_s;
    }
  }
  if (ref) ref->csr_reference = true;
  for (auto& r : results) {
    if (r.status != "ok") continue;
    r.csr_measured = ref != nullptr;
    if (best_csr > 0) r.speedup_vs_baseline_csr = r.gflops / best_csr;
    if (best_any > 0) r.speedup_vs_baseline_best = r.gflops / best_any;
    // Reguly's figure 16: how many products the conversion from CSR costs,
    // paid back by the time each product saves over the fastest CSR kernel.
    if (ref && r.format != "csr" && r.time.median_s < t_ref) {
      r.breakeven_spmvs = std::max(0.0, (r.setup_s - setup_ref) / (t_ref - r.time.median_s));
    }
  }
}

}  // namespace hsparse::bench
