#pragma once
/// @file
/// The kernel registry moved to kernels/spmv_registry.hpp (the backends
/// register in it, and the backends sit below the plans). This header stays
/// for code that includes it by its old name.
#include "hsparse/kernels/spmv_registry.hpp"
