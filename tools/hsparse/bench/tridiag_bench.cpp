// hsparse bench --tridiag (tridiag_bench.hpp).
#include "tridiag_bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <vector>

#include "hsparse/io/atomic_file.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "number_format.hpp"
#include "option_checks.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/generators/tridiagonal_batch.hpp"
#include "hsparse/backends/cuda/timing.hpp"
#include "hsparse/backends/cuda/tridiagonal.hpp"
#include "hsparse/kernels/tridiagonal.hpp"

namespace hsparse::bench {

namespace {

using V = double;

struct Cell {
  long long size = 0, count = 0;
};

struct TridiagRow {
  long long size = 0, count = 0;
  std::string layout, solver, library;  // library: hsparse or cusparse
  double seconds = 0;
  double systems_per_s = 0, gbytes_per_s = 0;
  double error = 0;  // max |x - x_thomas| / max |x_thomas|
};

// The grid: sizes 64 .. 2^20 with 2^20 and 2^24 unknowns in all, and the
// lecture's 512 x 512 (the anchors are cells of it).
std::vector<Cell> grid(bool quick) {
  if (quick) return {{64, 4096}, {512, 512}};
  std::vector<Cell> cells = {{512, 512}};
  for (long long size : {64LL, 512LL, 4096LL, 65536LL, 1LL << 20}) {
    for (long long total : {1LL << 20, 1LL << 24}) cells.push_back({size, total / size});
  }
  return cells;
}

double max_relative_error(const std::vector<V>& x, const std::vector<V>& ref) {
  double e = 0, s = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    if (!std::isfinite(x[i])) return INFINITY;
    e = std::max(e, std::abs(x[i] - ref[i]));
    s = std::max(s, std::abs(ref[i]));
  }
  return s > 0 ? e / s : e;
}

}  // namespace

