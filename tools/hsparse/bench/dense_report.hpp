#pragma once
// What hsparse bench --dense measured (private to the bench): a row per
// kernel and shape, and what the report needs to say about the run.
// dense_bench.cpp fills it, dense_report.cpp writes it out.
#include <string>
#include <utility>
#include <vector>

#include "hsparse/backends/cuda/device.hpp"

namespace hsparse::bench {

struct DenseRow {
  DenseRow(std::string s, std::string p, std::string sh, std::string a, std::string l, double z)
      : section(std::move(s)), precision(std::move(p)), shape(std::move(sh)), algorithm(std::move(a)), library(std::move(l)), size(z) {}
  std::string section, precision, shape, algorithm, library;
  double size = 0;  // GEMM: n; tall-skinny and SpMM: k
  double seconds = 0, gflops = 0, gbytes = 0, q = 0;
  std::string peak_name;  // the peak this kernel is held to ("" on the CPU: none known)
  double peak_gflops = 0, read_bandwidth = 0;
  std::string status = "ok";
};

struct DenseResults {
  bool gpu = false;
  double read_bandwidth = 0;  // bytes/s, measured at the start
  cuda::ArithmeticPeaks peaks;
  std::string timing_mode;      // call_timing.hpp's, for the report
  long long largest_gemm_n = 0;  // the GEMM goals are at this n
  std::vector<DenseRow> rows;
  std::vector<std::string> spmm_notes;  // formats the SpMM part stopped timing, and why
};

// V S's ceiling on the GPU: a device-to-device copy of V's bytes into Y.
constexpr const char* kCopyLibrary = "cudaMemcpy";

// dense.md, dense.json and plots/ into dir.
void write_dense_report(const DenseResults& c, const std::string& dir, const std::string& device);

}  // namespace hsparse::bench
