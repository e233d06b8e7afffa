// gnuplot rendering (gnuplot.hpp).
#include "gnuplot.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <utility>

#include "hsparse/io/atomic_file.hpp"

namespace hsparse::bench {

void write_plots_section(std::ostream& md, const std::string& plot_dir, const std::vector<std::string>& names) {
  const std::string status = render_gnuplot(plot_dir, names);
  md << "\n## Plots\n\n";
  if (!status.empty()) md << "(" << status << ")\n\n";
  for (const auto& p : names) md << "![" << p << "](plots/" << p << ".png)\n\n";
}

void write_line_plot(const std::string& plot_dir, const std::string& name, const std::string& settings, const std::vector<PlotSeries>& series) {
  io::AtomicOutputFile d_file(plot_dir + "/" + name + ".dat");
  std::ostream& d = d_file.stream();
  for (const auto& s : series) {
    d << "# " << s.title << "\n";
    for (const auto& [x, y] : s.points) d << x << " " << y << "\n";
    d << "\n\n";
  }
  d_file.commit();
  io::AtomicOutputFile g_file(plot_dir + "/" + name + ".gp");
  std::ostream& g = g_file.stream();
  g << settings << "\nplot ";
  for (std::size_t i = 0; i < series.size(); ++i) {
    // gnuplot's default colours repeat after 8 series: from the 9th on the
    // lines are dashed and every series has its own point shape.
    g << (i ? ", " : "") << "'" << name << ".dat' index " << i << " using 1:2 with linespoints lw 2 pt " << 4 + i % 10 << " dt " << (i < 8 ? 1 : 2)
      << " title '" << series[i].title << "'";
  }
  g << "\n";
  g_file.commit();
}

namespace {

// gnuplot's path from $PATH, or "" (no shell: `command -v` would fork one).
std::string find_gnuplot() {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  for (std::size_t start = 0; start <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string candidate = (end > start ? dirs.substr(start, end - start) : ".") + "/gnuplot";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

// Runs gnuplot with `args`, its stderr into `log`; true when it exits 0.
// posix_spawn rather than system(): no shell, and no fork of this process
// (whose other threads and fork handlers, e.g. a BLAS's when hsparse runs
// inside Python with NumPy loaded, a forked copy may not survive).
bool run_gnuplot(const std::string& gnuplot, const std::vector<std::string>& args, const std::string& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> argv{const_cast<char*>(gnuplot.c_str())};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, gnuplot.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return false;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return false;
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

std::string render_gnuplot(const std::string& plot_dir, const std::vector<std::string>& names) {
  const std::string gnuplot = find_gnuplot();
  if (gnuplot.empty()) return "gnuplot is not installed here";
  // Absolute: gnuplot's `cd` below would make a relative folder name (the
  // main job's `--out bench-report`) point nowhere when it loads the script.
  const std::string p = std::filesystem::absolute(plot_dir).lexically_normal().string() + "/";
  std::string failed;
  for (const auto& name : names) {
    for (const auto& [term, ext] : std::vector<std::pair<std::string, std::string>>{{"pngcairo size 1400,900", "png"}, {"svg size 1400,900", "svg"}}) {
      // gnuplot's own cd: the script names its data file relative to the plot folder.
      // The image goes to a temporary name, renamed once gnuplot exits 0: a
      // failed or interrupted gnuplot leaves no half-drawn image under the real name.
      const std::string image = name + "." + ext;
      const std::string temporary = "." + image + ".tmp-" + std::to_string(::getpid());
      const std::string commands = "cd '" + p + "'; set terminal " + term + "; set output '" + temporary + "'";
      const std::string log = p + image + ".log";
      std::error_code ec;
      bool drawn = run_gnuplot(gnuplot, {"-e", commands, name + ".gp"}, log);
      if (drawn) {
        std::filesystem::rename(p + temporary, p + image, ec);
        drawn = !ec;
      }
      // The log stays only when gnuplot failed: it says why.
      if (drawn) {
        std::filesystem::remove(log, ec);
      } else {
        std::filesystem::remove(p + temporary, ec);
        failed += std::string(failed.empty() ? "" : ", ") + image;
      }
    }
  }
  return failed.empty() ? "" : "gnuplot failed on " + failed + " (see " + plot_dir + "/*.log)";
}

}  // namespace hsparse::bench
