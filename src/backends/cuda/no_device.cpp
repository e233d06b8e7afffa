// CPU-only builds: the CUDA backend reports that it is absent.
#include "hsparse/backends/cuda/device.hpp"

namespace hsparse::cuda {
bool device_available() { return false; }
std::string device_description() { return "no CUDA device (hsparse was built without CUDA)"; }
}  // namespace hsparse::cuda
