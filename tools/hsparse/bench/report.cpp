// Output of hsparse bench: the console table, results.json and results.csv
// (every figure, with the run's device, driver, commit and date), plots
// drawn by gnuplot (roofline, speedup over the best baseline, conversion
// break-even; PNG and SVG) and report.md linking them, with the issue's
// goals checked and the misses stated with their size.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "hsparse/io/atomic_file.hpp"
#include "bench.hpp"
#include "peer_figures.hpp"
#include "hsparse/core/error.hpp"
#include "report_parts.hpp"

namespace hsparse::bench {

using namespace detail;

void print_console(const Report& r) {
  std::printf("\nhsparse bench on %s (%s), commit %s, %s\nread bandwidth %.1f GB/s", r.env.device.c_str(), r.env.backend.c_str(),
              r.env.commit.c_str(), r.env.date.c_str(), r.env.read_bytes_per_s * 1e-9);
  if (r.env.copy_bytes_per_s > 0) std::printf(", copy %.1f GB/s", r.env.copy_bytes_per_s * 1e-9);
  std::printf("\n");
  for (const auto& m : r.matrices) {
    std::printf("\n%s  (%lld x %lld, %zu nonzeros%s%s)\n", m.name.c_str(), static_cast<long long>(m.rows), static_cast<long long>(m.cols), m.nnz,
                m.values == "double" ? "" : (", " + m.values + " values: GFLOP/s count 8 per nonzero").c_str(), m.cache_resident ? ", fits in cache" : "");
    std::printf("  %-46s %10s %9s %7s %9s %10s\n", "kernel", "GFLOP/s", "GB/s", "% BW", "vs CSR*", "break-even");
    std::vector<const Result*> rows;
    for (const auto& x : r.results) if (x.matrix == m.name) rows.push_back(&x);
    std::stable_sort(rows.begin(), rows.end(), [](const Result* a, const Result* b) { return a->gflops > b->gflops; });
    for (const Result* x : rows) {
      const std::string name = x->library + " " + x->kernel;
      if (x->status != "ok") {
        std::printf("  %-46s %s\n", name.c_str(), status_text(*x).c_str());
        continue;
      }
      std::printf("  %-46s %10.1f %9.1f %6.1f%% %9s %10s\n", name.c_str(), x->gflops, x->gbs_min, 100 * x->bandwidth_fraction,
                  x->speedup_vs_baseline_csr ? fmt("%.2fx", *x->speedup_vs_baseline_csr).c_str() : "-", breakeven_text(*x).c_str());
    }
  }
  std::printf("\n* speedup over the best %s CSR kernel on the same matrix\n", baseline_name(r));
  const auto sums = summarize(r);
  for (const auto& g : check_goals(r, sums)) std::printf("%s %s: %s\n", g.met ? "[met]   " : "[missed]", g.what.c_str(), g.measured.c_str());
  if (const std::string c = auto_choice_text(r); !c.empty()) std::printf("%s\n", c.c_str());
  if (r.interrupted) std::printf("interrupted: the results above are what was measured before Ctrl-C\n");
}

std::string write_report(const Report& r, const std::string& dir) {
  io::prepare_output_folder(dir);
  // Each file complete or absent; a failed write is an error naming it (atomic_file.hpp).
  io::write_file_atomically(dir + "/results.json", to_json(r).dump(1) + "\n");
  write_csv(r, dir + "/results.csv");
  const auto sums = summarize(r);
  const std::string plot_problem = write_plots(r, sums, dir);
  std::ostringstream md;
  const auto& e = r.env;
  md << "# hsparse bench report\n\n";
  md << "| | |\n|---|---|\n| device | " << e.device << " |\n| backend | " << e.backend << " |\n| driver | " << (e.driver.empty() ? "-" : e.driver)
     << " |\n| CPU | " << e.cpu << " (" << e.threads << " threads) |\n| commit | " << e.commit << " |\n| date | " << e.date << " |\n"
     << "| read bandwidth | " << fmt("%.1f GB/s", e.read_bytes_per_s * 1e-9) << " |\n";
  if (e.copy_bytes_per_s > 0) md << "| copy bandwidth | " << fmt("%.1f GB/s", e.copy_bytes_per_s * 1e-9) << " |\n";
  md << "| cache (L2 / LLC) | " << fmt("%.0f MiB", static_cast<double>(e.cache_bytes) / (1 << 20)) << " |\n";
  if (r.interrupted) md << "\n**Interrupted**: only the matrices and kernels measured before Ctrl-C are here.\n";
  md << "\nDouble precision, int32 indices. Every kernel's y was checked against the serial double-precision reference before it was "
        "timed; a wrong one is listed as wrong, never timed. Times are medians of repetitions filling a minimum time"
     << (e.backend == "cuda" ? ", each timed with CUDA events after an L2 flush (the GFLOP/s, % BW and ratio columns); the GPU also "
                               "times every kernel back to back (up to 1000 calls on the same x between two events, nothing flushed, as DASP and "
                               "most SpMV papers do): the columns marked \"back to back\""
                             : ", best of two interleaved rounds (back to back: the CPU's cache is far smaller than the suite's matrices)")
     << ". GB/s and % BW use each kernel's own minimum traffic (its stored format read once, x read once, y written once); "
        "alpha is the RHS traffic per nonzero implied by the measured speed at the read bandwidth (SELL-C-sigma paper eq. (14); "
        "1/N_nzc is perfect reuse); model is the roofline limit with x read once (eq. (10)). Break-even: SpMVs until the conversion "
        "from CSR pays off against the fastest CSR kernel (Reguly's figure 16). A setup shorter than 0.5 s is the faster of two builds.\n";
  md << "\n## Goals\n\n";
  const auto goals = check_goals(r, sums);
  if (goals.empty()) md << "No matrix streamed from memory with both hsparse and baseline results: no goal checked.\n";
  for (const auto& g : goals) md << "- " << (g.met ? "**met**" : "**missed**") << ": " << g.what << " — " << g.measured << "\n";
  if (const std::string c = auto_choice_text(r); !c.empty()) md << "\n" << c << ".\n";
  md << "\n## Summary per matrix\n\n| matrix | nnz | best hsparse | GFLOP/s | % BW | best " << baseline_name(r) << " | GFLOP/s | ratio | vs best "
     << baseline_name(r) << " CSR |\n|---|---:|---|---:|---:|---|---:|---:|---:|\n";
  for (const auto& s : sums) {
    md << "| " << short_name(s.info->name) << (s.info->values == "double" ? "" : " (" + s.info->values + ")") << (s.info->cache_resident ? " (in cache)" : "")
       << " | " << s.info->nnz << " | "
       << (s.best_hsparse ? s.best_hsparse->kernel : "-") << " | " << (s.best_hsparse ? fmt("%.1f", s.best_hsparse->gflops) : "-") << " | "
       << (s.best_hsparse ? fmt("%.0f%%", 100 * s.best_hsparse->bandwidth_fraction) : "-") << " | "
       << (s.best_baseline ? s.best_baseline->library + " " + s.best_baseline->kernel : "-") << " | "
       << (s.best_baseline ? fmt("%.1f", s.best_baseline->gflops) : "-") << " | " << fmt("%.2fx", ratio(s.best_hsparse, s.best_baseline)) << " | "
       << fmt("%.2fx", ratio(s.best_hsparse, s.best_baseline_csr)) << " |\n";
  }
  if (std::any_of(sums.begin(), sums.end(), [](const MatrixSummary& s) { return s.best_hsparse_back_to_back; })) {
    md << "\n### Back to back (no flush between calls)\n\nDASP: its own run on an H200 (back to back, bench/peer_figures.hpp), on the "
          "matrices it was measured on (`--peer-suite`).\n\n| matrix | best hsparse | GFLOP/s | best "
       << baseline_name(r) << " | GFLOP/s | ratio | DASP GFLOP/s | vs the faster of both |\n|---|---|---:|---|---:|---:|---:|---:|\n";
    for (const auto& s : sums) {
      const Result *h = s.best_hsparse_back_to_back, *b = s.best_baseline_back_to_back;
      const auto peer = peer_figure(s.info->name, e.device);
      const double faster = std::max(b ? b->gflops_back_to_back : 0.0, peer ? peer->gflops : 0.0);
      md << "| " << short_name(s.info->name) << " | " << (h ? h->kernel : "-") << " | " << (h ? fmt("%.1f", h->gflops_back_to_back) : "-") << " | "
         << (b ? b->library + " " + b->kernel : "-") << " | " << (b ? fmt("%.1f", b->gflops_back_to_back) : "-") << " | "
         << (h && b ? fmt("%.2fx", h->gflops_back_to_back / b->gflops_back_to_back) : "-") << " | " << (peer ? fmt("%.0f", peer->gflops) : "-")
         << " | " << (h && peer && faster > 0 ? fmt("%.2fx", h->gflops_back_to_back / faster) : "-") << " |\n";
    }
  }
  write_byte_floor_section(md, sums);
  md << "\n## Plots\n\n";
  for (const char* name : {"roofline", "speedup", "breakeven"}) {
    if (std::filesystem::exists(dir + "/plots/" + name + ".png") && std::filesystem::file_size(dir + "/plots/" + name + ".png") > 0) {
      md << "![" << name << "](plots/" << name << ".png)\n\n";
    }
  }
  if (plot_problem.empty()) {
    md << "SVG versions beside the PNGs in `plots/`.\n";
  } else {
    md << "Not every plot was drawn: " << plot_problem << ". The data and gnuplot scripts are in `plots/`; "
          "`hsparse bench --report-from results.json --out DIR` redraws them where gnuplot works.\n";
  }
  md << "\n## Every kernel\n\n| matrix | library | kernel | setup ms | median ms | min ms | max ms | GFLOP/s | GB/s | % BW | alpha | model GFLOP/s | "
        "occupancy | vs " << baseline_name(r) << " CSR | break-even | back to back GFLOP/s |\n"
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& x : r.results) {
    if (x.status != "ok") continue;
    md << "| " << short_name(x.matrix) << " | " << x.library << " | " << x.kernel << " | " << fmt("%.1f", x.setup_s * 1e3) << " | "
       << fmt("%.4f", x.time.median_s * 1e3) << " | " << fmt("%.4f", x.time.min_s * 1e3) << " | " << fmt("%.4f", x.time.max_s * 1e3) << " | "
       << fmt("%.1f", x.gflops) << " | " << fmt("%.0f", x.gbs_min) << " | " << fmt("%.0f%%", 100 * x.bandwidth_fraction) << " | "
       << fmt("%.3f", x.alpha) << (x.above_model ? " †" : "") << " | " << fmt("%.0f", x.model_gflops) << (x.above_model ? " †" : "") << " | "
       << fmt("%.3f", x.occupancy) << " | "
       << (x.speedup_vs_baseline_csr ? fmt("%.2fx", *x.speedup_vs_baseline_csr) : "-") << " | " << breakeven_text(x) << " | "
       << (x.gflops_back_to_back > 0 ? fmt("%.1f", x.gflops_back_to_back) : "-") << " |\n";
  }
  md << "\n† faster than the roofline with x read once (model GFLOP/s): part of the matrix or vectors came from cache (a "
        "matrix a few times the last-level cache still keeps some there between repetitions on a CPU), or the read-bandwidth "
        "test underestimates this machine (a shared VM's bandwidth varies from run to run). Eq. (14) then gives an alpha below "
        "its floor 1/N_nzc, even negative; alpha is shown at that floor.\n";
  md << "\nBreak-even: \"at once\" when the format's set-up is no longer than the fastest CSR kernel's (it pays back from the "
        "first product); \"never\" when it is not faster than that CSR kernel; \"not measured\" when no CSR kernel ran on the matrix.\n";
  md << "\n## Not timed\n\n";
  bool any = false;
  for (const auto& x : r.results) {
    if (x.status == "ok") continue;
    any = true;
    md << "- " << short_name(x.matrix) << ", " << x.library << " " << x.kernel << ": **" << x.status << "** — " << status_text(x) << "\n";
  }
  if (!any) md << "Every kernel ran.\n";
  md << "\nData: `results.json`, `results.csv`.\n";
  io::write_file_atomically(dir + "/report.md", md.str());
  return plot_problem;
}

