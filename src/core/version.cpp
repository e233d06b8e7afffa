// The library's side of version.hpp: what a program links against, which
// can differ from the headers it was compiled with (two installs).
#include "hsparse/version.hpp"

namespace hsparse {

const char* version_string() noexcept { return HSPARSE_VERSION_STRING; }

bool built_with_cuda() noexcept {
#ifdef HSPARSE_HAVE_CUDA
  return true;
#else
  return false;
#endif
}

}  // namespace hsparse
