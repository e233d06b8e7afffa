// The registry's lookups across backends (kernels/spmv_registry.hpp).
#include "hsparse/kernels/spmv_registry.hpp"

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse {


const BackendFormat& spmv_registration(Backend backend, Format format) {
  return backend == Backend::cuda ? cuda::spmv_registration(format) : openmp::spmv_registration(format);
}

std::vector<std::string> spmv_kernel_names(Backend backend, Format format) {
  std::vector<std::string> names;
  for (const auto& k : spmv_registration(backend, format).kernels) names.push_back(k.name);
  return names;
}

std::string choose_spmv_kernel(Backend backend, Format format, const std::string& kernel) {
  const auto& kernels = spmv_registration(backend, format).kernels;
  if (kernels.empty()) {
    throw Error(ErrorCode::internal, std::string("format ") + to_string(format) + " registers no " + to_string(backend) + " kernel");
  }
  if (kernel.empty()) return kernels.front().name;
  std::string list;
  for (const auto& k : kernels) {
    if (k.name == kernel) return kernel;
    list += (list.empty() ? "" : ", ") + k.name;
  }
  throw Error(ErrorCode::invalid_argument, std::string("unknown ") + (backend == Backend::cuda ? "CUDA" : "CPU") + " kernel '" + kernel +
                                               "' for format " + to_string(format) + " (known: " + list + ")");
}

const std::vector<std::string>& spmv_value_types() {
  static const std::vector<std::string> t = {"float", "double", "complex<float>", "complex<double>"};
  return t;
}

}  // namespace hsparse
