#pragma once
/// @file
/// The backends a plan, vector or solver can run on. "auto" is resolved in
/// one function, resolve_backend (plans/backend_choice.hpp).
#include <string>
#include <vector>

namespace hsparse {

/// Where a plan, array or solver runs: Backend::cpu (host memory, OpenMP
/// threads: CpuExecutor) or Backend::cuda (a GPU's memory and stream:
/// cuda::Executor).
enum class Backend { cpu, cuda };

/// "cpu" or "cuda".
const char* to_string(Backend backend);
/// Every backend, built in this library or not, in a fixed order.
const std::vector<Backend>& all_backends();

}  // namespace hsparse
