#pragma once
/// @file
/// The one place "auto" becomes a backend (the CLI, the bench, the Python
/// binding and the solvers call it).
#include <string>

#include "hsparse/core/backend.hpp"

namespace hsparse {

/// "cpu" -> cpu; "cuda" -> cuda, or Error(unsupported) saying why there is
/// no device; "auto" -> cuda when a device is visible, else cpu. Anything
/// else: Error(invalid_argument) naming the choices.
Backend resolve_backend(const std::string& choice);

}  // namespace hsparse
