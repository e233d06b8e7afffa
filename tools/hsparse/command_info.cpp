// hsparse info: the structure of a matrix (file or generator) and the bytes
// each storage format would take; --json for machines.
#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "hsparse/backends/cuda/nccl_halo.hpp"
#include "hsparse/distributed/graph_partition.hpp"
#include "format_listing.hpp"
#include "hsparse/analysis/matrix_analysis.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/communicator.hpp"
#include "hsparse/core/host_system.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/file_bytes.hpp"
#include "hsparse/version.hpp"
#include "matrix_dispatch.hpp"
#include "openmp_wait_policy.hpp"
#include "option_checks.hpp"

namespace hsparse::tool {

namespace {

nlohmann::json to_json(const MatrixAnalysis& m) {
  nlohmann::json j;
  j["rows"] = m.rows;
  j["cols"] = m.cols;
  j["nnz"] = m.nnz;
  j["symmetry"] = m.symmetry;
  const auto& r = m.row_lengths;
  j["row_length"] = {{"min", r.min_length}, {"mean", r.mean_length}, {"max", r.max_length},
                     {"std", r.std_deviation}, {"cv", r.coefficient_of_variation}};
  j["empty_rows"] = r.empty_rows;
  j["bandwidth"] = {{"lower", m.lower_bandwidth}, {"upper", m.upper_bandwidth}};
  j["diagonals"] = m.diagonals;
  j["hyb_ell_width"] = m.hyb_ell_width;
  j["best_bcsr_block"] = m.best_bcsr_block;
  for (const auto& b : m.bcsr) j["bcsr"].push_back({{"block", b.block}, {"blocks", b.blocks}, {"fill_ratio", b.fill_ratio}, {"bytes", b.bytes}});
  for (const auto& s : m.sell) j["sell"].push_back({{"C", s.chunk}, {"sigma", s.sigma}, {"beta", s.beta}, {"bytes", s.bytes}});
  for (const auto& f : m.formats) j["format_bytes"][to_string(f.format)] = f.bytes;
  return j;
}

void print_table(const std::string& source, const MatrixAnalysis& m, const char* value_type, double load_s) {
  const auto& r = m.row_lengths;
  std::printf("matrix        %s (%s, loaded in %.3f s)\n", source.c_str(), value_type, load_s);
  std::printf("size          %lld x %lld, %zu nonzeros (%.3g per row)\n", static_cast<long long>(m.rows),
              static_cast<long long>(m.cols), m.nnz, r.mean_length);
  std::printf("symmetry      %s\n", m.symmetry.c_str());
  std::printf("row length    min %lld  mean %.2f  max %lld  std %.2f  cv %.3f\n", static_cast<long long>(r.min_length),
              r.mean_length, static_cast<long long>(r.max_length), r.std_deviation, r.coefficient_of_variation);
  std::printf("empty rows    %lld\n", static_cast<long long>(r.empty_rows));
  std::printf("bandwidth     lower %lld  upper %lld\n", static_cast<long long>(m.lower_bandwidth),
              static_cast<long long>(m.upper_bandwidth));
  std::printf("diagonals     %lld\n", static_cast<long long>(m.diagonals));
  std::printf("BCSR          best block %d;", m.best_bcsr_block);
  for (const auto& b : m.bcsr) std::printf(" %dx%d fill %.2f", b.block, b.block, b.fill_ratio);
  std::printf("\nSELL-C-sigma  chunk occupancy beta:\n");
  for (const auto& s : m.sell) {
    std::printf("              C=%-3d sigma=%-9lld beta %.3f\n", s.chunk, static_cast<long long>(s.sigma), s.beta);
  }
  std::printf("bytes per format (%s values, int32 indices):\n", value_type);
  for (const auto& f : m.formats) {
    std::printf("              %-14s %14zu  %s\n", f.title.c_str(), f.bytes, f.detail.c_str());
  }
}

void print_generators() {
  for (const auto& g : generators::generator_catalog()) {
    std::printf("%-10s %s\n          ", g.name.c_str(), g.description.c_str());
    for (const auto& [key, def] : g.keys) std::printf(" %s=%s", key.c_str(), def.c_str());
    std::printf("\n");
  }
}

// The host's part always (a matrix is loaded there on either backend); the
// GPU's unless --backend cpu: auto shows it even without a device, to say why.
void print_system(bool with_gpu) {
  std::printf("hsparse       %s\n", version_string());
  const HostTopology& t = host_topology();
  std::printf("CPU           %d cores for this process, %d OpenMP threads, SIMD kernels %s%s\n", t.cores, omp_get_max_threads(), to_string(simd_level()),
              std::getenv("HSPARSE_SIMD") ? " (capped by HSPARSE_SIMD)" : "");
  std::printf("OpenMP wait   %s\n", openmp_wait_policy_description().c_str());
  std::printf("caches        ");
  for (const auto& c : t.caches) {
    std::printf("L%d %s (%d x %s)%s  ", c.level, format_bytes(static_cast<double>(c.bytes)).c_str(), c.instances,
                format_bytes(static_cast<double>(c.instance_bytes)).c_str(), c.capped ? " capped" : "");
  }
  std::printf("[%s]\n", t.source.c_str());
  if (!t.note.empty()) std::printf("              %s\n", t.note.c_str());
  const HostMemory m = host_memory();
  std::printf("memory        %s available of %s (%s); hsparse budgets %s\n", format_bytes(static_cast<double>(m.available)).c_str(),
              format_bytes(static_cast<double>(m.total)).c_str(), m.source.c_str(), format_bytes(static_cast<double>(host_memory_budget())).c_str());
  if (with_gpu) std::printf("CUDA          %s\n", cuda::device_description().c_str());
  std::printf("archives      %s\n", io::has_libarchive() ? ".tar.gz via libarchive" : "no .tar.gz support (built without libarchive)");
  std::printf("MPI           %s\n", built_with_mpi() ? ("built with MPI; this process: " + world_communicator()->description()).c_str()
                                                      : "not built (MPI was not found at configure time): one rank");
  std::printf("distributed   halo between GPUs by NCCL: %s; graph cut (METIS): %s\n",
              cuda::built_with_nccl() ? "built" : "not built (NCCL not found at configure time; host staging only)",
              distributed::built_with_metis() ? "built" : "not built (libmetis-dev not found at configure time)");
}

}  // namespace

Action add_info_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("info", "Describe a matrix (file or generator spec) and this build");
  struct Options {
    std::string source, backend = "auto";
    bool json = false, generators = false, single = false, formats = false;
  };
  auto o = std::make_shared<Options>();
  auto* matrix = cmd->add_option("matrix", o->source, "Matrix Market file (.mtx, .mtx.gz, .tar.gz), .hsp file, or generator spec; without one: this build and machine");
  add_backend_option(cmd, o->backend)->description(std::string("The machine part reported: ") + kBackendHelp + "; cpu leaves out the GPU");
  cmd->add_flag("--json", o->json, "Print JSON instead of a table");
  cmd->add_flag("--generators", o->generators, "List the generators and their keys");
  cmd->add_flag("--formats", o->formats, "List the storage formats, their traits, and each backend's kernels and value types");
  cmd->add_flag("--single", o->single, "Load in single precision (affects byte counts)");
  return [o, matrix]() {
    if (o->generators) {
      print_generators();
      return 0;
    }
    if (o->formats) return print_formats(o->json);
    // cuda without a device is an error, as in every subcommand (the one rule's message says why).
    if (o->backend == "cuda") static_cast<void>(hsparse::resolve_backend(o->backend));
    const bool with_gpu = o->backend != "cpu";
    // An empty MATRIX ('') is given, not absent: the loader refuses it below.
    if (matrix->count() == 0) {
      print_system(with_gpu);
      return 0;
    }
    Stopwatch watch;
    with_matrix(o->source, o->single ? Precision::single : Precision::double_, [&](const auto& a) {
      const double load_s = watch.seconds();
      using V = typename std::decay_t<decltype(a)>::value_type;
      const MatrixAnalysis m = analyze_matrix(a);
      if (o->json) {
        nlohmann::json j = to_json(m);
        j["source"] = o->source;
        j["value_type"] = type_name<V>();
        std::printf("%s\n", j.dump(2).c_str());
      } else {
        print_system(with_gpu);
        print_table(o->source, m, type_name<V>(), load_s);
      }
    });
    return 0;
  };
}

}  // namespace hsparse::tool
