// hsparse gemm: C = alpha op(A) op(B) + beta C on generated m x k and k x n
// matrices, with any of the backend's GEMM kernels; reports the median
// time, GFLOP/s and the kernel's intensity q (Owens: ~1 untiled, ~TILE
// tiled, ~ the block's outputs per side register-blocked), and with --check
// compares sampled entries of C against double-precision dot products.
#include <cmath>
#include <cstdio>

#include "bench/call_timing.hpp"
#include "commands.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/host_system.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/core/types.hpp"
#include "bench/dense_baselines.hpp"
#include "bench/gemm_samples.hpp"
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

// --tile applies to the kernels with tiles, and must be of their kind.
cuda::GemmTile tile_option(const std::string& text, const std::string& algorithm) {
  const bool tensor = algorithm == "tensor" || algorithm == "tf32", simt = algorithm == "register";
  if (text.empty()) return cuda::gemm_tile_for(algorithm, cuda::GemmTile{});
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
  const auto ah = bench::generated_values<T>(ar * ac, 1), bh = bench::generated_values<T>(br * bc, 2);
  const std::vector<T> ch = o.beta == 0 ? std::vector<T>(static_cast<std::size_t>(o.m * o.n)) : bench::generated_values<T>(o.m * o.n, 3);
  const DenseMatrix<T> a(ex, ar, ac, std::span<const T>(ah)), b(ex, br, bc, std::span<const T>(bh));
  DenseMatrix<T> c(ex, o.m, o.n, std::span<const T>(ch));
  const std::string algorithm = o.algorithm == "auto" ? default_gemm_algorithm<T>(ex->backend()) : o.algorithm;
  GemmOptions go;
  go.algorithm = algorithm;
  go.tile = tile_option(o.tile, algorithm);
  const T alpha = static_cast<T>(o.alpha), beta = static_cast<T>(o.beta);
  // "eigen", "openblas": the CPU baselines (bench/dense_baselines.hpp), not ours.
  const bool eigen = o.algorithm == "eigen", openblas = o.algorithm == "openblas";
  if ((eigen || openblas) && ex->backend() != Backend::cpu) {
    throw Error(ErrorCode::invalid_argument, "--algorithm " + o.algorithm + " is a CPU baseline (use --backend cpu)");
  }
  auto run = [&] {
    if (eigen) {
      bench::eigen_gemm<T>(ta, tb, alpha, a.view(), b.view(), beta, c.view());
    } else if (openblas) {
      bench::openblas_gemm<T>(ta, tb, alpha, a.view(), b.view(), beta, c.view());
    } else {
      gemm<T>(ta, tb, alpha, a, b, beta, c, go);
    }
  };
  // The first product is the checked one (beta C with C as generated).
  run();
  ex->synchronize();
  const std::vector<T> result = c.to_host();
  const TimingSummary t = bench::time_calls(*ex, run, o.min_time_s, o.repetitions);
  const GemmShape shape{o.m, o.n, o.k};
  double q = bench::gemm_algorithm_intensity<T>(algorithm, go.tile, shape);
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
  const auto check = bench::check_gemm_samples<T>(ta, tb, o.m, o.n, o.k, o.alpha, ah, bh, o.beta, ch, result, o.samples, tf32);
  std::printf("check: %d sampled entries against double-precision dot products%s: %s (worst at %.3g of its bound)\n", check.samples,
              tf32 ? " (bound widened for TF32 inputs)" : "", check.failed ? "FAILED" : "PASSED", check.worst);
  return check.failed ? 1 : 0;
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
                  "auto (CPU blocked; GPU tensor for double, register for float), or CPU: blocked, reference, eigen and openblas (the baselines); GPU: register, "
                  "tensor (double, FP64 tensor cores), tf32 (float, inputs rounded to TF32: opt-in), tiled, untiled, cublas and cublas-tf32 (the "
                  "baselines); both: tall-skinny (V^T W with --transa, V S without)")
      ->capture_default_str();
  cmd->add_option("--tile", o->tile,
                  "GPU tile (default: register and tensor the first listed, tf32 " + cuda::gemm_tf32_default_tile().name() +
                      "): register BMxBNxBK/TMxTN (" + tile_list(cuda::gemm_tiles()) + "); tensor, tf32 BMxBN/WMxWN (" +
                      tile_list(cuda::gemm_tensor_tiles()) + ")");
  cmd->add_option("--alpha", o->alpha, "alpha")->check(finite_number())->capture_default_str();
  cmd->add_option("--beta", o->beta, "beta (0: C is not read)")->check(finite_number())->capture_default_str();
  cmd->add_flag("--single", o->single, "Single precision (float)");
  cmd->add_flag("--check", o->check, "Compare sampled entries against double-precision dot products (exit 1 if one fails)");
  cmd->add_option("--samples", o->samples, "Entries --check compares")->check(integer_in(1, 100000000))->capture_default_str();
  cmd->add_option("--repetitions", o->repetitions, "At least this many timed runs")->check(integer_in(1, 1000000))->capture_default_str();
  cmd->add_option("--min-time", o->min_time_s, "Time at least this many seconds")->check(real_above_zero(false))->capture_default_str();
  return [o]() { return o->single ? run_gemm<float>(*o) : run_gemm<double>(*o); };
}

}  // namespace hsparse::tool
