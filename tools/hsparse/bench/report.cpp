// Output of hsparse bench: the console table, results.json and results.csv
// (every figure, with the run's device, driver, commit and date), plots
// drawn by gnuplot (roofline, speedup over the best baseline, conversion
// break-even; PNG and SVG) and report.md linking them, with the issue's
// goals checked and the misses stated with their size.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "bench.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::bench {

namespace {

using json = nlohmann::json;

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

const char* baseline_name(const Report& r) { return r.env.backend == "cuda" ? "cuSPARSE" : "Eigen/librsb"; }

// Per matrix: the best hsparse result and the best baselines.
struct MatrixSummary {
  const MatrixInfo* info = nullptr;
  const Result* best_hsparse = nullptr;
  const Result* best_baseline = nullptr;
  const Result* best_baseline_csr = nullptr;
  const Result* best_block = nullptr;  // best hsparse BCSR or SELL
};

std::vector<MatrixSummary> summarize(const Report& r) {
  std::vector<MatrixSummary> out;
  for (const auto& m : r.matrices) {
    MatrixSummary s;
    s.info = &m;
    for (const auto& x : r.results) {
      if (x.matrix != m.name || x.status != "ok") continue;
      auto better = [&](const Result* cur) { return !cur || x.gflops > cur->gflops; };
      if (x.library == "hsparse") {
        if (better(s.best_hsparse)) s.best_hsparse = &x;
        if ((x.format == "bcsr" || x.format == "sell") && better(s.best_block)) s.best_block = &x;
      } else {
        if (better(s.best_baseline)) s.best_baseline = &x;
        if (x.format == "csr" && better(s.best_baseline_csr)) s.best_baseline_csr = &x;
      }
    }
    out.push_back(s);
  }
  return out;
}

double ratio(const Result* a, const Result* b) { return a && b && b->gflops > 0 ? a->gflops / b->gflops : 0; }

std::string short_name(const std::string& name) {
  const auto slash = name.find_last_of('/');
  std::string s = name.rfind("replicate:", 0) == 0 ? "replicate:" + name.substr(slash + 1) : name.substr(slash == std::string::npos ? 0 : slash + 1);
  if (s.ends_with(".mtx.gz")) s.resize(s.size() - 7);
  return s;
}

// "Regular": structured matrices whose rows are alike and whose x accesses
// are local: the stencil, FEM and banded families; a file when its row
// lengths barely vary (cv < 0.5) and it is not a uniform random or
// short-and-wide generator (equal lengths, scattered columns).
bool is_regular(const MatrixInfo& m) {
  for (const char* family : {"stencil2d:", "stencil3d:", "fem:", "banded:"}) {
    if (m.name.rfind(family, 0) == 0) return true;
  }
  const bool generated = m.name.find(':') != std::string::npos && m.name.rfind("replicate:", 0) != 0;
  return !generated && m.row_cv < 0.5;
}

struct Goal {
  std::string what;
  bool met = false;
  std::string measured;
};

std::vector<Goal> check_goals(const Report& r, const std::vector<MatrixSummary>& sums) {
  std::vector<Goal> goals;
  // The suite proper: matrices streamed from memory (not cache-resident).
  double log_any = 0, log_csr = 0, worst = 1e300;
  int n = 0;
  std::string worst_name;
  std::string regular_misses, block_misses;
  int regular = 0, regular_met = 0, blocks = 0, blocks_met = 0;
  for (const auto& s : sums) {
    if (s.info->cache_resident || !s.best_hsparse || !s.best_baseline || !s.best_baseline_csr) continue;
    const double any = ratio(s.best_hsparse, s.best_baseline), csr = ratio(s.best_hsparse, s.best_baseline_csr);
    log_any += std::log(any);
    log_csr += std::log(csr);
    ++n;
    if (any < worst) {
      worst = any;
      worst_name = short_name(s.info->name);
    }
    if (is_regular(*s.info)) {
      ++regular;
      if (s.best_hsparse->bandwidth_fraction >= 0.85) ++regular_met;
      else regular_misses.append(" ").append(short_name(s.info->name)).append(fmt(" %.0f%%;", 100 * s.best_hsparse->bandwidth_fraction));
    }
    if (s.info->name.rfind("fem:", 0) == 0) {
      ++blocks;
      const double b = ratio(s.best_block, s.best_baseline);
      if (b >= 1.3) ++blocks_met;
      else block_misses.append(" ").append(short_name(s.info->name)).append(fmt(" %.2fx;", b));
    }
  }
  if (n == 0) return goals;
  const double g_any = std::exp(log_any / n), g_csr = std::exp(log_csr / n);
  const std::string base = baseline_name(r);
  goals.push_back({"large regular matrices: best hsparse kernel >= 85% of the read bandwidth (own minimum traffic)",
                   regular > 0 && regular_met == regular,
                   std::to_string(regular_met) + " of " + std::to_string(regular) + " met" + (regular_misses.empty() ? "" : "; missed:" + regular_misses)});
  goals.push_back({"geometric mean, best hsparse / best " + base + " (any format) >= 1.2", g_any >= 1.2,
                   fmt("%.2fx", g_any) + " over " + std::to_string(n) + " matrices" + (g_any >= 1.2 ? "" : fmt(" (short by %.0f%%)", 100 * (1.2 / g_any - 1)))});
  goals.push_back({"geometric mean, best hsparse / best " + base + " CSR >= 1.4", g_csr >= 1.4,
                   fmt("%.2fx", g_csr) + (g_csr >= 1.4 ? "" : fmt(" (short by %.0f%%)", 100 * (1.4 / g_csr - 1)))});
  goals.push_back({"no matrix below 0.97 of the best " + base, worst >= 0.97, "lowest " + fmt("%.2fx", worst) + " (" + worst_name + ")"});
  if (blocks > 0) {
    goals.push_back({"block matrices: hsparse BCSR or SELL >= 1.3x the best " + base, blocks_met == blocks,
                     std::to_string(blocks_met) + " of " + std::to_string(blocks) + " met" + (block_misses.empty() ? "" : "; missed:" + block_misses)});
  }
  // Issue 6: auto (the advisor's choice) against the best kernel measured,
  // counting the conversion beyond the fastest CSR kernel's setup over N products.
  int autos = 0, auto_met = 0, auto_csr_met = 0;
  std::string auto_misses;
  const double n_products = static_cast<double>(r.spmv_count);
  for (const auto& s : sums) {
    if (s.info->cache_resident) continue;
    const Result *ref = nullptr, *automatic = nullptr;
    for (const auto& x : r.results) {
      if (x.matrix != s.info->name || x.status != "ok") continue;
      if (x.format == "csr" && (!ref || x.time.median_s < ref->time.median_s)) ref = &x;
      if (x.automatic) automatic = &x;
    }
    if (!ref || !automatic) continue;
    auto total = [&](const Result& x) { return n_products * x.time.median_s + std::max(0.0, x.setup_s - ref->setup_s); };
    double best = total(*automatic), best_baseline_csr = 1e300;
    for (const auto& x : r.results) {
      if (x.matrix != s.info->name || x.status != "ok") continue;
      best = std::min(best, total(x));
      if (x.library != "hsparse" && x.format == "csr") best_baseline_csr = std::min(best_baseline_csr, total(x));
    }
    ++autos;
    const double share = best / total(*automatic);
    if (share >= 0.95) ++auto_met;
    else auto_misses.append(" ").append(short_name(s.info->name)).append(fmt(" %.0f%%;", 100 * share));
    if (total(*automatic) <= 1.03 * best_baseline_csr) ++auto_csr_met;
  }
  if (autos > 0) {
    goals.push_back({"auto within 95% of the best kernel at N = " + std::to_string(r.spmv_count) + " products (conversion counted)",
                     auto_met == autos, std::to_string(auto_met) + " of " + std::to_string(autos) + " met" + (auto_misses.empty() ? "" : "; missed:" + auto_misses)});
    goals.push_back({"auto never more than 3% slower than the best " + base + " CSR at that N", auto_csr_met == autos,
                     std::to_string(auto_csr_met) + " of " + std::to_string(autos) + " met"});
  }
  return goals;
}

json to_json(const Result& x) {
  json j = {{"matrix", x.matrix}, {"backend", x.backend}, {"library", x.library}, {"format", x.format}, {"kernel", x.kernel},
            {"status", x.status}, {"message", x.message}, {"setup_s", x.setup_s}, {"median_s", x.time.median_s},
            {"min_s", x.time.min_s}, {"max_s", x.time.max_s}, {"repetitions", x.time.repetitions}, {"gflops", x.gflops},
            {"matrix_bytes", x.matrix_bytes}, {"occupancy", x.occupancy}, {"bytes_min", x.bytes_min}, {"bytes_csr_min", x.bytes_csr_min},
            {"bytes_effective", x.bytes_effective}, {"gbs_min", x.gbs_min}, {"gbs_csr_min", x.gbs_csr_min},
            {"gbs_effective", x.gbs_effective}, {"bandwidth_fraction", x.bandwidth_fraction}, {"alpha", x.alpha},
            {"model_gflops", x.model_gflops}, {"csr_reference", x.csr_reference}, {"automatic", x.automatic},
            {"csr_measured", x.csr_measured}, {"above_model", x.above_model}, {"breakeven", breakeven_text(x)}};
  j["speedup_vs_baseline_csr"] = x.speedup_vs_baseline_csr ? json(*x.speedup_vs_baseline_csr) : json(nullptr);
  j["speedup_vs_baseline_best"] = x.speedup_vs_baseline_best ? json(*x.speedup_vs_baseline_best) : json(nullptr);
  j["breakeven_spmvs"] = x.breakeven_spmvs ? json(*x.breakeven_spmvs) : json(nullptr);
  return j;
}

json to_json(const Report& r) {
  const auto& e = r.env;
  json j;
  j["hsparse_bench"] = 1;
  j["environment"] = {{"backend", e.backend}, {"date", e.date}, {"commit", e.commit}, {"device", e.device}, {"driver", e.driver},
                      {"cpu", e.cpu}, {"threads", e.threads}, {"read_bytes_per_s", e.read_bytes_per_s},
                      {"copy_bytes_per_s", e.copy_bytes_per_s}, {"cache_bytes", e.cache_bytes}};
  j["interrupted"] = r.interrupted;
  j["spmv_count"] = r.spmv_count;
  j["matrices"] = json::array();
  for (const auto& m : r.matrices) {
    j["matrices"].push_back({{"name", m.name}, {"rows", m.rows}, {"cols", m.cols}, {"nnz", m.nnz}, {"csr_bytes", m.csr_bytes},
                             {"row_cv", m.row_cv}, {"max_row", m.max_row}, {"cache_resident", m.cache_resident}, {"load_s", m.load_s}});
  }
  j["results"] = json::array();
  for (const auto& x : r.results) j["results"].push_back(to_json(x));
  return j;
}

std::string csv_quote(const std::string& s) {
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

void write_csv(const Report& r, const std::string& path) {
  std::ofstream out(path);
  const json j = to_json(r);
  const std::vector<std::string> env_keys = {"date", "commit", "device", "driver"};
  std::vector<std::string> keys;
  if (!j["results"].empty()) {
    for (auto it = j["results"][0].begin(); it != j["results"][0].end(); ++it) keys.push_back(it.key());
  }
  for (const auto& k : env_keys) out << k << ",";
  for (std::size_t i = 0; i < keys.size(); ++i) out << keys[i] << (i + 1 < keys.size() ? "," : "\n");
  for (const auto& row : j["results"]) {
    for (const auto& k : env_keys) out << csv_quote(j["environment"][k].get<std::string>()) << ",";
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const auto& v = row[keys[i]];
      if (v.is_string()) out << csv_quote(v.get<std::string>());
      else if (!v.is_null()) out << v.dump();
      out << (i + 1 < keys.size() ? "," : "\n");
    }
  }
}

// gnuplot data and scripts; the plots are drawn when gnuplot is installed.
// Returns why some were not drawn (empty: all were).
std::string write_plots(const Report& r, const std::vector<MatrixSummary>& sums, const std::string& dir) {
  namespace fs = std::filesystem;
  fs::create_directories(dir + "/plots");
  const std::string p = dir + "/plots/";
  {  // roofline: one block per library
    std::ofstream d(p + "roofline.dat");
    std::set<std::string> libraries;
    for (const auto& x : r.results) if (x.status == "ok") libraries.insert(x.library);
    for (const auto& lib : libraries) {
      d << "# " << lib << "\n";
      for (const auto& x : r.results) {
        if (x.status != "ok" || x.library != lib) continue;
        const double nnz = x.gflops * 1e9 * x.time.median_s / 2;
        d << 2 * nnz / x.bytes_min << " " << x.gflops << "\n";
      }
      d << "\n\n";
    }
    std::ofstream g(p + "roofline.gp");
    g << "# Roofline (SELL-C-sigma paper eq. (10)): GFLOP/s against arithmetic intensity under each kernel's own minimum traffic.\n";
    g << "b = " << r.env.read_bytes_per_s * 1e-9 << "  # measured read bandwidth, GB/s\n";
    g << "set logscale xy; set grid; set key top left; set xlabel 'flop per byte (kernel format, minimum traffic)'; set ylabel 'GFLOP/s'\n";
    g << "set title 'Roofline, " << r.env.backend << ": " << r.env.device << " (points above the line: data partly served from cache)' noenhanced\n";
    g << "plot b*x title sprintf('read bandwidth %.0f GB/s', b) lw 2";
    int idx = 0;
    for (const auto& lib : libraries) g << ", 'roofline.dat' index " << idx++ << " using 1:2 with points pt 7 ps 0.8 title '" << lib << "'";
    g << "\n";
  }
  {  // speedup per matrix: one series per baseline library, and its CSR alone where it has other formats too
    struct Series {
      std::string title, library;
      bool csr_only = false;
    };
    std::vector<Series> series;
    std::map<std::string, std::set<std::string>> formats_of;
    for (const auto& x : r.results) {
      if (x.status == "ok" && x.library != "hsparse") formats_of[x.library].insert(x.format);
    }
    for (const auto& [lib, formats] : formats_of) {
      series.push_back({"vs " + lib + (formats.size() > 1 ? " (its best format)" : " (" + *formats.begin() + ")"), lib, false});
      if (formats.size() > 1 && formats.count("csr")) series.push_back({"vs " + lib + " CSR", lib, true});
    }
    auto best_of = [&](const std::string& matrix, const Series& se) {
      double best = 0;
      for (const auto& x : r.results) {
        if (x.matrix == matrix && x.status == "ok" && x.library == se.library && (!se.csr_only || x.format == "csr")) best = std::max(best, x.gflops);
      }
      return best;
    };
    std::ofstream d(p + "speedup.dat");
    d << "matrix";
    for (std::size_t i = 0; i < series.size(); ++i) d << " s" << i;
    d << "\n";
    for (const auto& sm : sums) {
      d << '"' << short_name(sm.info->name) << '"';
      for (const auto& se : series) {
        const double b = best_of(sm.info->name, se);
        d << " " << (sm.best_hsparse && b > 0 ? sm.best_hsparse->gflops / b : NAN);
      }
      d << "\n";
    }
    std::ofstream g(p + "speedup.gp");
    g << "# Best hsparse kernel over each baseline per matrix; 1 = parity (dashed).\n";
    g << "set title 'Best hsparse kernel against the baselines, " << r.env.backend << ": " << r.env.device << "' noenhanced\n";
    g << "set style data histograms; set style histogram clustered gap 1; set style fill solid 0.8 border -1\n";
    g << "set xlabel 'matrix'; set ylabel 'speedup (best hsparse GFLOP/s / baseline GFLOP/s)'; set yrange [0:*]; set grid y\n";
    g << "set xtics rotate by 30 right noenhanced; set lmargin 14; set key outside below horizontal noenhanced\n";
    g << "set key autotitle columnhead  # the data's first line is its header, not a matrix\n";
    g << "set arrow from graph 0, first 1 to graph 1, first 1 nohead lw 2 dt 2\n";
    if (series.empty()) {
      g << "set label 1 'no baseline ran: nothing to compare' at graph 0.5, 0.5 center\nset yrange [0:2]\nplot NaN notitle\n";
    } else {
      g << "plot ";
      for (std::size_t i = 0; i < series.size(); ++i) {
        g << (i ? ", " : "") << "'speedup.dat' using " << i + 2 << (i ? "" : ":xtic(1)") << " title '" << series[i].title << "'";
      }
      g << "\n";
    }
  }
  {  // conversion break-even: best kernel of each non-CSR hsparse format per matrix
    // A log axis has no 0: a format paying back "at once" (within the first
    // product) is drawn at 1, which the axis label says.
    auto best_of = [&](const std::string& matrix, const std::string& f) {
      const Result* best = nullptr;
      for (const auto& x : r.results) {
        if (x.matrix == matrix && x.status == "ok" && x.library == "hsparse" && x.format == f && (!best || x.gflops > best->gflops)) best = &x;
      }
      return best && best->breakeven_spmvs ? std::optional<double>(std::max(*best->breakeven_spmvs, 1.0)) : std::nullopt;
    };
    // Only formats that pay back somewhere: gnuplot refuses a histogram column without a value.
    std::vector<std::string> formats;
    for (const std::string f : {"coo", "ell", "hyb", "dia", "bcsr", "sell"}) {
      for (const auto& sm : sums) {
        if (best_of(sm.info->name, f)) {
          formats.push_back(f);
          break;
        }
      }
    }
    std::ofstream d(p + "breakeven.dat");
    d << "matrix";
    for (const auto& f : formats) d << " " << f;
    d << "\n";
    for (const auto& sm : sums) {
      d << '"' << short_name(sm.info->name) << '"';
      for (const auto& f : formats) {
        const auto v = best_of(sm.info->name, f);
        d << " " << (v ? *v : NAN);
      }
      d << "\n";
    }
    std::ofstream g(p + "breakeven.gp");
    g << "# SpMVs needed to pay back the conversion from CSR (Reguly's figure 16); missing bars: never faster than the fastest CSR kernel.\n";
    g << "set title 'Products until a conversion from CSR pays back, " << r.env.backend << ": " << r.env.device << "' noenhanced\n";
    g << "set style data histograms; set style histogram clustered gap 1; set style fill solid 0.8 border -1\n";
    g << "set xlabel 'matrix (no bar: that format is never faster than the fastest CSR kernel)'; set grid y\n";
    g << "set ylabel 'SpMVs to break even (1: pays back at once)'; set xtics rotate by 30 right noenhanced; set lmargin 14\n";
    g << "set key outside below horizontal\n";
    if (!formats.empty()) {
      g << "set logscale y; set yrange [0.8:*]\n";
      g << "plot for [i=2:" << formats.size() + 1 << "] 'breakeven.dat' using i:xtic(1) title columnheader(i)\n";
    } else {
      g << "set label 1 'no format was faster than the fastest CSR kernel: no conversion pays back' at graph 0.5, 0.5 center\n";
      g << "set yrange [0:1]; plot NaN notitle\n";
    }
  }
  if (std::system("command -v gnuplot > /dev/null 2>&1") != 0) return "gnuplot is not installed here";
  std::string failed;
  for (const char* name : {"roofline", "speedup", "breakeven"}) {
    for (const auto& [term, ext] : std::vector<std::pair<std::string, std::string>>{{"pngcairo size 1400,900", "png"}, {"svg size 1400,900", "svg"}}) {
      const std::string cmd = "cd '" + p + "' && gnuplot -e \"set terminal " + term + "; set output '" + name + "." + ext + "'\" " + name +
                              ".gp 2> " + name + "." + ext + ".log";
      // The log stays only when gnuplot failed: it says why.
      const std::string log = p + name + "." + ext + ".log";
      if (std::system(cmd.c_str()) != 0) failed += std::string(failed.empty() ? "" : ", ") + name + "." + ext;
      else std::filesystem::remove(log);
    }
  }
  return failed.empty() ? "" : "gnuplot failed on " + failed + " (see plots/*.log)";
}

}  // namespace

