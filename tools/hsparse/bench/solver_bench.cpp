// hsparse bench --solvers (solver_bench.hpp).
#include "solver_bench.hpp"

#include "right_hand_side.hpp"
#include "hsparse/io/atomic_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>

#include "hsparse/backends/cuda/device.hpp"
#include "number_format.hpp"
#include "option_checks.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/performance/spmv_model.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/solvers/krylov.hpp"
#include "hsparse/backends/cuda/timing.hpp"
#include "hsparse/backends/cuda/vector_ops.hpp"
#include "baseline_cg.hpp"
#include "solution_bench.hpp"

namespace hsparse::bench {

namespace {

using V = double;
using I = std::int32_t;

struct SolverRow {
  long long unknowns = 0;
  std::string variant;            // e.g. "pipecg csr/adaptive"
  double us_per_iteration = 0;    // median over the repetitions
  int iterations = 0;
  std::string status;
};

struct MdotRow {
  long long n = 0;
  int vectors = 0;
  std::string variant;  // mdot, dots, gemv
  double seconds = 0, gbytes_per_s = 0, percent_bw = 0;
};

// Median us per iteration of `repetitions` solves of o.max_iterations iterations.
SolverRow time_solves(long long unknowns, const std::string& variant, int repetitions, const std::function<SolverResult()>& solve_once) {
  std::vector<double> per;
  SolverRow row;
  row.unknowns = unknowns;
  row.variant = variant;
  for (int k = 0; k < repetitions; ++k) {
    const SolverResult r = solve_once();
    row.iterations = r.iterations;
    row.status = to_string(r.status);
    if (r.iterations > 0) per.push_back(r.seconds / r.iterations * 1e6);
  }
  row.us_per_iteration = per.empty() ? 0 : summarize_times(per).median_s;
  return row;
}

}  // namespace

int run_solver_benchmark(const SolverBenchOptions& opt, const std::atomic<bool>& stop) {
  const bool gpu = tool::resolve_backend(opt.backend) == "cuda";
  std::vector<long long> sizes = opt.quick ? std::vector<long long>{10000, 100000} : opt.unknowns;
  const int iterations = opt.quick ? 50 : opt.iterations;
  std::vector<SolverRow> rows;
  std::vector<MdotRow> mdots;
  double read_bw = 0;
  std::string device = gpu ? cuda::device_description() : "CPU (OpenMP)";
  SolverOptions so;
  so.tolerance = 0;  // time a fixed number of iterations
  so.max_iterations = iterations;
  so.record_history = false;
  int status = 0;
  for (long long n : sizes) {
    if (stop) break;
    const long long side = std::llround(std::sqrt(static_cast<double>(n)));
    const std::string spec = "stencil2d:n=" + std::to_string(side);
    const auto a = io::load_matrix<V, I>(spec);
    const auto b = right_hand_side(a);  // b = A x*, so CG does not converge within the timed iterations
    std::printf("%s: %d unknowns, %zu nonzeros\n", spec.c_str(), a.rows, a.nnz());
    const ExecutorPtr ex = make_executor(gpu ? Backend::cuda : Backend::cpu);
    const Array<V> db(ex, std::span<const V>(b));
    Array<V> dx(ex, b.size());
    auto zero_x = [&] { ex->fill_zero(dx.data(), dx.size() * sizeof(V)); };
    if (gpu) {
      rows.push_back(time_solves(a.rows, "baseline cuSPARSE+cuBLAS CG", opt.repetitions, [&] {
        zero_x();
        return cusparse_cublas_cg<V>(*ex, a, db.data(), dx.data(), so);
      }));
      std::printf("  %-36s %10.2f us/iteration (%s)\n", rows.back().variant.c_str(), rows.back().us_per_iteration, rows.back().status.c_str());
    }
    // The GPU also runs DIA, the stencil's best format (docs/results/2026-11-22-solvers-h200).
    for (Format f : gpu ? std::vector<Format>{Format::csr, Format::dia} : std::vector<Format>{Format::csr}) {
      SpmvOptions po;
      po.format = f;
      const SpmvPlan<V, I> plan(ex, a, po);
      for (auto m : {KrylovMethod::cg, KrylovMethod::pipelined_cg}) {
        SolverOptions o = so;
        o.method = m;
        rows.push_back(time_solves(a.rows, std::string(to_string(m)) + " " + plan.description(), opt.repetitions, [&] {
          zero_x();
          return solve<V, I>(a, plan, db, dx, o);
        }));
        std::printf("  %-36s %10.2f us/iteration (%s)\n", rows.back().variant.c_str(), rows.back().us_per_iteration, rows.back().status.c_str());
      }
    }
  }
  for (const auto& r : rows) {
    if (r.status == "non-finite" || r.status == "breakdown" || r.iterations != iterations) {
      std::fprintf(stderr, "hsparse bench --solvers: %s at %lld unknowns stopped after %d of %d iterations (%s)\n", r.variant.c_str(), r.unknowns,
                   r.iterations, iterations, r.status.c_str());
      status = 1;
    }
  }
  if (gpu && !stop) {
    const cuda::Executor ex;
    read_bw = cuda::measure_device_bandwidth(ex).read_bytes_per_s;
    cuda::ReductionScratch scratch;
    for (long long n : opt.quick ? std::vector<long long>{1000000} : std::vector<long long>{1000000, 10000000, 50000000}) {
      const int kmax = 8;
      cuda::DeviceArray<V> w(static_cast<std::size_t>(n)), cols(static_cast<std::size_t>(n) * kmax), out(kmax);
      cuda::DeviceArray<double> dout(kmax);
      cuda::fill_zero<V>(ex, n, w.data());
      cuda::fill_zero<V>(ex, n * kmax, cols.data());
      for (int k : {1, 2, 3, 4, 8}) {
        std::vector<const V*> vs;
        for (int j = 0; j < k; ++j) vs.push_back(cols.data() + static_cast<long long>(j) * n);
        const double bytes = static_cast<double>(k + 1) * static_cast<double>(n) * sizeof(V);
        auto add = [&](const std::string& variant, const std::function<void()>& fn) {
          const double t = cuda::time_on_device(ex, fn, 20, 3).median_s;
          mdots.push_back({n, k, variant, t, bytes / t * 1e-9, 100 * bytes / t / read_bw});
        };
        add("mdot", [&] { cuda::mdot<V>(ex, n, w.data(), vs, dout.data(), scratch); });
        add("k dots", [&] { cuda::mdot_as_dots<V>(ex, n, w.data(), vs, dout.data(), scratch); });
        add("cuBLAS gemv", [&] { cuda::mdot_as_gemv<V>(ex, n, k, w.data(), cols.data(), out.data()); });
      }
    }
  }
  // Report.
  io::prepare_output_folder(opt.out_dir);
  nlohmann::json j;
  j["device"] = device;
  j["iterations"] = iterations;
  j["read_bytes_per_s"] = read_bw;
  for (const auto& r : rows) {
    j["solvers"].push_back({{"unknowns", r.unknowns}, {"variant", r.variant}, {"us_per_iteration", r.us_per_iteration}, {"iterations", r.iterations}, {"status", r.status}});
  }
  for (const auto& m : mdots) {
    j["mdot"].push_back({{"n", m.n}, {"vectors", m.vectors}, {"variant", m.variant}, {"seconds", m.seconds}, {"gbytes_per_s", m.gbytes_per_s}, {"percent_of_read_bw", m.percent_bw}});
  }
  // Each file complete or absent; a failed write is an error naming it (atomic_file.hpp).
  io::write_file_atomically(opt.out_dir + "/solvers.json", j.dump(1) + "\n");
  io::AtomicOutputFile md_file(opt.out_dir + "/solvers.md");
  std::ostream& md = md_file.stream();
  md << "# Krylov solvers: time per iteration\n\n" << device << "; 2D 5-point Poisson (stencil2d), double, " << iterations
     << " iterations per solve (tolerance 0), median of " << opt.repetitions << " solves.\n\n";
  std::vector<std::string> variants;
  for (const auto& r : rows) {
    if (std::find(variants.begin(), variants.end(), r.variant) == variants.end()) variants.push_back(r.variant);
  }
  md << "| unknowns |";
  for (const auto& v : variants) md << " " << v << " (us) |";
  if (gpu) md << " best pipelined CG vs baseline |";
  md << "\n|---:|";
  for (std::size_t i = 0; i < variants.size() + (gpu ? 1 : 0); ++i) md << "---:|";
  md << "\n";
  std::vector<std::pair<long long, double>> speedups;
  for (long long n : sizes) {
    double base = 0, best_pipe = 1e30;
    bool any = false;
    std::string line = "| ";
    line += std::to_string(n);
    line += " |";
    for (const auto& v : variants) {
      const auto it = std::find_if(rows.begin(), rows.end(), [&](const SolverRow& r) { return r.variant == v && std::llabs(r.unknowns - n) * 100 < n; });
      if (it == rows.end()) {
        line += " - |";
        continue;
      }
      any = true;
      line += fmt(" %.1f |", it->us_per_iteration);
      if (v.rfind("baseline", 0) == 0) base = it->us_per_iteration;
      if (v.rfind("pipecg", 0) == 0) best_pipe = std::min(best_pipe, it->us_per_iteration);
    }
    if (!any) continue;
    if (gpu) {
      const double s = base > 0 && best_pipe < 1e30 ? base / best_pipe : 0;
      speedups.emplace_back(n, s);
      line += fmt(" %.2fx |", s);
    }
    md << line << "\n";
  }
  if (gpu) {
    md << "\n## Goals\n\n";
    for (const auto& [n, s] : speedups) {
      const double goal = n <= 100000 ? 3.0 : n >= 5000000 ? 1.2 : 0;
      if (goal > 0) md << "- " << n << " unknowns: pipelined CG " << fmt("%.2fx", s) << " the baseline's speed per iteration (goal " << fmt("%.1fx", goal) << "): " << (s >= goal ? "met" : "missed") << "\n";
    }
    md << "\n## Multiple dot products (w against k vectors)\n\nRead bandwidth measured: " << fmt("%.0f", read_bw * 1e-9)
       << " GB/s. GB/s counts reading w and the k vectors once.\n\n| n | k | variant | us | GB/s | % of read BW |\n|---:|---:|---|---:|---:|---:|\n";
    for (const auto& m : mdots) {
      md << "| " << m.n << " | " << m.vectors << " | " << m.variant << " | " << fmt("%.1f", m.seconds * 1e6) << " | " << fmt("%.0f", m.gbytes_per_s) << " | "
         << fmt("%.0f%%", m.percent_bw) << " |\n";
    }
    for (const auto& m : mdots) {
      if (m.vectors == 8 && m.variant == "mdot" && m.n >= 10000000) {
        md << "\n- mdot of 8 vectors at n = " << m.n << ": " << fmt("%.0f%%", m.percent_bw) << " of the read bandwidth (goal 80%): "
           << (m.percent_bw >= 80 ? "met" : "missed") << "\n";
      }
    }
  }
  md_file.commit();
  std::printf("\nreport: %s/solvers.md (data: solvers.json)\n", opt.out_dir.c_str());
  // The time-to-solution part writes its own solutions.md and solutions.json beside these.
  if (!stop) status = std::max(status, run_solution_benchmark({opt.backend, opt.out_dir, opt.quick}, stop));
  return status;
}

}  // namespace hsparse::bench
