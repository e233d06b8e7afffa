// Reader throughput: Matrix Market text parsed from memory and from files
// (plain and gzip), and the .hsp binary reload. One thread (the reader is
// serial; this is the "MB/s per core" figure). The input is a generated
// matrix, HSPARSE_BENCH_SPEC (default fem:n=24,block=3: 3.1 M entries with
// full-precision random values, ~110 MB of text, like real collection files;
// try stencil3d:n=60 for short integer-valued entries).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdlib>
#include <filesystem>

#include "hsparse/generators/generators.hpp"
#include "hsparse/io/binary_format.hpp"
#include "hsparse/io/file_bytes.hpp"
#include "hsparse/io/matrix_market.hpp"

namespace {

using namespace hsparse;

struct Inputs {
  std::string text, mtx_path, gz_path, hsp_path;
  std::size_t hsp_bytes = 0;
  Inputs() {
    const char* spec = std::getenv("HSPARSE_BENCH_SPEC");
    const auto a = generators::generate<double, std::int32_t>(spec ? spec : "fem:n=24,block=3");
    text = io::format_matrix_market(a);
    const auto dir = std::filesystem::temp_directory_path() / "hsparse_io_bench";
    std::filesystem::create_directories(dir);
    mtx_path = (dir / "a.mtx").string();
    gz_path = (dir / "a.mtx.gz").string();
    hsp_path = (dir / "a.hsp").string();
    io::write_file_bytes(mtx_path, text);
    io::write_file_bytes(gz_path, text);
    io::write_hsp(hsp_path, a);
    hsp_bytes = std::filesystem::file_size(hsp_path);
  }
};

const Inputs& inputs() {
  static const Inputs in;
  return in;
}

void BM_ParseMatrixMarketFromMemory(benchmark::State& state) {
  const auto& in = inputs();
  for (auto _ : state) benchmark::DoNotOptimize(io::parse_matrix_market<double, std::int32_t>(in.text, "memory"));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.text.size()));
}

void BM_ReadMatrixMarketFile(benchmark::State& state) {
  const auto& in = inputs();
  for (auto _ : state) benchmark::DoNotOptimize(io::read_matrix_market<double, std::int32_t>(in.mtx_path));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.text.size()));
}

void BM_ReadMatrixMarketGzipFile(benchmark::State& state) {
  const auto& in = inputs();
  for (auto _ : state) benchmark::DoNotOptimize(io::read_matrix_market<double, std::int32_t>(in.gz_path));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.text.size()));  // uncompressed bytes
}

void BM_ReadMatrixMarketToCsr(benchmark::State& state) {
  const auto& in = inputs();
  for (auto _ : state) benchmark::DoNotOptimize(io::read_matrix_market_csr<double, std::int32_t>(in.mtx_path));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.text.size()));
}

void BM_ReadHsp(benchmark::State& state) {
  const auto& in = inputs();
  for (auto _ : state) benchmark::DoNotOptimize(io::read_hsp<double, std::int32_t>(in.hsp_path));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.hsp_bytes));
}

BENCHMARK(BM_ParseMatrixMarketFromMemory)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_ReadMatrixMarketFile)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_ReadMatrixMarketGzipFile)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_ReadMatrixMarketToCsr)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_ReadHsp)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace

int main(int argc, char** argv) {
  omp_set_num_threads(1);  // per-core figures
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
