#pragma once
// hsparse bench: every applicable hsparse format and kernel beside the
// baselines (cuSPARSE on the GPU; Eigen and librsb on the CPU) in one
// process, on a suite of matrices, with the performance model next to each
// measurement. Pieces: suite.cpp (which matrices), candidates_*.cpp (what
// runs on them), runner.cpp (check, then time), report.cpp (console, JSON,
// CSV, Markdown, gnuplot), compare.cpp (two runs side by side).
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/core/executor.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/formats/csr.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/formats/format.hpp"

namespace hsparse::bench {

// The benchmarks run in double precision with int32 indices; the SpMV
// bench also times complex<double> matrices (plan_candidates' T).
using V = double;
using I = std::int32_t;

// One way of computing y = A x, ready to run: an hsparse plan or a baseline.
struct Candidate {
  std::string library;  // hsparse, cusparse, eigen, librsb
  std::string format;   // csr, coo, ell, hyb, dia, bcsr, sell, or the library's own (librsb: rsb)
  std::string kernel;   // the plan's description, e.g. csr/adaptive, sell/thread-C32-sigma1
  double setup_s = 0;   // conversion + upload + preprocessing
  double choice_s = 0;  // format "auto": the library's choice (analysis and model), beside setup_s
  double matrix_bytes = 0;
  std::size_t stored_entries = 0;
  // y = A x once, from a NaN-poisoned y, checked against the matrix's serial
  // reference (its rounding allowed for a lossy format).
  std::function<SpmvCheck(double value_rounding)> run_and_check;
  std::function<TimingSummary(double min_time_s)> time;    // repetitions passing min_time_s (GPU: L2 flushed before each)
  std::function<TimingSummary(double min_time_s)> time_back_to_back;  // GPU only: calls back to back on the same x, nothing flushed
};

// A candidate not built yet: CPU candidates are all kept alive at once (they
// are timed in interleaved rounds), GPU ones one at a time (device memory).
struct CandidateMaker {
  std::string label;
  std::function<std::unique_ptr<Candidate>()> make;  // throws Error when the format refuses the matrix
};

struct Environment {
  std::string backend;  // cpu or cuda
  std::string date, commit, device, driver, cpu;
  int threads = 0;
  double read_bytes_per_s = 0, copy_bytes_per_s = 0;  // measured at start
  std::size_t cache_bytes = 0;                         // GPU L2 or CPU LLC
};

struct MatrixInfo {
  std::string name;  // generator spec or file path
  std::int64_t rows = 0, cols = 0;
  std::size_t nnz = 0;
  double csr_bytes = 0, row_cv = 0;
  int max_row = 0;
  bool cache_resident = false;  // matrix + vectors fit in the cache (timed after a flush anyway)
  double load_s = 0;
  std::string values = "double";        // the value type timed: double or complex<double>
  std::size_t value_bytes = sizeof(V);  // of one value
  // Real flops per nonzero of y = A x: 2 (a multiply and an add), 8 for
  // complex values (a complex multiply is 4 multiplies and 2 adds, its add 2).
  double flops_per_nonzero = 2;
};

struct Result {
  std::string matrix, backend, library, format, kernel;
  std::string status = "ok";  // ok, wrong, refused, failed
  std::string message;
  double setup_s = 0;
  double choice_s = 0;  // "auto": the choice's own seconds (Candidate::choice_s), not in setup_s
  TimingSummary time;
  double gflops = 0;
  TimingSummary time_back_to_back;  // GPU: the second timing mode (Candidate::time_back_to_back); 0 repetitions: not measured
  double gflops_back_to_back = 0;
  double relative_error = 0;  // against the double-precision reference (what a lossy format costs)
  double matrix_bytes = 0, occupancy = 1;  // occupancy: nnz / stored entries (SELL's beta)
  double bytes_min = 0, bytes_csr_min = 0, bytes_effective = 0;  // own format minimum, Reguly eq. (4), eq. (2)
  double gbs_min = 0, gbs_csr_min = 0, gbs_effective = 0;
  double bandwidth_fraction = 0;  // bytes_min / time / measured read bandwidth
  double alpha = 0;               // RHS traffic per nonzero, eq. (14)
  double model_gflops = 0;        // read bandwidth / code balance with x read once (eq. (10))
  std::optional<double> speedup_vs_baseline_csr, speedup_vs_baseline_best;
  std::optional<double> breakeven_spmvs;  // against the fastest CSR kernel; absent: never pays off, or not measured
  bool csr_measured = false;  // a CSR kernel was timed on this matrix (break-even has a reference)
  bool csr_reference = false;
  bool above_model = false;   // faster than the roofline with x read once: data partly from cache
  bool automatic = false;  // the advisor's choice ("auto")
};

struct Report {
  Environment env;
  long long spmv_count = 1000;
  std::vector<MatrixInfo> matrices;
  std::vector<Result> results;
  bool interrupted = false;
};

struct Options {
  std::vector<std::string> matrices;  // explicit sources; empty: the default suite
  std::string matrices_dir;           // real matrices to add (MANIFEST or every .mtx/.mtx.gz)
  std::string backend = "auto";       // auto, cpu, cuda
  std::string out_dir = "bench-report";
  bool quick = false;
  double min_time_s = 0;  // per kernel; 0: 0.25 s (quick: 0.03 s)
  long long spmv_count = 1000;  // the products "auto" must pay off over (and its goal counts conversion at)
  bool dry_run = false;         // plan the suite (sizes, memory) and stop
  std::optional<bool> x_in_l2;  // every hsparse GPU plan's parameter x_in_l2 (unset: the backend's rule; the cuSPARSE baselines take none)
};

// The suite's size: nonzeros per generated matrix, so that the matrix data
// is several times the cache (GPU L2 or CPU LLC).
double target_nonzeros(const std::string& backend, std::size_t cache_bytes, bool quick);

// Peak memory per nonzero while one matrix is benchmarked, measured on the
// default suite (docs/results/2026-11-23-main-job-memory-cpu), with a margin:
// - CPU (every candidate alive at once: CSR, its ELL/HYB/DIA/BCSR/SELL
//   copies, Eigen's and librsb's, the reference): 5.14 GB maximum resident
//   at fem bs=6 with 32.9 M nonzeros, 156 bytes per nonzero (2-core VM);
// - GPU (candidates one at a time): the host kept 5.64 GB at fem bs=6 with
//   156 M nonzeros (36 per nonzero: CSR, the reference, one conversion),
//   the device 5.6 GiB (38 per nonzero: one format, cuSPARSE's copies, x, y).
inline constexpr double kCpuBenchBytesPerNonzero = 160;
inline constexpr double kGpuBenchHostBytesPerNonzero = 48;
inline constexpr double kGpuBenchDeviceBytesPerNonzero = 48;
inline double bench_host_bytes_per_nonzero(const std::string& backend) {
  return backend == "cuda" ? kGpuBenchHostBytesPerNonzero : kCpuBenchBytesPerNonzero;
}

// What a run will hold, planned before anything is allocated: the default
// suite is scaled down to fit the memory budgets (host: host_memory_budget();
// GPU: half the free device memory), explicit inputs are checked to exist.
struct SuitePlan {
  std::string backend;
  std::vector<std::string> sources;
  std::size_t suite_size = 0;   // sources[0, suite_size) are the suite proper; the folder's real matrices follow
  double target_nnz = 0;        // per generated matrix of the default suite (0: explicit matrices only)
  double host_peak_bytes = 0, device_peak_bytes = 0;  // estimated, for the largest planned matrix
  double host_budget = 0, device_budget = 0;
  std::string note;             // how the suite was sized, and what was scaled down
};
SuitePlan plan_suite(const Options& options, const std::string& backend, std::size_t cache_bytes);
void print_plan(const SuitePlan& plan);
// The built-in default suite: generated families of about target_nnz nonzeros.
std::vector<std::string> default_suite(double target_nnz);
// The real matrices of a folder (its MANIFEST.md order if present), skipping complex ones.
std::vector<std::string> folder_matrices(const std::string& dir);
// The folder's two largest real-valued matrices replicated to about target_nnz nonzeros.
std::vector<std::string> replicated_matrices(const std::string& dir, double target_nnz);
// The shared test matrices: $HSPARSE_MATRICES if it names a folder. No build
// path is compiled in (an installed tool is relocatable); scripts/run.sh sets
// it to ../shared/matrices where that exists.
std::optional<std::string> shared_matrix_folder();

// Candidate makers for a matrix on an executor: hsparse's plans (every
// registered kernel of its backend, cuSPARSE's behind the same interface on
// the GPU) and "auto", the advisor's choice for spmv_count products on this
// machine (its measured bandwidth and cache). x is the input vector in the
// executor's memory and must outlive them.
// `reference` checks each candidate's result; a, x and reference must outlive
// the makers. T: double or complex<double>.
template <class T>
std::vector<CandidateMaker> plan_candidates(const ExecutorPtr& ex, const Csr<T, I>& a, const T* x, const SpmvReference<T, I>& reference,
                                            const Environment& env, long long spmv_count, std::optional<bool> x_in_l2);
// The CPU's baseline libraries (Eigen, librsb) where built, for real
// matrices (a complex one is timed without them); x in host memory.
std::vector<CandidateMaker> cpu_baseline_candidates(const Csr<V, I>& a, const V* x, const SpmvReference<V, I>& reference);
// Library set-up of the CPU baselines (librsb needs rsb_lib_init), once per process.
void initialize_cpu_baselines();
void finalize_cpu_baselines();
// Repetitions that fill min_time_s after one trial of trial_s (at least 5, at most 10000).
int repetitions_for(double min_time_s, double trial_s);

// A registered kernel's bench variant (kernels/spmv_registry.hpp, SpmvKernel::bench):
// "" as it is, "sigma=N" (the layout), or "no-preprocess" (cuSPARSE CSR's
// parameter preprocess = 0). Error(internal) for anything else.
void apply_bench_variant(const std::string& variant, SpmvOptions& options);
// "sell/thread" or "sell/thread-sigma256".
std::string bench_label(Format format, const std::string& kernel, const std::string& variant);

// Runs the suite; stops early (keeping what was measured) when *stop turns true.
Report run_benchmark(const Options& options, const std::atomic<bool>& stop);

// Fills the derived figures (speedups, break-even) of one matrix's results.
void derive_comparisons(std::vector<Result>& results);
// "-" (CSR itself), "not measured", "never", "at once" or the number of SpMVs.
std::string breakeven_text(const Result& r);
// "refused: why" (without repeating "refused" when the message says it), unabridged.
std::string status_text(const Result& r);

// Console table, JSON, CSV, Markdown and plots under out_dir. write_report
// returns "" when every plot was drawn, else why not (the report says it too).
void print_console(const Report& r);
std::string write_report(const Report& r, const std::string& out_dir);
Report read_json(const std::string& path);
// Per-matrix and per-kernel GFLOP/s ratios new / old; false (after saying
// so) when the runs have no matrix in common.
bool print_comparison(const Report& old_run, const Report& new_run);

}  // namespace hsparse::bench
