#pragma once
/// @file
/// The backends a plan, vector or solver can run on. "auto" is resolved in
/// one function, resolve_backend, beside the executor factory that uses it.
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

/// The one place "auto" becomes a backend (make_executor, the CLI, the
/// bench, the Python binding and the solvers call it): "cpu" -> cpu;
/// "cuda" -> cuda, or Error(unsupported) saying why there is no device;
/// "auto" -> cuda when a device is visible, else cpu. Anything else:
/// Error(invalid_argument) naming the choices.
Backend resolve_backend(const std::string& choice);

}  // namespace hsparse
