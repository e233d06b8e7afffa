#pragma once
/// @file
/// The one entry point for "give me this matrix": a generator spec
/// (e.g. stencil3d:n=100, see generators.hpp), an .hsp binary file, or a
/// Matrix Market file (.mtx, .mtx.gz, .tar.gz). Returns canonical CSR.
/// Every function here throws Error(invalid_argument) for an empty source.
#include <complex>
#include <cstdint>
#include <string_view>
#include <variant>

#include "hsparse/formats/csr.hpp"
#include "hsparse/io/matrix_market.hpp"

namespace hsparse::io {

template <class V, class I>
/// The matrix a source names: a .mtx / .mtx.gz / .tar.gz / .hsp file or a
/// generator spec ("stencil3d:n=100"). Errors as the reader or generator throws.
Csr<V, I> load_matrix(std::string_view source);

/// A matrix with the value and index types its source calls for.
using AnyCsr = std::variant<Csr<float, std::int32_t>, Csr<double, std::int32_t>, Csr<std::complex<float>, std::int32_t>,
                            Csr<std::complex<double>, std::int32_t>, Csr<float, std::int64_t>, Csr<double, std::int64_t>,
                            Csr<std::complex<float>, std::int64_t>, Csr<std::complex<double>, std::int64_t>>;

/// Reads `source` once and returns it with complex values when the source is
/// complex, single precision when `single` is asked or an .hsp file stores
/// single (its values have no more digits to give), and int32 indices when
/// its sizes fit, else int64. A Matrix Market file is read and decompressed
/// once: its header, parsed from the text in memory, decides the types
/// (int64 when the header's entry count, doubled for a symmetric file, could
/// overflow int32), so the file is never parsed twice.
AnyCsr load_any_matrix(std::string_view source, bool single);

/// True when the source holds complex values (a complex Matrix Market field
/// or a complex .hsp file); generators are real.
bool source_is_complex(std::string_view source);
/// True when the source stores single-precision values (an .hsp file written
/// with --single); text and generators carry no precision.
bool source_is_single_precision(std::string_view source);

}  // namespace hsparse::io
