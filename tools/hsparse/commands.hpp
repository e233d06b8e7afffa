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

// The built-in default matrix of the main job: a 3D 27-point stencil,
// 262,144 rows and 6.9 M nonzeros (about 83 MB in CSR with double values).
inline constexpr const char* kDefaultMatrix = "stencil3d:n=64,points=27";

}  // namespace hsparse::tool
