#pragma once
// Renders gnuplot scripts NAME.gp of a folder to NAME.png and NAME.svg.
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace hsparse::bench {

// One line of (x, y) points, titled, in a line plot.
struct PlotSeries {
  std::string title;
  std::vector<std::pair<double, double>> points;
};
// plot_dir/NAME.dat (a block per series) and NAME.gp: `settings` (gnuplot
// commands: title, axes, labels), then one linespoints line per series.
// Renders the plots and writes a report's "## Plots" section linking their PNGs
// (or saying why there are none).
void write_plots_section(std::ostream& md, const std::string& plot_dir, const std::vector<std::string>& names);
void write_line_plot(const std::string& plot_dir, const std::string& name, const std::string& settings, const std::vector<PlotSeries>& series);

// "" on success, else why not: gnuplot missing, or the plots it failed on
// (their NAME.EXT.log files kept; they say why).
std::string render_gnuplot(const std::string& plot_dir, const std::vector<std::string>& names);

}  // namespace hsparse::bench