Report read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(ErrorCode::io, path + ": cannot open");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {
    throw Error(ErrorCode::parse, path + ": not JSON: " + e.what());
  }
  if (!j.contains("hsparse_bench")) throw Error(ErrorCode::parse, path + ": not an hsparse bench result (no \"hsparse_bench\" key)");
  Report r;
  try {
    const auto& e = j["environment"];
    r.env = {e["backend"], e["date"], e["commit"], e["device"], e["driver"], e["cpu"], e["threads"], e["read_bytes_per_s"],
             e["copy_bytes_per_s"], e["cache_bytes"]};
    r.interrupted = j["interrupted"];
    r.spmv_count = j.value("spmv_count", 1000LL);
    for (const auto& m : j["matrices"]) {
      r.matrices.push_back({m["name"], m["rows"], m["cols"], m["nnz"], m["csr_bytes"], m["row_cv"], m["max_row"], m["cache_resident"], m["load_s"],
                            m.value("values", std::string("double"))});
    }
    for (const auto& x : j["results"]) {
      Result q;
      q.matrix = x["matrix"];
      q.backend = x["backend"];
      q.library = x["library"];
      q.format = x["format"];
      q.kernel = x["kernel"];
      q.status = x["status"];
      q.message = x["message"];
      q.setup_s = x["setup_s"];
      q.choice_s = x.value("choice_s", 0.0);
      q.time = {x["median_s"], x["min_s"], x["max_s"], x["repetitions"]};
      q.gflops = x["gflops"];
      q.time_back_to_back = {x.value("back_to_back_median_s", 0.0), x.value("back_to_back_min_s", 0.0), x.value("back_to_back_max_s", 0.0),
                             x.value("back_to_back_samples", 0)};
      q.gflops_back_to_back = x.value("gflops_back_to_back", 0.0);
      q.relative_error = x.value("relative_error", 0.0);
      q.matrix_bytes = x["matrix_bytes"];
      q.occupancy = x["occupancy"];
      q.bytes_min = x["bytes_min"];
      q.bytes_csr_min = x["bytes_csr_min"];
      q.bytes_effective = x["bytes_effective"];
      q.gbs_min = x["gbs_min"];
      q.gbs_csr_min = x["gbs_csr_min"];
      q.gbs_effective = x["gbs_effective"];
      q.bandwidth_fraction = x["bandwidth_fraction"];
      q.alpha = x["alpha"];
      q.model_gflops = x["model_gflops"];
      q.csr_reference = x["csr_reference"];
      q.automatic = x.value("automatic", false);
      q.csr_measured = x.value("csr_measured", true);
      q.above_model = x.value("above_model", false);
      if (!x["speedup_vs_baseline_csr"].is_null()) q.speedup_vs_baseline_csr = x["speedup_vs_baseline_csr"].get<double>();
      if (!x["speedup_vs_baseline_best"].is_null()) q.speedup_vs_baseline_best = x["speedup_vs_baseline_best"].get<double>();
      if (!x["breakeven_spmvs"].is_null()) q.breakeven_spmvs = x["breakeven_spmvs"].get<double>();
      r.results.push_back(q);
    }
  } catch (const json::exception& e) {
    throw Error(ErrorCode::parse, path + ": malformed hsparse bench result: " + e.what());
  }
  return r;
}

