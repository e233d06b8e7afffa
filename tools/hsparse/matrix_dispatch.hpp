#pragma once
// Loads a matrix source with the value type the user asked for (complex
// sources become complex automatically) and int32 indices, falling back to
// int64 when the matrix is too large for int32, then calls fn(csr).
#include <complex>
#include <cstdint>
#include <string>

#include "hsparse/core/error.hpp"
#include "hsparse/io/matrix_source.hpp"

namespace hsparse::tool {

enum class Precision { single, double_ };

template <class V, class Fn>
void with_index_type(const std::string& source, Fn&& fn) {
  Csr<V, std::int32_t> narrow;
  try {
    narrow = io::load_matrix<V, std::int32_t>(source);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::overflow) throw;
    auto wide = io::load_matrix<V, std::int64_t>(source);
    fn(wide);
    return;
  }
  fn(narrow);
}

// An .hsp file stored in single precision loads in single precision even
// without --single (its values have no more digits to give).
template <class Fn>
void with_matrix(const std::string& source, Precision precision, Fn&& fn) {
  const bool complex = io::source_is_complex(source);
  if (io::source_is_single_precision(source)) precision = Precision::single;
  if (precision == Precision::single) {
    if (complex) with_index_type<std::complex<float>>(source, fn);
    else with_index_type<float>(source, fn);
  } else {
    if (complex) with_index_type<std::complex<double>>(source, fn);
    else with_index_type<double>(source, fn);
  }
}

}  // namespace hsparse::tool
