// hsparse gemm: C = alpha op(A) op(B) + beta C on generated m x k and k x n
// matrices, with any of the backend's GEMM kernels; reports the median
// time, GFLOP/s and the kernel's intensity q (Owens: ~1 untiled, ~TILE
// tiled, ~ the block's outputs per side register-blocked), and with --check
// compares sampled entries of C against double-precision dot products.
#include <cmath>
#include <cstdio>

#include "commands.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/host_system.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/core/types.hpp"
#include "bench/dense_baselines.hpp"
#include "hsparse/dense/gemm.hpp"
#include "option_checks.hpp"

namespace hsparse::tool {

namespace {

struct GemmCommandOptions {
  long long m = 1024, n = 1024, k = 1024;
  bool transa = false, transb = false, single = false, check = false;
  std::string backend = "auto", algorithm = "auto", tile;  // tile "": the kernel's first compiled tile
  double alpha = 1, beta = 0, min_time_s = 0.2;
  int repetitions = 5, samples = 1000;
};

// Deterministic values in [-0.5, 0.5): the same matrices on every machine.
template <class T>
std::vector<T> generated(long long count, long long seed) {
  std::vector<T> v(static_cast<std::size_t>(count));
  for (long long i = 0; i < count; ++i) v[static_cast<std::size_t>(i)] = static_cast<T>(((i * 7919 + seed * 104729) % 1000) / 1000.0 - 0.5);
  return v;
}

// --tile applies to the kernels with tiles, and must be of their kind.
cuda::GemmTile tile_option(const std::string& text, const std::string& algorithm) {
  const bool tensor = algorithm == "tensor" || algorithm == "tf32", simt = algorithm == "register";
  if (text.empty()) return tensor ? cuda::gemm_tensor_tiles().front() : cuda::gemm_tiles().front();
  if (!tensor && !simt) throw Error(ErrorCode::invalid_argument, "--tile applies to --algorithm register, tensor or tf32, not " + algorithm);
  const cuda::GemmTile t = cuda::parse_gemm_tile(text, "--tile");
  if ((t.bk == 0) != tensor) {
    throw Error(ErrorCode::invalid_argument, "--tile " + text + ": " + algorithm + " takes " + (tensor ? "BMxBN/WMxWN, e.g. 128x128/64x32" : "BMxBNxBK/TMxTN, e.g. 64x64x16/4x4"));
  }
  return t;
}

std::string tile_list(const std::vector<cuda::GemmTile>& tiles) {
  std::string names;
  for (const auto& t : tiles) names += (names.empty() ? "" : ", ") + t.name();
  return names;
}

template <class T>
int run_gemm(const GemmCommandOptions& o) {
  const ExecutorPtr ex = make_executor(o.backend);
  const Op ta = o.transa ? Op::transpose : Op::none, tb = o.transb ? Op::transpose : Op::none;
  const long long ar = o.transa ? o.k : o.m, ac = o.transa ? o.m : o.k, br = o.transb ? o.n : o.k, bc = o.transb ? o.k : o.n;
  const double bytes = static_cast<double>(ar * ac + br * bc + o.m * o.n) * sizeof(T);
  require_host_memory(static_cast<std::size_t>(bytes), "gemm operands on the host");
  const auto ah = generated<T>(ar * ac, 1), bh = generated<T>(br * bc, 2);
  const std::vector<T> ch = o.beta == 0 ? std::vector<T>(static_cast<std::size_t>(o.m * o.n)) : generated<T>(o.m * o.n, 3);
  const DenseMatrix<T> a(ex, ar, ac, std::span<const T>(ah)), b(ex, br, bc, std::span<const T>(bh));
  DenseMatrix<T> c(ex, o.m, o.n, std::span<const T>(ch));
  const std::string algorithm = o.algorithm == "auto" ? default_gemm_algorithm<T>(ex->backend()) : o.algorithm;
  GemmOptions go;
  go.algorithm = algorithm;
  go.tile = tile_option(o.tile, algorithm);
  const T alpha = static_cast<T>(o.alpha), beta = static_cast<T>(o.beta);
  // "eigen": the CPU baseline (bench/dense_baselines.hpp), not one of ours.
  const bool eigen = o.algorithm == "eigen";
  if (eigen && ex->backend() != Backend::cpu) throw Error(ErrorCode::invalid_argument, "--algorithm eigen is a CPU baseline (use --backend cpu)");
  auto run = [&] {
    if (eigen) {
      DenseView<T> cv = c.view();
      bench::eigen_gemm<T>(ta, tb, alpha, a.view(), b.view(), beta, cv);
    } else {
      gemm<T>(ta, tb, alpha, a, b, beta, c, go);
    }
  };
  // The first product is the checked one (beta C with C as generated).
  run();
  ex->synchronize();
  const std::vector<T> result = c.to_host();
  const TimingSummary t = time_for(run, o.min_time_s, o.repetitions, [&] { ex->synchronize(); });
  const GemmShape shape{o.m, o.n, o.k};
  double q = 0;
  if (algorithm == "untiled") q = gemm_intensity(shape, 1, 1);
  else if (algorithm == "tiled") q = gemm_intensity(shape, 16, 16);
  else if (algorithm == "register" || algorithm == "tensor" || algorithm == "tf32") q = gemm_intensity(shape, go.tile.bm, go.tile.bn);
  // Tall-skinny: V and W (or V and Y) stream once: (small + small) x long words.
  const bool tall = algorithm == "tall-skinny";
  const double small1 = tall && o.transa ? static_cast<double>(o.m) : static_cast<double>(o.k), small2 = static_cast<double>(o.n);
  const double long_dim = tall && o.transa ? static_cast<double>(o.k) : static_cast<double>(o.m);
  const double tall_bytes = (small1 + small2) * long_dim * sizeof(T);
  if (tall) q = 2 * small1 * small2 / (small1 + small2);
  const double flops = 2.0 * static_cast<double>(o.m) * static_cast<double>(o.n) * static_cast<double>(o.k);
  const bool tiled_kernel = algorithm == "register" || algorithm == "tensor" || algorithm == "tf32";
  const bool tf32 = algorithm == "tf32" || algorithm == "cublas-tf32";
  std::printf("gemm %s/%s%s: %lld x %lld x %lld, %s%s, %s%s: median %.3f ms over %d runs, %.1f GFLOP/s", to_string(ex->backend()), algorithm.c_str(),
              tiled_kernel ? (" " + go.tile.name()).c_str() : "", o.m, o.n, o.k, type_name<T>(), tf32 ? " with TF32 inputs" : "", to_string(ta), to_string(tb),
              t.median_s * 1e3, t.repetitions, flops / t.median_s * 1e-9);
  if (q > 0) std::printf(", q = %.1f flops/word", q);
  if (tall) std::printf(", %.1f GB/s of the operands read once", tall_bytes / t.median_s * 1e-9);
  std::printf("\n");
  if (!o.check) return 0;
  // Sampled entries against double-precision dot products; bound: 4 k eps
  // sum |a||b| (the dot product's forward error) plus beta's rounding; with
  // TF32 inputs also 2 u_tf32 sum |a||b| (each input rounded to 10 bits, u = 2^-11).
  const double eps = std::numeric_limits<real_type_t<T>>::epsilon(), input_rounding = tf32 ? 2 * std::ldexp(1.0, -11) : 0.0;
  double worst = 0;
  int failed = 0;
  unsigned long long state = 12345;
  const int samples = static_cast<int>(std::min<long long>(o.samples, o.m * o.n));
  for (int s = 0; s < samples; ++s) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const long long i = static_cast<long long>((state >> 33) % static_cast<unsigned long long>(o.m));
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const long long j = static_cast<long long>((state >> 33) % static_cast<unsigned long long>(o.n));
    double dot = 0, mag = 0;
    for (long long p = 0; p < o.k; ++p) {
      const double x = o.transa ? ah[static_cast<std::size_t>(p + i * ar)] : ah[static_cast<std::size_t>(i + p * ar)];
      const double y = o.transb ? bh[static_cast<std::size_t>(j + p * br)] : bh[static_cast<std::size_t>(p + j * br)];
      dot += x * y;
      mag += std::abs(x * y);
    }
    const double c0 = ch[static_cast<std::size_t>(i + j * o.m)];
    const double expect = o.alpha * dot + o.beta * c0;
    const double bound = (4 * (static_cast<double>(o.k) + 2) * eps + input_rounding) * (std::abs(o.alpha) * mag + std::abs(o.beta * c0)) + 1e-300;
    const double err = std::abs(static_cast<double>(result[static_cast<std::size_t>(i + j * o.m)]) - expect);
    worst = std::max(worst, err / bound);
    failed += err > bound || !std::isfinite(err);
  }
  std::printf("check: %d sampled entries against double-precision dot products%s: %s (worst at %.3g of its bound)\n", samples,
              tf32 ? " (bound widened for TF32 inputs)" : "", failed ? "FAILED" : "PASSED", worst);
  return failed ? 1 : 0;
}

}  // namespace

