// The backends' names and list (core/backend.hpp). resolve_backend, which
// asks whether a GPU is visible, is the executor factory's (executor.cpp).
#include "hsparse/core/backend.hpp"

namespace hsparse {

const char* to_string(Backend backend) { return backend == Backend::cuda ? "cuda" : "cpu"; }

const std::vector<Backend>& all_backends() {
  static const std::vector<Backend> b = {Backend::cpu, Backend::cuda};
  return b;
}

}  // namespace hsparse
