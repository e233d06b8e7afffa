// hsparse advise MATRIX --spmv-count N: the format advisor's ranking (model
// prediction, conversion cost, total over N products) and its choice.
#include <complex>
#include <cstdio>

#include "commands.hpp"
#include "option_checks.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/tuning/advisor.hpp"

namespace hsparse::tool {

namespace {

struct AdviseOptions {
  std::string source, backend = "auto";
  long long spmv_count = 100;
  double bandwidth = 0, cache = 0;
  double value_tolerance = 0;  // lossy formats (csr16-single) only when allowed
};

MachineModel machine_for(const AdviseOptions& o, std::string& note) {
  // Advice for a GPU can be asked on a machine without one: the model then
  // uses the H200's figures (measured_machine says so in its note).
  MachineModel m = measured_machine(o.backend == "auto" ? resolve_backend("auto") : o.backend, &note);
  if (o.bandwidth > 0) m.read_bytes_per_s = o.bandwidth;
  if (o.cache > 0) m.cache_bytes = o.cache;
  return m;
}

// " --block-size B" where the format has that parameter (the registry's
// tunables), else "": CSR's kernels carry block 1, which means nothing to a user.
std::string block_text(Format format, int block, const char* prefix) {
  for (const auto& t : format_traits(format).tunables) {
    if (std::string(t.option) == "--block-size" && block > 0) return prefix + std::to_string(block);
  }
  return "";
}

// The ranking and the choice for one matrix (real or complex values).
template <class V>
int print_advice(const AdviseOptions& o, const Csr<V, std::int32_t>& a) {
  std::string note;
  const MachineModel m = machine_for(o, note);
  const Advice advice = advise(a, m, o.spmv_count, o.value_tolerance);
  std::printf("%s: %d x %d, %zu nonzeros; %s backend, read bandwidth %.1f GB/s, cache %.0f MiB (%s)\n", o.source.c_str(), a.rows,
              a.cols, a.nnz(), m.backend.c_str(), m.read_bytes_per_s * 1e-9, m.cache_bytes / (1 << 20), note.c_str());
  std::printf("estimated x traffic per nonzero (alpha): %.3f (1/N_nzc = %.3f)\n\n", advice.alpha,
              static_cast<double>(a.cols) / static_cast<double>(std::max<std::size_t>(a.nnz(), 1)));
  std::printf("  %-28s %12s %9s %12s %14s %16s\n", "format/kernel", "bytes/nnz", "GFLOP/s", "SpMV ms", "conversion ms",
              ("total ms (N=" + std::to_string(advice.spmv_count) + ")").c_str());
  for (const auto& p : advice.ranked) {
    const std::string name = std::string(to_string(p.format)) + "/" + p.kernel + block_text(p.format, p.block, "-b") +
                             (p.format == Format::sell ? "-sigma" + std::to_string(p.sigma) : "");
    if (!p.possible) {
      std::printf("  %-28s refused: %s\n", name.c_str(), p.why.c_str());
      continue;
    }
    std::printf("  %-28s %12.2f %9.1f %12.4f %14.2f %16.2f\n", name.c_str(), p.matrix_bytes / static_cast<double>(a.nnz()), p.predicted_gflops,
                p.spmv_seconds * 1e3, p.conversion_seconds * 1e3, p.total_seconds * 1e3);
  }
  const auto& c = advice.choice();
  const std::string sigma = c.format == Format::sell ? " --sigma " + std::to_string(c.sigma) : "";
  std::printf("\nadvice: --format %s --kernel %s%s%s (predicted %.1f GFLOP/s; %s)\n", to_string(c.format), c.kernel.c_str(),
              block_text(c.format, c.block, " --block-size ").c_str(), sigma.c_str(), c.predicted_gflops,
              c.format != Format::csr || c.conversion_seconds > 0 ? "its conversion pays back within these products"
              : c.why.empty()                                     ? "no conversion pays back over these products"
                                                                  : c.why.c_str());
  return 0;
}

}  // namespace

Action add_advise_command(CLI::App& app) {
  auto o = std::make_shared<AdviseOptions>();
  auto* cmd = app.add_subcommand("advise", "Pick a format and kernel from the model: predicted speed, conversion cost, total over N products");
  cmd->add_option("matrix", o->source, "Matrix file or generator spec")->required();
  cmd->add_option("--spmv-count", o->spmv_count, "Products the matrix will be used for")->check(integer_in(1))->capture_default_str();
  add_backend_option(cmd, o->backend);
  cmd->add_option("--bandwidth", o->bandwidth, "Read bandwidth in bytes/s (default: measured)")->check(real_above_zero());
  cmd->add_option("--cache", o->cache, "Cache (GPU L2 or CPU LLC) in bytes (default: the device's)")->check(real_above_zero());
  add_value_tolerance_option(cmd, o->value_tolerance);
  return [o]() {
    // Complex matrices are advised in complex<double> (16-byte values in the byte model).
    if (io::source_is_complex(o->source)) return print_advice(*o, io::load_matrix<std::complex<double>, std::int32_t>(o->source));
    return print_advice(*o, io::load_matrix<double, std::int32_t>(o->source));
  };
}


}  // namespace hsparse::tool
