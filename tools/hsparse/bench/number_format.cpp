// number_format.hpp.
#include "number_format.hpp"

#include <cstdio>

namespace hsparse::bench {

std::string fmt(const char* printf_format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, printf_format, value);
  return buf;
}

}  // namespace hsparse::bench