Action add_gemm_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("gemm", "Dense C = alpha op(A) op(B) + beta C with a chosen GEMM kernel (timing, GFLOP/s, --check)");
  auto o = std::make_shared<GemmCommandOptions>();
  cmd->add_option("--m", o->m, "Rows of C")->check(integer_in(0, 1LL << 40))->capture_default_str();
  cmd->add_option("--n", o->n, "Columns of C")->check(integer_in(0, 1LL << 40))->capture_default_str();
  cmd->add_option("--k", o->k, "Inner dimension")->check(integer_in(0, 1LL << 40))->capture_default_str();
  cmd->add_flag("--transa", o->transa, "op(A) = A^T (A stored k x m)");
  cmd->add_flag("--transb", o->transb, "op(B) = B^T (B stored n x k)");
  add_backend_option(cmd, o->backend);
  cmd->add_option("--algorithm", o->algorithm,
                  "auto (CPU blocked; GPU tensor for double, register for float), or CPU: blocked, reference, eigen (the baseline); GPU: register, "
                  "tensor (double, FP64 tensor cores), tf32 (float, inputs rounded to TF32: opt-in), tiled, untiled, cublas and cublas-tf32 (the "
                  "baselines); both: tall-skinny (V^T W with --transa, V S without)")
      ->capture_default_str();
  cmd->add_option("--tile", o->tile,
                  "GPU tile (default: the kernel's first): register BMxBNxBK/TMxTN (" + tile_list(cuda::gemm_tiles()) + "); tensor, tf32 BMxBN/WMxWN (" +
                      tile_list(cuda::gemm_tensor_tiles()) + ")");
  cmd->add_option("--alpha", o->alpha, "alpha")->capture_default_str();
  cmd->add_option("--beta", o->beta, "beta (0: C is not read)")->capture_default_str();
  cmd->add_flag("--single", o->single, "Single precision (float)");
  cmd->add_flag("--check", o->check, "Compare sampled entries against double-precision dot products (exit 1 if one fails)");
  cmd->add_option("--samples", o->samples, "Entries --check compares")->check(integer_in(1, 100000000))->capture_default_str();
  cmd->add_option("--repetitions", o->repetitions, "At least this many timed runs")->check(integer_in(1, 1000000))->capture_default_str();
  cmd->add_option("--min-time", o->min_time_s, "Time at least this many seconds")->check(real_above_zero(false))->capture_default_str();
  return [o]() { return o->single ? run_gemm<float>(*o) : run_gemm<double>(*o); };
}

}  // namespace hsparse::tool
