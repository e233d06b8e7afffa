// hsparse spmm MATRIX --k K: Y = A X for a dense X of k columns with the
// plan's SpMM (CSR: A read once per 32 columns), next to the same product
// as k separate SpMVs of the same plan, with the byte model of each and
// the achieved GB/s; --check compares Y against the reference SpMM.
#include <cstdio>
#include <limits>

#include "bench/call_timing.hpp"
#include "bench/cusparse_spmm_best.hpp"
#include "commands.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/backends/cuda/cusparse_spmv.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/kernels/csr_spmm.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "matrix_dispatch.hpp"
#include "option_checks.hpp"

namespace hsparse::tool {

namespace {

struct SpmmCommandOptions {
  std::string source, backend = "auto", format = "csr", kernel;
  int k = 8, repetitions = 5;
  bool check = false, single = false;
  double min_time_s = 0.2;
};

template <class V, class I>
int run_spmm(const SpmmCommandOptions& o, const Csr<V, I>& a) {
  const ExecutorPtr ex = make_executor(o.backend);
  SpmvOptions po;
  po.format = parse_format(o.format);
  po.kernel = o.kernel;
  const SpmvPlan<V, I> plan(ex, a, po);
  const long long k = o.k;
  std::vector<V> xh(static_cast<std::size_t>(a.cols * k));
  for (std::size_t i = 0; i < xh.size(); ++i) xh[i] = static_cast<V>(1.0 + static_cast<double>((i * 7919) % 1000) / 1000.0);
  const DenseMatrix<V> x(ex, a.cols, k, std::span<const V>(xh));
  // Y starts as NaN: an entry the SpMM does not write fails --check.
  DenseMatrix<V> y(ex, a.rows, k,
                   std::span<const V>(std::vector<V>(static_cast<std::size_t>(a.rows * k), V(std::numeric_limits<real_type_t<V>>::quiet_NaN()))));
  const double nnz = static_cast<double>(a.nnz()), flops = 2.0 * nnz * static_cast<double>(k);
  const double bytes_spmm = spmm_bytes(a.rows, a.cols, nnz, static_cast<double>(k), sizeof(V), sizeof(I), false);
  const double bytes_cols = static_cast<double>(k) * spmm_bytes(a.rows, a.cols, nnz, 1, sizeof(V), sizeof(I), false);
  // Each line as soon as it is measured: on a large matrix the whole run takes tens of seconds.
  std::printf("%s: %lld x %lld, %zu nonzeros, %s, k = %lld, %s/%s\n", o.source.c_str(), static_cast<long long>(a.rows), static_cast<long long>(a.cols),
              a.nnz(), type_name<V>(), k, to_string(ex->backend()), plan.description().c_str());
  std::fflush(stdout);
  plan.apply(V(1), x, V(0), y);  // the checked product: the first, into the NaN
  const std::vector<V> result = y.to_host();
  const TimingSummary t_spmm = bench::time_calls(*ex, [&] { plan.apply(V(1), x, V(0), y); }, o.min_time_s, o.repetitions);
  std::printf("  spmm (%s)       %9.3f ms  %8.1f GFLOP/s  model %.3g bytes, %7.1f GB/s\n", plan.has_spmm() ? "one pass per 32 columns" : "column by column",
              t_spmm.median_s * 1e3, flops / t_spmm.median_s * 1e-9, bytes_spmm, bytes_spmm / t_spmm.median_s * 1e-9);
  std::fflush(stdout);
  const TimingSummary t_cols = bench::time_calls(
      *ex,
      [&] {
        for (long long j = 0; j < k; ++j) plan.apply(V(1), x.column(j), V(0), y.column(j));
      },
      o.min_time_s, o.repetitions);
  std::printf("  %lld separate SpMVs          %9.3f ms  %8.1f GFLOP/s  model %.3g bytes, %7.1f GB/s\n", k, t_cols.median_s * 1e3,
              flops / t_cols.median_s * 1e-9, bytes_cols, bytes_cols / t_cols.median_s * 1e-9);
  std::printf("  spmm / separate SpMVs: %.2fx\n", t_cols.median_s / t_spmm.median_s);
  std::fflush(stdout);
  std::vector<V> expect(result.size());
  reference::csr_spmm<V, I>(V(1), a, {xh.data(), a.cols, k, std::max<long long>(1, a.cols)}, V(0), {expect.data(), a.rows, k, std::max<long long>(1, a.rows)});
  if (ex->backend() == Backend::cuda) {  // the baseline: the fastest correct cuSPARSE SpMM on the same CSR and X
    const auto dev = cuda::DeviceCsr<V, I>::upload(a);
    const auto best = bench::fastest_cusparse_spmm<V, I>(*ex, dev, a, xh, x, y, expect, o.min_time_s, o.repetitions);
    if (best) {
      const double t_cu = best->timing.median_s, bytes_cu = spmm_bytes(a.rows, a.cols, nnz, static_cast<double>(k), sizeof(V), sizeof(I), false);
      std::printf("  cuSPARSE SpMM (CSR, %s) %9.3f ms  %8.1f GFLOP/s  model %.3g bytes, %7.1f GB/s\n", best->variant.c_str(), t_cu * 1e3,
                  flops / t_cu * 1e-9, bytes_cu, bytes_cu / t_cu * 1e-9);
      std::printf("  spmm / fastest cuSPARSE SpMM: %.2fx\n", t_cu / t_spmm.median_s);
    } else {
      std::printf("  cuSPARSE SpMM: no variant ran correctly (see above)\n");
    }
  }
  if (!o.check) return 0;
  double worst = 0;
  for (std::size_t i = 0; i < expect.size(); ++i) {
    worst = std::max(worst, std::abs(std::complex<double>(result[i]) - std::complex<double>(expect[i])) /
                                std::max(1.0, std::abs(std::complex<double>(expect[i]))));
  }
  const double bound = std::is_same_v<real_type_t<V>, float> ? 1e-4 : 1e-10;
  std::printf("check against the reference SpMM: %s (largest relative difference %.3g, bound %.0e)\n", worst <= bound ? "PASSED" : "FAILED", worst, bound);
  return worst <= bound ? 0 : 1;
}

}  // namespace

Action add_spmm_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("spmm", "Y = A X for a dense X of k columns: the plan's SpMM against k separate SpMVs");
  auto o = std::make_shared<SpmmCommandOptions>();
  cmd->add_option("matrix", o->source, "Matrix Market file, .hsp file or generator spec")->required();
  cmd->add_option("--k", o->k, "Columns of X")->check(integer_in(1, 4096))->capture_default_str();
  add_backend_option(cmd, o->backend);
  cmd->add_option("--format", o->format, "Storage format")->check(CLI::IsMember(format_name_list()))->capture_default_str();
  cmd->add_option("--kernel", o->kernel, "The format's kernel for the SpMVs (see hsparse spmv --help)");
  cmd->add_flag("--check", o->check, "Compare Y with the reference SpMM (exit 1 if it differs)");
  cmd->add_flag("--single", o->single, "Single precision");
  cmd->add_option("--repetitions", o->repetitions, "At least this many timed runs")->check(integer_in(1, 1000000))->capture_default_str();
  cmd->add_option("--min-time", o->min_time_s, "Time at least this many seconds")->check(real_above_zero(false))->capture_default_str();
  return [o]() {
    int status = 0;
    with_matrix(o->source, o->single ? Precision::single : Precision::double_, [&](const auto& a) { status = run_spmm(*o, a); });
    return status;
  };
}

}  // namespace hsparse::tool
