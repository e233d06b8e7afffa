#pragma once
// Renders gnuplot scripts NAME.gp of a folder to NAME.png and NAME.svg.
#include <string>
#include <vector>

namespace hsparse::bench {

// "" on success, else why not: gnuplot missing, or the plots it failed on
// (their NAME.EXT.log files kept; they say why).
std::string render_gnuplot(const std::string& plot_dir, const std::vector<std::string>& names);

}  // namespace hsparse::bench
