// The library's side of version.hpp: what a program links against, which
// can differ from the headers it was compiled with (two installs).
#include "hsparse/version.hpp"

namespace hsparse {

const char* version_string() noexcept { return HSPARSE_VERSION_STRING; }

// built_with_cuda() is defined by the CUDA backend: backends/cuda/device.cu
// in a CUDA build, backends/cuda/no_device.cpp in a CPU-only one.

}  // namespace hsparse
