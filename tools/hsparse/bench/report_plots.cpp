// The bench's gnuplot plots: roofline, speedup over the best baseline, conversion break-even (report_parts.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "hsparse/core/error.hpp"
#include "hsparse/io/atomic_file.hpp"
#include "hsparse/formats/format.hpp"
#include "gnuplot.hpp"
#include "report_parts.hpp"

namespace hsparse::bench::detail {

std::string write_plots(const Report& r, const std::vector<MatrixSummary>& sums, const std::string& dir) {
  io::prepare_output_folder(dir + "/plots");
  const std::string p = dir + "/plots/";
  {  // roofline: one block per library
    io::AtomicOutputFile d_file(p + "roofline.dat");
    std::ostream& d = d_file.stream();
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
    io::AtomicOutputFile g_file(p + "roofline.gp");
    std::ostream& g = g_file.stream();
    g << "# Roofline (SELL-C-sigma paper eq. (10)): GFLOP/s against arithmetic intensity under each kernel's own minimum traffic.\n";
    g << "b = " << r.env.read_bytes_per_s * 1e-9 << "  # measured read bandwidth, GB/s\n";
    g << "set logscale xy; set grid; set key top left; set xlabel 'flop per byte (kernel format, minimum traffic)'; set ylabel 'GFLOP/s'\n";
    g << "set title 'Roofline, " << r.env.backend << ": " << r.env.device << " (points above the line: data partly served from cache)' noenhanced\n";
    g << "plot b*x title sprintf('read bandwidth %.0f GB/s', b) lw 2";
    int idx = 0;
    for (const auto& lib : libraries) g << ", 'roofline.dat' index " << idx++ << " using 1:2 with points pt 7 ps 0.8 title '" << lib << "'";
    g << "\n";
    d_file.commit();
    g_file.commit();
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
    io::AtomicOutputFile d_file(p + "speedup.dat");
    std::ostream& d = d_file.stream();
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
    io::AtomicOutputFile g_file(p + "speedup.gp");
    std::ostream& g = g_file.stream();
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
    d_file.commit();
    g_file.commit();
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
    // Every registered format but CSR, the reference the break-even counts against.
    for (Format format : all_formats()) {
      if (format == Format::csr) continue;
      const std::string f = to_string(format);
      for (const auto& sm : sums) {
        if (best_of(sm.info->name, f)) {
          formats.push_back(f);
          break;
        }
      }
    }
    io::AtomicOutputFile d_file(p + "breakeven.dat");
    std::ostream& d = d_file.stream();
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
    io::AtomicOutputFile g_file(p + "breakeven.gp");
    std::ostream& g = g_file.stream();
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
    d_file.commit();
    g_file.commit();
  }
  return render_gnuplot(dir + "/plots", {"roofline", "speedup", "breakeven"});
}

}  // namespace hsparse::bench::detail