bool print_comparison(const Report& a, const Report& b) {
  std::printf("old: %s, commit %s, %s\nnew: %s, commit %s, %s\n\n", a.env.device.c_str(), a.env.commit.c_str(), a.env.date.c_str(),
              b.env.device.c_str(), b.env.commit.c_str(), b.env.date.c_str());
  std::set<std::string> old_names, common;
  for (const auto& m : a.matrices) old_names.insert(m.name);
  for (const auto& m : b.matrices) if (old_names.count(m.name)) common.insert(m.name);
  if (common.empty()) {
    auto names = [](const Report& r) {
      std::string s;
      for (const auto& m : r.matrices) s += (s.empty() ? "" : ", ") + short_name(m.name);
      return s.empty() ? std::string("none") : s;
    };
    std::printf("no matrix in common, nothing to compare (matrices are matched by name):\n  old: %s\n  new: %s\n", names(a).c_str(), names(b).c_str());
    return false;
  }
  std::map<std::string, const Result*> old_results;
  for (const auto& x : a.results) if (x.status == "ok") old_results[x.matrix + "|" + x.library + "|" + x.kernel] = &x;
  const auto sa = summarize(a), sb = summarize(b);
  std::printf("%-40s %12s %12s %8s\n", "matrix (best hsparse)", "old GFLOP/s", "new GFLOP/s", "ratio");
  double log_sum = 0;
  int n = 0;
  for (const auto& s : sb) {
    for (const auto& t : sa) {
      if (t.info->name != s.info->name || !t.best_hsparse || !s.best_hsparse) continue;
      const double q = s.best_hsparse->gflops / t.best_hsparse->gflops;
      std::printf("%-40s %12.1f %12.1f %7.2fx\n", short_name(s.info->name).c_str(), t.best_hsparse->gflops, s.best_hsparse->gflops, q);
      log_sum += std::log(q);
      ++n;
    }
  }
  if (n) std::printf("%-40s %12s %12s %7.2fx\n", "geometric mean", "", "", std::exp(log_sum / n));
  std::printf("\n%-40s %-40s %8s\n", "matrix", "kernel", "new/old");
  for (const auto& x : b.results) {
    if (x.status != "ok") continue;
    const auto it = old_results.find(x.matrix + "|" + x.library + "|" + x.kernel);
    if (it == old_results.end()) continue;
    std::printf("%-40s %-40s %7.2fx\n", short_name(x.matrix).c_str(), (x.library + " " + x.kernel).c_str(), x.gflops / it->second->gflops);
  }
  return true;
}

}  // namespace hsparse::bench
