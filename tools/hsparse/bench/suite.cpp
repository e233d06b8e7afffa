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
#include <filesystem>

#include "bench.hpp"
#include "hsparse/core/error.hpp"
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

std::optional<std::string> shared_matrix_folder() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("HSPARSE_MATRICES"); env && fs::is_directory(env)) return std::string(env);
#ifdef HSPARSE_DEFAULT_MATRICES
  if (fs::is_directory(HSPARSE_DEFAULT_MATRICES)) return std::string(HSPARSE_DEFAULT_MATRICES);
#endif
  return std::nullopt;
}

}  // namespace hsparse::bench
