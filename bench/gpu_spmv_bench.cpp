// GPU SpMV benchmark: every hsparse CUDA kernel beside cuSPARSE on large
// generated matrices (a 27-point stencil, a power-law matrix, a bs = 3
// FEM-like matrix: ENVIRONMENT.md's cuSPARSE anchors). Each kernel's y is
// checked against the serial reference first; then the median of
// repeated launches (stream-synchronised) gives GFLOP/s and effective GB/s
// of minimum traffic (Reguly eq. (4)).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>

#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/performance/spmv_model.hpp"
#include "hsparse/plans/gpu_spmv_plan.hpp"

namespace {

using namespace hsparse;
using namespace hsparse::cuda;

template <class V>
std::string run_matrix(const Executor& ex, const std::string& source, int repetitions) {
  using I = std::int32_t;
  const auto a = io::load_matrix<V, I>(source);
  const double traffic = minimum_spmv_bytes(a.rows, a.cols, a.nnz(), sizeof(V), sizeof(I));
  std::vector<V> x(static_cast<std::size_t>(a.cols));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = V(1.0 + static_cast<double>((i * 7919) % 1000) / 1000.0);
  DeviceArray<V> d_x(x), d_y(static_cast<std::size_t>(a.rows));
  std::fprintf(stderr, "%s (%s): %d x %d, %zu nonzeros\n", source.c_str(), type_name<V>(), a.rows, a.cols, a.nnz());
  std::string md;
  std::vector<std::pair<std::string, GpuSpmvOptions>> variants;
  for (const char* k : {"cusparse-alg1", "cusparse-alg2", "vector", "scalar", "merge", "adaptive"}) variants.push_back({k, {Format::csr, k}});
  variants.push_back({"coo", {Format::coo, "segmented"}});
  variants.push_back({"coo-cusparse", {Format::coo, "cusparse"}});
  variants.push_back({"ell", {Format::ell}});
  variants.push_back({"ell-2-rows-per-thread", {Format::ell, "thread2"}});
  variants.push_back({"hyb", {Format::hyb}});
  {
    GpuSpmvOptions o{Format::ell};  // setup time of the host conversion, against the default device one
    o.convert_on_device = false;
    variants.push_back({"ell-host-converted", o});
  }
  variants.push_back({"dia", {Format::dia}});
  variants.push_back({"sell", {Format::sell, "thread"}});
  {
    GpuSpmvOptions o{Format::sell, "thread"};
    o.sigma = 256;
    variants.push_back({"sell-sorted", o});
  }
  variants.push_back({"sell-cusparse", {Format::sell, "cusparse"}});
  variants.push_back({"bcsr", {Format::bcsr, "auto"}});
  variants.push_back({"bcsr-cusparse", {Format::bcsr, "cusparse"}});
  variants.push_back({"bcsr-by-column", {Format::bcsr, "by-column"}});
  variants.push_back({"bcsr-row-per-thread", {Format::bcsr, "row-per-thread"}});
  {
    GpuSpmvOptions o{Format::sell, "threads"};
    o.threads_per_row = 4;
    variants.push_back({"sell-T4", o});
  }
  for (const auto& [label, options] : variants) {
    try {
      const GpuSpmvPlan<V, I> plan(ex, a, options);
      plan.apply(V(1), d_x.data(), V(0), d_y.data());
      ex.synchronize();
      const auto y = d_y.download();
      const auto check = check_spmv_result<V, I>(a, x, V(1), V(0), {}, y);
      if (!check.passed) {
        std::fprintf(stderr, "  WRONG %s: %s\n", plan.description().c_str(), check.message.c_str());
        md += "| " + source + " | " + plan.description() + " | WRONG | | | |\n";
        continue;
      }
      const auto t = time_repeated([&] { plan.apply(V(1), d_x.data(), V(0), d_y.data()); }, repetitions, 3, [&] { ex.synchronize(); });
      const double gflops = 2.0 * static_cast<double>(a.nnz()) / t.median_s * 1e-9;
      char line[512];
      std::snprintf(line, sizeof line, "| %s | %s | %.1f | %.4f | %.1f | %.0f |\n", source.c_str(), plan.description().c_str(),
                    plan.setup_seconds() * 1e3, t.median_s * 1e3, gflops, traffic / t.median_s * 1e-9);
      std::fprintf(stderr, "  %s", line);
      md += line;
    } catch (const Error& e) {
      std::fprintf(stderr, "  %s: %s\n", label.c_str(), e.what());
      md += "| " + source + " | " + label + " | refused: " + std::string(to_string(e.code())) + " | | | |\n";
    }
  }
  return md;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hsparse GPU SpMV benchmark against cuSPARSE"};
  std::vector<std::string> matrices = {"stencil3d:n=160,points=27", "powerlaw:rows=4000000", "fem:n=80,block=3"};
  std::string out;
  int repetitions = 50;
  bool single = false;
  app.add_option("--matrix", matrices, "Matrix sources")->capture_default_str();
  app.add_option("--repetitions", repetitions, "Timed launches per kernel (median)")->capture_default_str();
  app.add_flag("--single", single, "Single precision");
  app.add_option("--out", out, "Write a Markdown table here");
  CLI11_PARSE(app, argc, argv);
  try {
    if (!device_available()) {
      std::fprintf(stderr, "%s\n", device_description().c_str());
      return 2;
    }
    Executor ex;
    std::string md = "Device: " + device_description() + "\n\n| matrix | kernel | setup ms | time ms | GFLOP/s | GB/s (min traffic) |\n|---|---|---:|---:|---:|---:|\n";
    for (const auto& m : matrices) md += single ? run_matrix<float>(ex, m, repetitions) : run_matrix<double>(ex, m, repetitions);
    std::printf("%s", md.c_str());
    if (!out.empty()) std::ofstream(out) << md;
  } catch (const Error& e) {
    std::fprintf(stderr, "hsparse: %s\n", e.what());
    return 2;
  }
  return 0;
}
