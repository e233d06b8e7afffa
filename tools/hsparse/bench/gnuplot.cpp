// gnuplot rendering (gnuplot.hpp).
#include "gnuplot.hpp"

#include <cstdlib>
#include <filesystem>
#include <utility>

namespace hsparse::bench {

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
