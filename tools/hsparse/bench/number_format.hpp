#pragma once
// One number into text with a printf format ("%.1f", "%.2fx", "%.0f%%"):
// how every report of hsparse bench writes its figures.
#include <string>

namespace hsparse::bench {

std::string fmt(const char* printf_format, double value);

}  // namespace hsparse::bench
