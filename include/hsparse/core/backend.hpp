#pragma once
// The backends a plan, vector or solver can run on. "auto" is resolved in
// one function, resolve_backend (plans/backend_choice.hpp).
#include <string>
#include <vector>

namespace hsparse {

enum class Backend { cpu, cuda };

const char* to_string(Backend backend);
const std::vector<Backend>& all_backends();

}  // namespace hsparse
