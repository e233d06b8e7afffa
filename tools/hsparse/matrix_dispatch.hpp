#pragma once
// Loads a matrix source once with the value type the user asked for
// (complex sources become complex automatically; an .hsp file stored in
// single precision loads in single) and int32 indices, int64 when the
// matrix is too large for int32 (io::load_any_matrix), then calls fn(csr).
#include <string>
#include <variant>

#include "hsparse/io/matrix_source.hpp"

namespace hsparse::tool {

enum class Precision { single, double_ };

template <class Fn>
void with_matrix(const std::string& source, Precision precision, Fn&& fn) {
  auto any = io::load_any_matrix(source, precision == Precision::single);
  std::visit([&](auto& a) { fn(a); }, any);
}

}  // namespace hsparse::tool
