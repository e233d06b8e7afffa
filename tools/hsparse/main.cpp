// hsparse: the command-line tool. Subcommands live in command_*.cpp.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstring>

#include "commands.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/version.hpp"
#include "hsparse_commit.hpp"  // HSPARSE_GIT_COMMIT
#include "openmp_wait_policy.hpp"

namespace {

std::string version_text() {
  const char* cuda = hsparse::built_with_cuda() ? "CUDA backend built (sm_90)" : "CPU only (built without CUDA)";
  return std::string("hsparse ") + hsparse::version_string() + " (commit " + HSPARSE_GIT_COMMIT + ", " + cuda + ")";
}

}  // namespace

int main(int argc, char** argv) {
  hsparse::tool::apply_openmp_wait_policy(argc, argv);  // before any OpenMP work: a short spin (openmp_wait_policy.hpp)
  CLI::App app{"hsparse: sparse matrix-vector products on CPUs and NVIDIA GPUs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_text());
  const auto info = hsparse::tool::add_info_command(app);
  const auto spmv = hsparse::tool::add_spmv_command(app);
  const auto convert = hsparse::tool::add_convert_command(app);
  const auto bench = hsparse::tool::add_bench_command(app);
  const auto tune = hsparse::tool::add_tune_command(app);
  const auto advise = hsparse::tool::add_advise_command(app);
  const auto solve = hsparse::tool::add_solve_command(app);
  const auto tridiag = hsparse::tool::add_tridiag_command(app);
  const auto gemm = hsparse::tool::add_gemm_command(app);
  const auto spmm = hsparse::tool::add_spmm_command(app);
  const auto fem = hsparse::tool::add_fem_command(app);
  // CLI11 answers an unknown word with "A subcommand is required": name it.
  if (argc > 1 && argv[1][0] != '-') {
    std::string names;
    bool known = false;
    for (const auto* sub : app.get_subcommands({})) {
      known = known || sub->get_name() == argv[1];
      names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    if (!known) {
      std::fprintf(stderr, "hsparse: unknown command '%s' (commands: %s; see hsparse --help)\n", argv[1], names.c_str());
      return 2;
    }
  }
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
    if (name == "gemm") return gemm();
    if (name == "spmm") return spmm();
    if (name == "fem") return fem();
    return convert();
  } catch (const hsparse::Error& e) {
    std::fprintf(stderr, "hsparse: %s: %s\n", hsparse::to_string(e.code()), e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "hsparse: out of host memory\n");
    return 2;
  }
}
