#pragma once
/// @file
/// resolve_backend, the one place "auto" becomes a backend, is declared in
/// core/backend.hpp beside the executor factory that uses it (the executor
/// is a lower layer than the plans). This header stays for code that
/// includes it by its old name.
#include "hsparse/core/backend.hpp"
