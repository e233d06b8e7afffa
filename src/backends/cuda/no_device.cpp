// CPU-only builds: the CUDA backend reports that it is absent.
#include "hsparse/backends/cuda/device.hpp"

namespace hsparse::cuda {
bool device_available() { return false; }
std::size_t free_device_memory() { return 0; }
std::string device_description() { return "no GPU support: this hsparse was built without CUDA"; }
}  // namespace hsparse::cuda
