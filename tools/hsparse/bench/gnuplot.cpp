// gnuplot rendering (gnuplot.hpp).
#include "gnuplot.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <utility>

namespace hsparse::bench {

void write_plots_section(std::ostream& md, const std::string& plot_dir, const std::vector<std::string>& names) {
  const std::string status = render_gnuplot(plot_dir, names);
  md << "\n## Plots\n\n";
  if (!status.empty()) md << "(" << status << ")\n\n";
  for (const auto& p : names) md << "![" << p << "](plots/" << p << ".png)\n\n";
}

void write_line_plot(const std::string& plot_dir, const std::string& name, const std::string& settings, const std::vector<PlotSeries>& series) {
  std::ofstream d(plot_dir + "/" + name + ".dat");
  for (const auto& s : series) {
    d << "# " << s.title << "\n";
    for (const auto& [x, y] : s.points) d << x << " " << y << "\n";
    d << "\n\n";
  }
  std::ofstream g(plot_dir + "/" + name + ".gp");
  g << settings << "\nplot ";
  for (std::size_t i = 0; i < series.size(); ++i) {
    // gnuplot's default colours repeat after 8 series: from the 9th on the
    // lines are dashed and every series has its own point shape.
    g << (i ? ", " : "") << "'" << name << ".dat' index " << i << " using 1:2 with linespoints lw 2 pt " << 4 + i % 10 << " dt " << (i < 8 ? 1 : 2)
      << " title '" << series[i].title << "'";
  }
  g << "\n";
}

std::string render_gnuplot(const std::string& plot_dir, const std::vector<std::string>& names) {
  if (std::system("command -v gnuplot > /dev/null 2>&1") != 0) return "gnuplot is not installed here";
  const std::string p = plot_dir + "/";
  std::string failed;
  for (const auto& name : names) {
    for (const auto& [term, ext] : std::vector<std::pair<std::string, std::string>>{{"pngcairo size 1400,900", "png"}, {"svg size 1400,900", "svg"}}) {
      const std::string cmd = "cd '" + p + "' && gnuplot -e \"set terminal " + term + "; set output '" + name + "." + ext + "'\" " + name +
                              ".gp 2> " + name + "." + ext + ".log";
      // The log stays only when gnuplot failed: it says why.
      if (std::system(cmd.c_str()) != 0) failed += std::string(failed.empty() ? "" : ", ") + name + "." + ext;
      else std::filesystem::remove(p + name + "." + ext + ".log");
    }
  }
  return failed.empty() ? "" : "gnuplot failed on " + failed + " (see " + plot_dir + "/*.log)";
}

}  // namespace hsparse::bench
