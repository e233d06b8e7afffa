// CPU-only builds: the CUDA backend reports that it is absent.
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda {
bool device_available() { return false; }
std::size_t free_device_memory() { return 0; }
std::string device_description() { return "no GPU support: this hsparse was built without CUDA"; }
std::shared_ptr<const Executor> make_cuda_executor(int) { throw Error(ErrorCode::unsupported, "no CUDA executor: " + device_description()); }
}  // namespace hsparse::cuda