void print_console(const Report& r) {
  std::printf("\nhsparse bench on %s (%s), commit %s, %s\nread bandwidth %.1f GB/s", r.env.device.c_str(), r.env.backend.c_str(),
              r.env.commit.c_str(), r.env.date.c_str(), r.env.read_bytes_per_s * 1e-9);
  if (r.env.copy_bytes_per_s > 0) std::printf(", copy %.1f GB/s", r.env.copy_bytes_per_s * 1e-9);
  std::printf("\n");
  for (const auto& m : r.matrices) {
    std::printf("\n%s  (%lld x %lld, %zu nonzeros%s)\n", m.name.c_str(), static_cast<long long>(m.rows), static_cast<long long>(m.cols), m.nnz,
                m.cache_resident ? ", fits in cache" : "");
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
  if (r.interrupted) std::printf("interrupted: the results above are what was measured before Ctrl-C\n");
}

void write_report(const Report& r, const std::string& dir) {
  namespace fs = std::filesystem;
  fs::create_directories(dir);
  std::ofstream(dir + "/results.json") << to_json(r).dump(1) << "\n";
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
     << (e.backend == "cuda" ? ", each timed with CUDA events after an L2 flush" : ", best of two interleaved rounds")
     << ". GB/s and % BW use each kernel's own minimum traffic (its stored format read once, x read once, y written once); "
        "alpha is the RHS traffic per nonzero implied by the measured speed at the read bandwidth (SELL-C-sigma paper eq. (14); "
        "1/N_nzc is perfect reuse); model is the roofline limit with x read once (eq. (10)). Break-even: SpMVs until the conversion "
        "from CSR pays off against the fastest CSR kernel (Reguly's figure 16).\n";
  md << "\n## Goals\n\n";
  const auto goals = check_goals(r, sums);
  if (goals.empty()) md << "No matrix streamed from memory with both hsparse and baseline results: no goal checked.\n";
  for (const auto& g : goals) md << "- " << (g.met ? "**met**" : "**missed**") << ": " << g.what << " — " << g.measured << "\n";
  md << "\n## Summary per matrix\n\n| matrix | nnz | best hsparse | GFLOP/s | % BW | best " << baseline_name(r) << " | GFLOP/s | ratio | vs best "
     << baseline_name(r) << " CSR |\n|---|---:|---|---:|---:|---|---:|---:|---:|\n";
  for (const auto& s : sums) {
    md << "| " << short_name(s.info->name) << (s.info->cache_resident ? " (in cache)" : "") << " | " << s.info->nnz << " | "
       << (s.best_hsparse ? s.best_hsparse->kernel : "-") << " | " << (s.best_hsparse ? fmt("%.1f", s.best_hsparse->gflops) : "-") << " | "
       << (s.best_hsparse ? fmt("%.0f%%", 100 * s.best_hsparse->bandwidth_fraction) : "-") << " | "
       << (s.best_baseline ? s.best_baseline->library + " " + s.best_baseline->kernel : "-") << " | "
       << (s.best_baseline ? fmt("%.1f", s.best_baseline->gflops) : "-") << " | " << fmt("%.2fx", ratio(s.best_hsparse, s.best_baseline)) << " | "
       << fmt("%.2fx", ratio(s.best_hsparse, s.best_baseline_csr)) << " |\n";
  }
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
        "occupancy | vs " << baseline_name(r) << " CSR | break-even |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& x : r.results) {
    if (x.status != "ok") continue;
    md << "| " << short_name(x.matrix) << " | " << x.library << " | " << x.kernel << " | " << fmt("%.1f", x.setup_s * 1e3) << " | "
       << fmt("%.4f", x.time.median_s * 1e3) << " | " << fmt("%.4f", x.time.min_s * 1e3) << " | " << fmt("%.4f", x.time.max_s * 1e3) << " | "
       << fmt("%.1f", x.gflops) << " | " << fmt("%.0f", x.gbs_min) << " | " << fmt("%.0f%%", 100 * x.bandwidth_fraction) << " | "
       << fmt("%.3f", x.alpha) << (x.above_model ? " †" : "") << " | " << fmt("%.0f", x.model_gflops) << (x.above_model ? " †" : "") << " | "
       << fmt("%.3f", x.occupancy) << " | "
       << (x.speedup_vs_baseline_csr ? fmt("%.2fx", *x.speedup_vs_baseline_csr) : "-") << " | " << breakeven_text(x) << " |\n";
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
  std::ofstream(dir + "/report.md") << md.str();
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
      r.matrices.push_back({m["name"], m["rows"], m["cols"], m["nnz"], m["csr_bytes"], m["row_cv"], m["max_row"], m["cache_resident"], m["load_s"]});
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
      q.time = {x["median_s"], x["min_s"], x["max_s"], x["repetitions"]};
      q.gflops = x["gflops"];
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
