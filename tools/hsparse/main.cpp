// hsparse: the command-line tool. Subcommands live in command_*.cpp.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "commands.hpp"
#include "hsparse/core/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"hsparse: sparse matrix-vector products on CPUs and NVIDIA GPUs"};
  app.require_subcommand(1);
  const auto info = hsparse::tool::add_info_command(app);
  const auto spmv = hsparse::tool::add_spmv_command(app);
  const auto convert = hsparse::tool::add_convert_command(app);
  const auto bench = hsparse::tool::add_bench_command(app);
  const auto tune = hsparse::tool::add_tune_command(app);
  const auto advise = hsparse::tool::add_advise_command(app);
  const auto solve = hsparse::tool::add_solve_command(app);
  const auto tridiag = hsparse::tool::add_tridiag_command(app);
  CLI11_PARSE(app, argc, argv);
  try {
    const std::string name = app.get_subcommands().front()->get_name();
    if (name == "info") return info();
    if (name == "spmv") return spmv();
    if (name == "bench") return bench();
    if (name == "tune") return tune();
    if (name == "advise") return advise();
    if (name == "solve") return solve();
    if (name == "tridiag") return tridiag();
    return convert();
  } catch (const hsparse::Error& e) {
    std::fprintf(stderr, "hsparse: %s: %s\n", hsparse::to_string(e.code()), e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "hsparse: out of host memory\n");
    return 2;
  }
}
