// The default suite. Every family is sized from a target nonzero count: on a
// GPU 100 M (about 1.2 GB of CSR, 20x the H200's 60 MiB L2; the issue's
// anchors use these sizes), on a CPU enough for 8x the last-level cache,
// and 2 M with --quick. Real matrices are all cache-resident (MANIFEST.md
// says so): the two largest real-valued ones of the shared folder, where it
// is found, join the default suite replicated up to the target size, so
// real sparsity patterns are measured from memory too.
#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "bench.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/host_system.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "hsparse/io/manifest.hpp"
#include "hsparse/io/matrix_source.hpp"

namespace hsparse::bench {

namespace {

std::string num(double v) { return std::to_string(static_cast<long long>(std::llround(std::max(v, 1.0)))); }

}  // namespace

double target_nonzeros(const std::string& backend, std::size_t cache_bytes, bool quick) {
  if (quick) return 2e6;
  if (backend == "cuda") return 1e8;
  // CPU: 8x the LLC in CSR bytes (12 per nonzero), at least 8 M nonzeros.
  return std::max(8e6, 8.0 * static_cast<double>(cache_bytes) / 12.0);
}

std::vector<std::string> default_suite(double t) {
  return {
      "stencil3d:points=27,n=" + num(std::cbrt(t / 27)),          // 27 per row: the Reguly/ENVIRONMENT anchor
      "fem:block=3,n=" + num(std::cbrt(t / 243)),                 // 3x3 blocks, 27 block neighbours
      "fem:block=6,n=" + num(std::cbrt(1.6 * t / 972)),           // 6x6 blocks (165 M nonzeros at the GPU size)
      "powerlaw:min=2.5,rows=" + num(t / 25),                     // webbase-like, two very long rows
      "circuit:n=" + num(t / 10),                                 // a few dense hub rows and columns
      "shortwide:rows=" + num(t / 1e4) + ",per_row=2600",         // rail4284-like, 2600 per row
      "banded:bandwidth=6,n=" + num(t / 13),                      // 13 diagonals
      "random:per_row=10,rows=" + num(t / 10),                    // scattered x access
  };
}

namespace {

struct FolderContents {
  std::vector<std::string> names;                          // real-valued matrices, MANIFEST order
  std::vector<std::pair<long long, std::string>> by_nnz;  // real (not integer/pattern) ones, largest first
};

FolderContents read_folder(const std::string& dir) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(dir)) throw Error(ErrorCode::io, "--matrices " + dir + ": not a directory");
  FolderContents f;
  auto& names = f.names;
  auto& by_nnz = f.by_nnz;
  // MANIFEST.md's table order when there is one.
  for (const auto& m : io::read_manifest(dir)) {
    if (m.field == "complex") continue;
    names.push_back(dir + "/" + m.name + ".mtx.gz");
    if (m.field == "real") by_nnz.emplace_back(m.nnz, names.back());
  }
  if (names.empty()) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string p = entry.path().string();
      const bool mtx = p.ends_with(".mtx") || p.ends_with(".mtx.gz");
      if (mtx && !io::source_is_complex(p)) names.push_back(p);
    }
    std::sort(names.begin(), names.end());
  }
  std::sort(by_nnz.rbegin(), by_nnz.rend());
  return f;
}

}  // namespace

std::vector<std::string> folder_matrices(const std::string& dir) { return read_folder(dir).names; }

std::vector<std::string> replicated_matrices(const std::string& dir, double target_nnz) {
  const auto f = read_folder(dir);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < std::min<std::size_t>(2, f.by_nnz.size()); ++i) {
    const double copies = std::clamp(target_nnz / static_cast<double>(std::max(f.by_nnz[i].first, 1LL)), 2.0, 4096.0);
    out.push_back("replicate:copies=" + num(copies) + ",file=" + f.by_nnz[i].second);
  }
  return out;
}

namespace {

// The share of the GPU's free memory a bench run may plan for (the host's is kHostMemoryFraction).
constexpr double kDeviceMemoryFraction = 0.5;

// An explicit input, checked before the bandwidth test and before any
// matrix is made: a generator spec must parse, a file must open. Returns
// its nonzeros when the header says (Matrix Market), else 0.
double check_input(const std::string& source) {
  if (generators::is_generator_spec(source)) {
    generators::parse_spec(source);  // throws Error(parse) naming the spec
    return 0;
  }
  if (!std::ifstream(source)) throw Error(ErrorCode::io, source + ": cannot open (not a file and not a generator spec; see hsparse info --generators)");
  if (source.ends_with(".mtx") || source.ends_with(".mtx.gz")) {
    const auto h = io::read_matrix_market_header(source);
    return static_cast<double>(h.entries) * (h.symmetry == io::MmSymmetry::general ? 1 : 2);
  }
  return 0;
}

}  // namespace

