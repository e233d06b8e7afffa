// The executor factory (core/executor.hpp): the one place a backend choice
// becomes an executor. It sits with the backends, which it knows; the core
// declares it and includes no backend.
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/executor.hpp"

namespace hsparse {

ExecutorPtr make_executor(Backend backend) {
  switch (backend) {
    case Backend::cpu: return std::make_shared<const CpuExecutor>();
    case Backend::cuda: return cuda::make_cuda_executor(0);
  }
  throw Error(ErrorCode::internal, "make_executor: unknown backend");
}

Backend resolve_backend(const std::string& choice) {
  if (choice == "cpu") return Backend::cpu;
  if (choice != "cuda" && choice != "auto") {
    throw Error(ErrorCode::invalid_argument, "unknown backend '" + choice + "' (known: auto, cpu, cuda)");
  }
  const bool device = cuda::device_available();
  if (choice == "cuda" && !device) throw Error(ErrorCode::unsupported, "--backend cuda: " + cuda::device_description());
  return device ? Backend::cuda : Backend::cpu;
}

ExecutorPtr make_executor(const std::string& choice) { return make_executor(resolve_backend(choice)); }

const cuda::Executor& cuda_executor(const Executor& ex, const std::string& what) {
  if (ex.backend() != Backend::cuda) throw Error(ErrorCode::invalid_argument, what + " needs a CUDA executor, not " + ex.description());
  return static_cast<const cuda::Executor&>(ex);
}

}  // namespace hsparse
