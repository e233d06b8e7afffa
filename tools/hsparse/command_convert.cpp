// hsparse convert: between Matrix Market (.mtx, .mtx.gz) and the .hsp binary
// format; the output format follows the output file's extension. A Matrix
// Market output keeps the input's field and symmetry by default (a pattern
// symmetric file stays pattern symmetric, at its size): taken from a Matrix
// Market input's header, else found in the values (exactly symmetric ->
// symmetric; skew and Hermitian only when asked).
#include <cstdio>

#include "commands.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/io/atomic_file.hpp"
#include "hsparse/io/binary_format.hpp"
#include "hsparse/io/file_bytes.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/analysis/matrix_analysis.hpp"
#include "matrix_dispatch.hpp"
#include "option_checks.hpp"

namespace hsparse::tool {

namespace {

bool is_matrix_market(const std::string& path) {
  return io::ends_with(path, ".mtx") || io::ends_with(path, ".mtx.gz");
}

// --symmetry keep: the input header's field and symmetry, or what the values show.
template <class V, class I>
io::MatrixMarketWriteOptions kept_layout(const std::string& in, const Csr<V, I>& a) {
  io::MatrixMarketWriteOptions w;
  if (is_matrix_market(in)) {
    const auto h = io::read_matrix_market_header(in);
    w.symmetry = h.symmetry;
    if (h.field == io::MmField::pattern || h.field == io::MmField::integer) w.field = h.field;
  } else if (a.rows == a.cols && a.nnz() > 0 && symmetry_defect(a).relative == 0) {
    w.symmetry = io::MmSymmetry::symmetric;
  }
  return w;
}

}  // namespace

Action add_convert_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("convert", "Convert a matrix: IN (file or generator spec) to OUT (.hsp, .mtx or .mtx.gz)");
  struct Options {
    std::string in, out, symmetry = "keep", format;
    bool single = false;
    int block = 0, chunk = 0;
    long long sigma = 256;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("in", o->in, "Input: Matrix Market file, .hsp file or generator spec")->required();
  cmd->add_option("out", o->out, "Output file: .hsp, .mtx or .mtx.gz");
  cmd->add_option("--format", o->format, "Print this storage format's statistics (bytes, padding, conversion time)")
      ->check(CLI::IsMember(format_name_list()));
  cmd->add_option("--block-size", o->block, "BCSR block size (default: the one with the fewest bytes)")->check(integer_in(1, 32));
  cmd->add_option("--chunk", o->chunk, "SELL chunk height C (default: the SIMD width)")->check(integer_in(1, 1024));
  cmd->add_option("--sigma", o->sigma, "SELL sorting scope")->check(integer_in(1))->capture_default_str();
  cmd->add_option("--symmetry", o->symmetry,
                  "Matrix Market output: keep (the input's field and symmetry), general (every entry), or store only the lower "
                  "triangle of a matrix with this symmetry (checked)")
      ->check(CLI::IsMember({"keep", "general", "symmetric", "skew-symmetric", "hermitian"}))
      ->capture_default_str();
  cmd->add_flag("--single", o->single, "Store single precision values");
  return [o]() {
    // Ctrl-C or SIGTERM while OUT is written removes its temporary; the
    // target is never half-written (atomic_file.hpp).
    io::remove_temporaries_on_signal();
    Stopwatch watch;
    with_matrix(o->in, o->single ? Precision::single : Precision::double_, [&](const auto& a) {
      const double load_s = watch.seconds();
      watch.restart();
      if (!o->format.empty()) {
        // The conversion the CPU plan makes (the format's host layout).
        SpmvOptions po;
        po.format = parse_format(o->format);
        po.layout.block = o->block;
        po.layout.chunk = o->chunk;
        po.layout.sigma = o->sigma;
        const SpmvPlan<typename std::decay_t<decltype(a)>::value_type, typename std::decay_t<decltype(a)>::index_type> plan(
            make_executor(Backend::cpu), a, po);
        std::printf("format         %s\nbytes          %zu (CSR: %zu)\nstored entries %zu for %zu nonzeros (%.4f per nonzero)\nconversion     %.4f s\n",
                    plan.description().c_str(), plan.matrix_bytes(), a.bytes(), plan.stored_entries(), a.nnz(),
                    a.nnz() ? static_cast<double>(plan.stored_entries()) / static_cast<double>(a.nnz()) : 1.0, plan.setup_seconds());
      }
      if (o->out.empty()) {
        if (o->format.empty()) throw Error(ErrorCode::invalid_argument, "convert needs an output file or --format");
      } else if (io::ends_with(o->out, ".hsp")) {
        io::write_hsp(o->out, a);
      } else if (io::ends_with(o->out, ".mtx") || io::ends_with(o->out, ".mtx.gz")) {
        io::MatrixMarketWriteOptions w;
        if (o->symmetry == "keep") {
          w = kept_layout(o->in, a);
        } else {
          w.symmetry = o->symmetry == "symmetric"        ? io::MmSymmetry::symmetric
                       : o->symmetry == "skew-symmetric" ? io::MmSymmetry::skew_symmetric
                       : o->symmetry == "hermitian"      ? io::MmSymmetry::hermitian
                                                         : io::MmSymmetry::general;
        }
        io::write_matrix_market(o->out, a, w);
      } else {
        throw Error(ErrorCode::invalid_argument, o->out + ": unknown output extension (use .hsp, .mtx or .mtx.gz)");
      }
      if (!o->out.empty()) std::fprintf(stderr, "converted %s -> %s: %lld x %lld, %zu nonzeros; read %.3f s, write %.3f s\n", o->in.c_str(),
                   o->out.c_str(), static_cast<long long>(a.rows), static_cast<long long>(a.cols), a.nnz(), load_s,
                   watch.seconds());
    });
    return 0;
  };
}

}  // namespace hsparse::tool