SuitePlan plan_suite(const Options& o, const std::string& backend, std::size_t cache_bytes) {
  SuitePlan p;
  p.backend = backend;
  const bool gpu = backend == "cuda";
  const double host_per_nnz = bench_host_bytes_per_nonzero(backend);
  p.host_budget = static_cast<double>(host_memory_budget());
  p.device_budget = gpu ? kDeviceMemoryFraction * static_cast<double>(cuda::free_device_memory()) : 0;
  double largest = 0;
  if (o.matrices.empty()) {
    const double wanted = target_nonzeros(backend, cache_bytes, o.quick);
    // The largest family is fem bs=6 at 1.6x the target (default_suite).
    constexpr double kLargestFamily = 1.6;
    double fits = p.host_budget / host_per_nnz / kLargestFamily;
    if (gpu) fits = std::min(fits, p.device_budget / kGpuBenchDeviceBytesPerNonzero / kLargestFamily);
    p.target_nnz = std::min(wanted, fits);
    if (p.target_nnz < wanted) {
      char buf[256];
      std::snprintf(buf, sizeof buf, "scaled down from %.3g to %.3g nonzeros per matrix to fit the memory budget", wanted, p.target_nnz);
      p.note = buf;
    }
    if (p.target_nnz < 1e5) {
      throw Error(ErrorCode::out_of_memory, "hsparse bench: the default suite needs at least 1e5 nonzeros per matrix (" +
                                                format_bytes(1e5 * host_per_nnz) + " of host memory); the budget is " + format_bytes(p.host_budget));
    }
    p.sources = default_suite(p.target_nnz);
    largest = kLargestFamily * p.target_nnz;
    if (const auto shared = shared_matrix_folder()) {
      const auto replicas = replicated_matrices(*shared, p.target_nnz);
      p.sources.insert(p.sources.end(), replicas.begin(), replicas.end());
    } else {
      p.note += std::string(p.note.empty() ? "" : "; ") + "no shared matrix folder: set HSPARSE_MATRICES to add replicated real matrices";
    }
  } else {
    for (const auto& s : o.matrices) largest = std::max(largest, check_input(s));
    p.sources = o.matrices;
  }
  p.suite_size = p.sources.size();
  if (!o.matrices_dir.empty()) {
    const auto more = folder_matrices(o.matrices_dir);
    p.sources.insert(p.sources.end(), more.begin(), more.end());
  }
  p.host_peak_bytes = largest * host_per_nnz;
  p.device_peak_bytes = gpu ? largest * kGpuBenchDeviceBytesPerNonzero : 0;
  return p;
}

void print_plan(const SuitePlan& p) {
  std::fprintf(stderr, "plan: %zu matrices on %s", p.sources.size(), p.backend.c_str());
  if (p.target_nnz > 0) std::fprintf(stderr, ", generated ones of about %.3g nonzeros", p.target_nnz);
  std::fprintf(stderr, "\n  estimated peak host memory %s (budget %s: %.0f%% of what is available)\n", format_bytes(p.host_peak_bytes).c_str(),
               format_bytes(p.host_budget).c_str(), 100 * kHostMemoryFraction);
  if (p.backend == "cuda") {
    std::fprintf(stderr, "  estimated peak device memory %s (budget %s: %.0f%% of the free memory)\n", format_bytes(p.device_peak_bytes).c_str(),
                 format_bytes(p.device_budget).c_str(), 100 * kDeviceMemoryFraction);
  }
  if (!p.note.empty()) std::fprintf(stderr, "  %s\n", p.note.c_str());
  for (std::size_t i = 0; i < p.sources.size(); ++i) std::fprintf(stderr, "  [%zu/%zu] %s\n", i + 1, p.sources.size(), p.sources[i].c_str());
}

std::optional<std::string> shared_matrix_folder() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("HSPARSE_MATRICES"); env && fs::is_directory(env)) return std::string(env);
  return std::nullopt;
}

}  // namespace hsparse::bench