int run_tridiag_benchmark(const TridiagBenchOptions& opt, const std::atomic<bool>& stop) {
  const bool gpu = tool::resolve_backend(opt.backend) == "cuda";
  std::vector<TridiagRow> rows;
  std::vector<std::pair<int, double>> switch_sweep;
  int status = 0;
  const std::string device = gpu ? cuda::device_description() : "CPU (OpenMP)";
  for (const Cell cell : grid(opt.quick)) {
    for (auto layout : {TridiagonalLayout::contiguous, TridiagonalLayout::interleaved}) {
      if (stop) break;
      const auto t = generators::random_tridiagonal_batch<V>(cell.size, cell.count, layout, 21);
      std::vector<V> ref(t.d.size());
      openmp::tridiagonal_solve<V>(t.systems(), t.d, ref);
      const double bytes = 5.0 * static_cast<double>(t.d.size()) * sizeof(V);  // read a, b, c, d; write x
      auto add = [&](const std::string& solver, const std::string& library, double seconds, const std::vector<V>& x) {
        TridiagRow r{cell.size, cell.count, to_string(layout), solver, library, seconds};
        r.systems_per_s = static_cast<double>(cell.count) / seconds;
        r.gbytes_per_s = bytes / seconds * 1e-9;
        r.error = max_relative_error(x, ref);
        if (r.error > 1e-10) {
          std::fprintf(stderr, "hsparse bench --tridiag: %s on %lld x %lld %s: error %.3g against Thomas\n", solver.c_str(), cell.size, cell.count,
                       r.layout.c_str(), r.error);
          status = 1;
        }
        std::printf("  %8lld x %-8lld %-11s %-36s %10.1f us %9.2f GB/s\n", cell.size, cell.count, r.layout.c_str(), (library + " " + solver).c_str(),
                    seconds * 1e6, r.gbytes_per_s);
        rows.push_back(r);
      };
      if (!gpu) {
        std::vector<V> x(t.d.size());
        const auto s = time_repeated([&] { openmp::tridiagonal_solve<V>(t.systems(), t.d, x); }, 5, 1);
        add("thomas (OpenMP)", "hsparse", s.median_s, x);
        continue;
      }
      const cuda::Executor ex;
      cuda::TridiagonalSolver<V> solver(ex);
      // a, b, c consecutive (cuSPARSE's in-place interleaved solver needs it).
      std::vector<V> abc(t.a);
      abc.insert(abc.end(), t.b.begin(), t.b.end());
      abc.insert(abc.end(), t.c.begin(), t.c.end());
      cuda::DeviceArray<V> diag(abc), pristine(abc), d(t.d), x(t.d.size());
      const long long n = static_cast<long long>(t.d.size());
      const TridiagonalSystems<V> s{cell.size, cell.count, layout, diag.data(), diag.data() + n, diag.data() + 2 * n};
      const int reps = n >= (1 << 22) ? 10 : 30;
      using A = cuda::TridiagonalAlgorithm;
      std::vector<std::pair<std::string, cuda::TridiagonalOptions>> variants;
      auto variant = [&](A a) {
        cuda::TridiagonalOptions o;
        o.algorithm = a;
        variants.emplace_back(to_string(a), o);
      };
      variant(A::automatic);
      if (layout == TridiagonalLayout::interleaved || cell.count >= 4096) variant(A::thomas);
      if (cell.size <= cuda::kSharedCrMaxSize) {
        variant(A::cr);
        variant(A::hybrid);
      }
      if (cell.size <= cuda::kSharedSolverMaxSize) variant(A::pcr);
      variant(A::partition);
      for (const auto& [name, o] : variants) {
        solver.solve(s, d.data(), x.data(), o);
        solver.check();
        const auto tm = cuda::time_on_device(ex, [&] { solver.solve(s, d.data(), x.data(), o); }, reps, 2);
        add(name == "auto" ? "auto: " + solver.description() : solver.description(), "hsparse", tm.median_s, x.download());
      }
      // cuSPARSE, in place, the inputs restored before each run (untimed).
      cuda::DeviceArray<V> xd(t.d.size());
      auto restore = [&] {
        xd.upload(t.d.data(), t.d.size());
        if (layout == TridiagonalLayout::interleaved) diag.upload(abc.data(), abc.size());
      };
      restore();
      solver.cusparse_solve(s, xd.data(), xd.data(), true);
      ex.synchronize();
      const auto xc = xd.download();
      const auto tc = cuda::time_on_device(ex, [&] { solver.cusparse_solve(s, xd.data(), xd.data(), true); }, reps, 1, restore);
      add(layout == TridiagonalLayout::contiguous ? "gtsv2StridedBatch" : "gtsvInterleavedBatch(0)", "cusparse", tc.median_s, xc);
      diag.upload(abc.data(), abc.size());
      // The hybrid's switch point on 512 x 512 (contiguous).
      if (cell.size == 512 && cell.count == 512 && layout == TridiagonalLayout::contiguous) {
        for (int sw = 2; sw <= 512; sw *= 2) {
          cuda::TridiagonalOptions o;
          o.algorithm = A::hybrid;
          o.hybrid_switch = sw;
          switch_sweep.emplace_back(sw, cuda::time_on_device(ex, [&] { solver.solve(s, d.data(), x.data(), o); }, 50, 3).median_s);
        }
      }
    }
  }
  // Report.
  io::prepare_output_folder(opt.out_dir);
  nlohmann::json j;
  j["device"] = device;
  for (const auto& r : rows) {
    j["results"].push_back({{"size", r.size}, {"count", r.count}, {"layout", r.layout}, {"solver", r.solver}, {"library", r.library},
                            {"seconds", r.seconds}, {"systems_per_s", r.systems_per_s}, {"gbytes_per_s", r.gbytes_per_s}, {"error", r.error}});
  }
  for (const auto& [sw, sec] : switch_sweep) j["hybrid_switch_512x512"].push_back({{"switch", sw}, {"seconds", sec}});
  // Each file complete or absent; a failed write is an error naming it (atomic_file.hpp).
  io::write_file_atomically(opt.out_dir + "/tridiag.json", j.dump(1) + "\n");
  io::AtomicOutputFile md_file(opt.out_dir + "/tridiag.md");
  std::ostream& md = md_file.stream();
  md << "# Batched tridiagonal solvers\n\n" << device
     << "; double; random diagonally dominant systems; " << (gpu ? "CUDA events" : "wall clock") << ", median; GB/s counts reading a, b, c, d and writing x once.\n\n";
  md << "| size | count | best hsparse | us | GB/s | best cuSPARSE | us | speedup |\n|---:|---:|---|---:|---:|---|---:|---:|\n";
  double log_sum = 0;
  int cells = 0, wins = 0;
  for (const Cell cell : grid(opt.quick)) {
    const TridiagRow* bh = nullptr;
    const TridiagRow* bc = nullptr;
    for (const auto& r : rows) {
      if (r.size != cell.size || r.count != cell.count) continue;
      const TridiagRow*& best = r.library == "hsparse" ? bh : bc;
      if (!best || r.seconds < best->seconds) best = &r;
    }
    if (!bh) continue;
    md << "| " << cell.size << " | " << cell.count << " | " << bh->solver << " (" << bh->layout << ") | " << fmt("%.1f", bh->seconds * 1e6) << " | "
       << fmt("%.0f", bh->gbytes_per_s) << " | ";
    if (bc) {
      const double sp = bc->seconds / bh->seconds;
      md << bc->solver << " | " << fmt("%.1f", bc->seconds * 1e6) << " | " << fmt("%.2fx", sp) << " |\n";
      log_sum += std::log(sp);
      ++cells;
      wins += sp >= 1.0 ? 1 : 0;
    } else {
      md << "- | - | - |\n";
    }
  }
  if (cells > 0) {
    const double gm = std::exp(log_sum / cells);
    md << "\n## Goals\n\n- best hsparse at least as fast as the faster cuSPARSE solver in every cell: " << wins << " of " << cells << " cells ("
       << (wins == cells ? "met" : "missed") << ")\n- geometric mean speedup " << fmt("%.2fx", gm) << " (goal 1.5x: " << (gm >= 1.5 ? "met" : "missed") << ")\n";
  }
  if (!switch_sweep.empty()) {
    md << "\n## CR+PCR hybrid: switch point, 512 systems of 512 unknowns\n\n| equations left for PCR | us |\n|---:|---:|\n";
    for (const auto& [sw, sec] : switch_sweep) md << "| " << sw << " | " << fmt("%.2f", sec * 1e6) << " |\n";
  }
  md << "\n## Every solver\n\n| size | count | layout | library | solver | us | systems/s | GB/s | error |\n|---:|---:|---|---|---|---:|---:|---:|---:|\n";
  for (const auto& r : rows) {
    md << "| " << r.size << " | " << r.count << " | " << r.layout << " | " << r.library << " | " << r.solver << " | " << fmt("%.1f", r.seconds * 1e6) << " | "
       << fmt("%.3g", r.systems_per_s) << " | " << fmt("%.0f", r.gbytes_per_s) << " | " << fmt("%.1e", r.error) << " |\n";
  }
  md_file.commit();
  std::printf("\nreport: %s/tridiag.md (data: tridiag.json)\n", opt.out_dir.c_str());
  return status;
}

}  // namespace hsparse::bench
