#pragma once
// The one entry point for "give me this matrix": a generator spec
// (e.g. stencil3d:n=100, see generators.hpp), an .hsp binary file, or a
// Matrix Market file (.mtx, .mtx.gz, .tar.gz). Returns canonical CSR.
#include <string_view>

#include "hsparse/formats/csr.hpp"
#include "hsparse/io/matrix_market.hpp"

namespace hsparse::io {

template <class V, class I>
Csr<V, I> load_matrix(std::string_view source);

// True when the source holds complex values (a complex Matrix Market field
// or a complex .hsp file); generators are real.
bool source_is_complex(std::string_view source);

// True when the source stores single-precision values (an .hsp file written
// with --single); text and generators carry no precision.
bool source_is_single_precision(std::string_view source);

}  // namespace hsparse::io
