#pragma once
// The subcommands of the hsparse tool. Each registers its options on the
// CLI11 app and returns the action to run once parsing succeeded.
#include <CLI/CLI.hpp>
#include <functional>

namespace hsparse::tool {

using Action = std::function<int()>;

Action add_info_command(CLI::App& app);
Action add_spmv_command(CLI::App& app);
Action add_convert_command(CLI::App& app);
Action add_bench_command(CLI::App& app);
Action add_tune_command(CLI::App& app);
Action add_advise_command(CLI::App& app);
Action add_solve_command(CLI::App& app);
Action add_tridiag_command(CLI::App& app);
Action add_gemm_command(CLI::App& app);
Action add_spmm_command(CLI::App& app);
Action add_fem_command(CLI::App& app);

// No subcommand has a default matrix: one that silently worked on a
// built-in grid surprised users (the matrix is a required argument; the
// main job, hsparse bench, has its own default suite).

}  // namespace hsparse::tool
