// hsparse bench --dense (dense_bench.hpp).
#include "dense_bench.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <vector>

#include "call_timing.hpp"
#include "cusparse_spmm_best.hpp"
#include "dense_baselines.hpp"
#include "dense_report.hpp"
#include "gemm_samples.hpp"
#include "number_format.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/host_system.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/dense/gemm.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/kernels/csr_spmm.hpp"
#include "hsparse/performance/spmv_model.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "option_checks.hpp"
#include "hsparse/backends/cuda/cusparse_spmv.hpp"
#include "hsparse/backends/cuda/timing.hpp"

namespace hsparse::bench {

namespace {

// The run's state: what the report reads (DenseResults) and how to measure.
struct Context : DenseResults {
  ExecutorPtr ex;
  bool quick = false;
  double min_time = 0.2;
  int status = 0;
  const std::atomic<bool>* stop = nullptr;
  void sync() const { ex->synchronize(); }
};

// The peak a GEMM kernel is held to: the unit it runs on (cuBLAS's DGEMM
// uses the FP64 tensor cores on Hopper, its SGEMM the FP32 units).
void attach_peak(const Context& c, DenseRow& r, bool is_double) {
  if (!c.gpu || !c.peaks.known) return;
  const std::string& a = r.algorithm;
  if (a == "tf32" || a == "cublas-tf32") r.peak_name = "TF32 tensor", r.peak_gflops = c.peaks.tf32_tensor;
  else if (is_double && (a == "tensor" || a == "cublas")) r.peak_name = "FP64 tensor", r.peak_gflops = c.peaks.fp64_tensor;
  else if (is_double) r.peak_name = "FP64", r.peak_gflops = c.peaks.fp64;
  else r.peak_name = "FP32", r.peak_gflops = c.peaks.fp32;
}

// Every call timed in one mode (call_timing.hpp).
TimingSummary time_calls(const Context& c, const std::function<void()>& fn, int min_repetitions) {
  return bench::time_calls(*c.ex, fn, c.min_time, min_repetitions);
}

void add_row(Context& c, DenseRow r) {
  std::printf("  %-12s %-7s %-28s %-14s %-9s %10.3f ms %10.1f GFLOP/s", r.section.c_str(), r.precision.c_str(), r.shape.c_str(), r.algorithm.c_str(),
              r.library.c_str(), r.seconds * 1e3, r.gflops);
  if (r.gbytes > 0) std::printf(" %8.1f GB/s", r.gbytes);
  if (r.peak_gflops > 0) std::printf("  %5.1f%% of %s", 100 * r.gflops / r.peak_gflops, r.peak_name.c_str());
  if (r.status != "ok") std::printf("  %s", r.status.c_str());
  std::printf("\n");
  std::fflush(stdout);
  c.rows.push_back(std::move(r));
}

// NaN in every entry before a kernel writes it (the product must overwrite all).
template <class T>
void poison(DenseMatrix<T>& m) {
  const std::vector<T> nan(static_cast<std::size_t>(m.rows() * m.cols()), std::numeric_limits<T>::quiet_NaN());
  m = DenseMatrix<T>(m.executor(), m.rows(), m.cols(), std::span<const T>(nan));
}

// OpenBLAS's threads spin for a while after a call (THREAD_TIMEOUT, about
// 0.1 s): the next kernel timed would share the cores with them (measured:
// our float GEMM at n = 128 took 16 ms instead of 0.05 ms right after an
// OpenBLAS double GEMM on 2 cores). Let them go to sleep first.
void rest_after_openblas() { std::this_thread::sleep_for(std::chrono::milliseconds(300)); }

std::vector<long long> gemm_sizes(const Context& c) {
  if (c.quick) return c.gpu ? std::vector<long long>{512, 1024} : std::vector<long long>{128, 256};
  return c.gpu ? std::vector<long long>{1024, 2048, 4096, 8192} : std::vector<long long>{256, 512, 1024, 2048};
}

template <class T>
void bench_gemm(Context& c, long long n) {
  constexpr bool is_double = std::is_same_v<T, double>;
  const double bytes = 3.0 * static_cast<double>(n) * static_cast<double>(n) * sizeof(T);
  require_host_memory(static_cast<std::size_t>(2 * bytes), "bench --dense GEMM operands");
  const auto ah = generated_values<T>(n * n, 1), bh = generated_values<T>(n * n, 2);
  const DenseMatrix<T> a(c.ex, n, n, std::span<const T>(ah)), b(c.ex, n, n, std::span<const T>(bh));
  DenseMatrix<T> out(c.ex, n, n);
  std::vector<std::pair<std::string, std::string>> kernels;  // algorithm, library
  if (c.gpu) {
    kernels = {{"untiled", "hsparse"}, {"tiled", "hsparse"}, {"register", "hsparse"}, {is_double ? "tensor" : "tf32", "hsparse"}, {"cublas", "cublas"}};
    if (!is_double) kernels.push_back({"cublas-tf32", "cublas"});
  } else {
    if (n <= 512) kernels.push_back({"reference", "hsparse"});  // a triple loop: minutes beyond 512 on a few cores
    kernels.push_back({"blocked", "hsparse"});
    if (have_eigen_gemm()) kernels.push_back({"eigen", "eigen"});
    if (have_openblas_gemm()) kernels.push_back({"openblas", "openblas"});
  }
  const GemmShape shape{n, n, n};
  for (const auto& [algorithm, library] : kernels) {
    if (*c.stop) return;
    GemmOptions go;
    go.algorithm = algorithm;
    go.tile = cuda::gemm_tile_for(algorithm, go.tile);  // the tile that runs, for q
    const auto run = [&] {
      if (algorithm == "eigen") eigen_gemm<T>(Op::none, Op::none, T(1), a.view(), b.view(), T(0), out.view());
      else if (algorithm == "openblas") openblas_gemm<T>(Op::none, Op::none, T(1), a.view(), b.view(), T(0), out.view());
      else gemm<T>(Op::none, Op::none, T(1), a, b, T(0), out, go);
    };
    poison(out);  // beta = 0 must not read C, and every entry must be written
    run();
    c.sync();
    const bool tf32 = algorithm == "tf32" || algorithm == "cublas-tf32";
    const auto check = check_gemm_samples<T>(Op::none, Op::none, n, n, n, 1.0, ah, bh, 0.0, {}, out.to_host(), 256, tf32);
    DenseRow r{"gemm", is_double ? "double" : "float", std::to_string(n) + "^3", algorithm, library, static_cast<double>(n)};
    if (check.failed) {
      r.status = "wrong: " + std::to_string(check.failed) + " of " + std::to_string(check.samples) + " sampled entries beyond their bound";
      c.status = 1;
    }
    const auto t = time_calls(c, run, 3);
    if (library == "openblas") rest_after_openblas();
    r.seconds = t.median_s;
    r.gflops = 2.0 * std::pow(static_cast<double>(n), 3) / t.median_s * 1e-9;
    r.q = gemm_algorithm_intensity<T>(algorithm, go.tile, shape);
    attach_peak(c, r, is_double);
    add_row(c, r);
  }
}

// V^T W and V S with V, W of n x k (S k x k): ours against the baseline's
// GEMM of the same shape; the products are compared with each other. On the
// GPU also a copy of V's bytes into Y (cudaMemcpy): V S reads and writes as
// much, and mixed read/write traffic does not reach the read bandwidth.


void bench_tall_skinny(Context& c, long long n, long long k) {
  using T = double;
  require_host_memory(static_cast<std::size_t>(3 * n * k * sizeof(T)), "bench --dense tall-skinny operands");
  const auto vh = generated_values<T>(n * k, 4), wh = generated_values<T>(n * k, 5);
  const DenseMatrix<T> v(c.ex, n, k, std::span<const T>(vh)), w(c.ex, n, k, std::span<const T>(wh));
  DenseMatrix<T> s(c.ex, k, k), y(c.ex, n, k);
  const std::string baseline = c.gpu ? "cublas" : have_openblas_gemm() ? "openblas" : have_eigen_gemm() ? "eigen" : "";
  const auto product = [&](const std::string& who, bool dot) {
    if (who == "hsparse") {
      if (dot) tall_skinny_dot<T>(1.0, v, w, 0.0, s);
      else tall_skinny_update<T>(1.0, v, s, 0.0, y);
    } else if (who == "cublas") {
      GemmOptions go{"cublas", {}};
      if (dot) gemm<T>(Op::transpose, Op::none, 1.0, v, w, 0.0, s, go);
      else gemm<T>(Op::none, Op::none, 1.0, v, s, 0.0, y, go);
    } else {
      const auto f = who == "openblas" ? openblas_gemm<T> : eigen_gemm<T>;
      if (dot) f(Op::transpose, Op::none, 1.0, v.view(), w.view(), 0.0, s.view());
      else f(Op::none, Op::none, 1.0, v.view(), s.view(), 0.0, y.view());
    }
  };
  for (bool dot : {true, false}) {
    std::vector<T> results[2];
    const std::string libraries[2] = {"hsparse", baseline};
    for (int i = 0; i < 2 && !libraries[i].empty(); ++i) {
      if (*c.stop) return;
      if (!dot) s = DenseMatrix<T>(c.ex, k, k, std::span<const T>(generated_values<T>(k * k, 6)));
      product(libraries[i], dot);
      c.sync();
      results[i] = dot ? s.to_host() : y.to_host();
      const auto t = time_calls(c, [&] { product(libraries[i], dot); }, 5);
      if (libraries[i] == "openblas") rest_after_openblas();
      DenseRow r{"tall-skinny", "double", std::string(dot ? "V^T W" : "V S") + " n=" + fmt("%.0e", static_cast<double>(n)) + " k=" + std::to_string(k),
                 dot ? "V^T W" : "V S", libraries[i], static_cast<double>(k)};
      r.seconds = t.median_s;
      r.gflops = 2.0 * static_cast<double>(n) * static_cast<double>(k) * static_cast<double>(k) / t.median_s * 1e-9;
      r.gbytes = 2.0 * static_cast<double>(n * k) * sizeof(T) / t.median_s * 1e-9;  // V and W read (V read, Y written) once
      r.q = static_cast<double>(k);  // 2 n k^2 flops over 2 n k words
      r.read_bandwidth = c.read_bandwidth;
      if (i == 1) {
        double diff = 0, scale = 0;
        for (std::size_t e = 0; e < results[0].size(); ++e) {
          diff = std::max(diff, std::abs(results[0][e] - results[1][e]));
          scale = std::max(scale, std::abs(results[1][e]));
        }
        if (!(diff <= 1e-10 * std::max(1.0, scale))) {
          r.status = "differs from " + baseline + " by " + fmt("%.3g", diff) + " (scale " + fmt("%.3g", scale) + ")";
          c.status = 1;
        }
      }
      add_row(c, r);
    }
  }
  if (c.gpu && !*c.stop) {  // V S's ceiling: the same bytes read and written by the driver's device-to-device copy
    const auto t = time_calls(c, [&] { c.ex->copy(y.data(), v.data(), static_cast<std::size_t>(n * k) * sizeof(T)); }, 5);
    DenseRow r{"tall-skinny", "double", "V S n=" + fmt("%.0e", static_cast<double>(n)) + " k=" + std::to_string(k), "V S", kCopyLibrary,
               static_cast<double>(k)};
    r.seconds = t.median_s;
    r.gbytes = 2.0 * static_cast<double>(n * k) * sizeof(T) / t.median_s * 1e-9;
    r.read_bandwidth = c.read_bandwidth;
    add_row(c, r);
  }
}

std::vector<std::string> spmm_matrices(const Context& c) {
  if (c.quick || !c.gpu) {
    return {"stencil3d:points=27,n=40", "fem:block=3,n=20", "powerlaw:min=2.5,rows=200000", "circuit:n=300000", "random:per_row=10,rows=300000",
            "shortwide:rows=2000,per_row=2600"};
  }
  return {"stencil3d:points=27,n=100", "fem:block=3,n=48", "powerlaw:min=2.5,rows=2000000", "circuit:n=3000000", "random:per_row=10,rows=3000000",
          "shortwide:rows=6000,per_row=2600"};
}

// A format whose SpMM at the first k measured is this many times slower than
// the fastest format's is not timed at the larger k on that matrix: its rows
// would say nothing new, and they cost minutes (SELL-C-sigma on the power-law
// and circuit matrices: one thread walks a row of ~10^5 entries, 47 ms
// against CSR's 0.13 ms at k = 1; their k SpMVs at k = 32 took seconds per
// call, and the bench ran past 300 s on three matrices: H100).
constexpr double kHopelessSlowdown = 20;

void drop_hopeless_formats(Context& c, const std::string& spec, long long k, const std::vector<std::pair<Format, double>>& spmm_seconds,
                           std::set<Format>& dropped) {
  double fastest = std::numeric_limits<double>::infinity();
  for (const auto& [f, s] : spmm_seconds) fastest = std::min(fastest, s);
  for (const auto& [f, s] : spmm_seconds) {
    if (!(s > kHopelessSlowdown * fastest)) continue;
    dropped.insert(f);
    c.spmm_notes.push_back(spec + ": " + std::string(to_string(f)) + " not timed after k = " + std::to_string(k) + ", where its SpMM took " +
                           fmt("%.0f", s / fastest) + "x the fastest format's time (more than " + fmt("%.0f", kHopelessSlowdown) + "x)");
    std::fprintf(stderr, "  %s\n", c.spmm_notes.back().c_str());
  }
}

// Y = A X for k = 1 .. 32 through a plan of each format with an SpMM
// kernel (CSR, SELL-C-sigma, BCSR; a format refusing the matrix, e.g.
// BCSR's fill limit, is skipped with a note): its SpMM, k separate SpMVs
// of the same plan, and (once per matrix and k) cuSPARSE SpMM on CSR. Every
// SpMM result is checked against the reference SpMM before it is timed.
void bench_spmm(Context& c, const std::string& spec) {
  using V = double;
  using I = std::int32_t;
  Stopwatch clock;  // progress lines: where a long run spends its time
  const auto a = io::load_matrix<V, I>(spec);
  const double nnz = static_cast<double>(a.nnz());
  std::vector<std::pair<Format, SpmvPlan<V, I>>> plans;
  for (Format f : {Format::csr, Format::sell, Format::bcsr}) {
    SpmvOptions o;
    o.format = f;
    try {
      plans.emplace_back(f, SpmvPlan<V, I>(c.ex, a, o));
    } catch (const Error& e) {
      std::fprintf(stderr, "  %s: no %s SpMM: %s\n", spec.c_str(), std::string(to_string(f)).c_str(), e.what());
    }
  }
  std::optional<cuda::DeviceCsr<V, I>> dev;  // cuSPARSE's copy of A, uploaded once for every k
  if (c.gpu) dev = cuda::DeviceCsr<V, I>::upload(a);
  std::printf("    %lld x %lld, %.0f nonzeros; loaded, uploaded and planned in %.1f s\n", static_cast<long long>(a.rows), static_cast<long long>(a.cols), nnz,
              clock.seconds());
  std::set<Format> dropped;  // formats no longer timed on this matrix (drop_hopeless_formats)
  // The quick run (CI, CPU) keeps the goals' k = 8: three formats' SpMVs at six k doubled its time.
  const std::vector<long long> ks = c.quick ? std::vector<long long>{8} : std::vector<long long>{1, 2, 4, 8, 16, 32};
  for (long long k : ks) {
    if (*c.stop) return;
    clock.restart();
    require_host_memory(static_cast<std::size_t>(3 * (a.rows + a.cols) * k * sizeof(V)), "bench --dense SpMM vectors");
    const auto xh = generated_values<V>(a.cols * k, 7);
    const DenseMatrix<V> x(c.ex, a.cols, k, std::span<const V>(xh));
    DenseMatrix<V> y(c.ex, a.rows, k);
    std::vector<V> expect(static_cast<std::size_t>(a.rows * k));
    reference::csr_spmm<V, I>(V(1), a, {xh.data(), a.cols, k, std::max<long long>(1, a.cols)}, V(0), {expect.data(), a.rows, k, std::max<long long>(1, a.rows)});
    const double model = spmm_bytes(a.rows, a.cols, nnz, static_cast<double>(k), sizeof(V), sizeof(I), false);
    const auto row = [&](const std::string& algorithm, const std::string& library, const TimingSummary& t, double bytes) {
      DenseRow r{"spmm", "double", spec + " k=" + std::to_string(k), algorithm, library, static_cast<double>(k)};
      r.seconds = t.median_s;
      r.gflops = 2 * nnz * static_cast<double>(k) / t.median_s * 1e-9;
      r.gbytes = bytes / t.median_s * 1e-9;
      r.q = 2 * nnz * static_cast<double>(k) / (bytes / sizeof(V));
      r.read_bandwidth = c.read_bandwidth;
      return r;
    };
    std::vector<std::pair<Format, double>> spmm_seconds;  // this k's SpMM of each format
    for (const auto& [f, plan] : plans) {
      if (dropped.contains(f)) continue;
      const std::string name(to_string(f));
      poison(y);
      plan.apply(V(1), x, V(0), y);
      c.sync();
      const auto got = y.to_host();
      double worst = 0;
      for (std::size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::abs(got[i] - expect[i]) / std::max(1.0, std::abs(expect[i])));
      DenseRow ours = row(name + " spmm", "hsparse", time_calls(c, [&] { plan.apply(V(1), x, V(0), y); }, 5), model);
      if (!(worst <= 1e-10)) {
        ours.status = "wrong: relative difference " + fmt("%.3g", worst) + " from the reference SpMM";
        c.status = 1;
      }
      add_row(c, ours);
      spmm_seconds.emplace_back(f, ours.seconds);
      const auto t_cols = time_calls(
          c,
          [&] {
            for (long long j = 0; j < k; ++j) plan.apply(V(1), x.column(j), V(0), y.column(j));
          },
          5);
      add_row(c, row(name + " " + std::to_string(k) + " SpMVs", "hsparse", t_cols,
                     static_cast<double>(k) * spmm_bytes(a.rows, a.cols, nnz, 1, sizeof(V), sizeof(I), false)));
    }
    drop_hopeless_formats(c, spec, k, spmm_seconds, dropped);
    Stopwatch baseline_clock;
    if (c.gpu) {  // the fastest correct variant of cuSPARSE's SpMM
      const auto best = fastest_cusparse_spmm<V, I>(*c.ex, *dev, a, xh, x, y, expect, c.min_time, 5, c.stop);
      if (best) add_row(c, row("cusparse-spmm (" + best->variant + ")", "cusparse", best->timing, model));
    }
    if (c.gpu) std::printf("    k = %lld: %.1f s (cuSPARSE's variants %.1f s)\n", k, clock.seconds(), baseline_clock.seconds());
    else std::printf("    k = %lld: %.1f s\n", k, clock.seconds());
    std::fflush(stdout);
  }
}

}  // namespace

const std::set<std::string>& dense_bench_parts() {
  static const std::set<std::string> parts = {"gemm", "tall-skinny", "spmm"};
  return parts;
}

int run_dense_benchmark(const DenseBenchOptions& opt, const std::atomic<bool>& stop) {
  std::string valid;
  for (const auto& part : dense_bench_parts()) valid += (valid.empty() ? "" : ", ") + part;
  for (const auto& part : opt.parts) {
    if (!dense_bench_parts().count(part)) throw Error(ErrorCode::invalid_argument, "--dense-parts: unknown part '" + part + "' (valid: " + valid + ")");
  }
  if (opt.parts.empty()) throw Error(ErrorCode::invalid_argument, "--dense-parts: name at least one part (" + valid + ")");
  Context c;
  c.stop = &stop;
  c.gpu = tool::resolve_backend(opt.backend) == "cuda";
  c.ex = make_executor(c.gpu ? "cuda" : "cpu");
  c.quick = opt.quick;
  c.min_time = opt.quick ? 0.02 : 0.2;
  std::string device = c.ex->description();
  if (c.gpu) {
    c.peaks = cuda::arithmetic_peaks();
    c.read_bandwidth = cuda::measure_device_bandwidth(cuda_executor(*c.ex, "the bandwidth test")).read_bytes_per_s;
  }
  if (!c.gpu) c.read_bandwidth = measure_read_bandwidth(opt.quick ? std::size_t(64) << 20 : 0, opt.quick ? 3 : 10).read_bytes_per_s;
  std::printf("bench --dense on %s (read bandwidth %.0f GB/s)\n", device.c_str(), c.read_bandwidth * 1e-9);
  if (const std::string why = c.gpu ? "" : openblas_handicap(); !why.empty()) std::fprintf(stderr, "hsparse bench --dense: %s\n", why.c_str());
  const auto runs = [&](const char* part) { return opt.parts.count(part) > 0; };
  if (runs("gemm")) {
    std::printf("[gemm] GEMM\n");
    for (long long n : gemm_sizes(c)) {
      bench_gemm<double>(c, n);
      bench_gemm<float>(c, n);
    }
  }
  if (runs("tall-skinny")) {
    std::printf("[tall-skinny] V^T W and V S\n");
    const long long tall_n = c.quick ? 100000 : c.gpu ? 10000000 : 2000000;
    for (long long k : {1LL, 2LL, 4LL, 8LL, 16LL, 32LL}) bench_tall_skinny(c, tall_n, k);
  }
  if (runs("spmm")) {
    std::printf("[spmm] SpMM\n");
    for (const auto& spec : spmm_matrices(c)) {
      if (stop) break;
      std::printf("  %s\n", spec.c_str());
      bench_spmm(c, spec);
    }
  }
  c.timing_mode = timing_mode(*c.ex);
  c.largest_gemm_n = gemm_sizes(c).back();
  write_dense_report(c, opt.out_dir, device);
  std::printf("report: %s/dense.md (data: dense.json; plots: plots/gemm_*.png, plots/tall_skinny.png)\n", opt.out_dir.c_str());
  return stop ? 130 : c.status;
}

}  // namespace hsparse::bench
