#include "hsparse/io/matrix_source.hpp"

#include <limits>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/binary_format.hpp"
#include "hsparse/io/file_bytes.hpp"

namespace hsparse::io {

namespace {
// Every entry point checks here, so every subcommand and the Python binding
// refuse an empty MATRIX alike (`hsparse info ''` printed the machine report).
void require_source(std::string_view source) {
  if (source.empty()) {
    throw Error(ErrorCode::invalid_argument,
                "the matrix argument is empty: expected a Matrix Market file (.mtx, .mtx.gz, .tar.gz), an .hsp file or a "
                "generator spec (hsparse info --generators)");
  }
}
}  // namespace

template <class V, class I>
Csr<V, I> load_matrix(std::string_view source) {
  require_source(source);
  if (generators::is_generator_spec(source)) return generators::generate<V, I>(source);
  const std::string path(source);
  if (is_hsp_file(path)) return read_hsp<V, I>(path);
  return read_matrix_market_csr<V, I>(path);
}

namespace {

// int32 first; int64 when int32 overflows (generators and .hsp know their
// sizes only once built or read: a second attempt, past 2^31 entries only).
template <class V, class Load>
AnyCsr narrow_or_wide(Load&& load) {
  try {
    return load.template operator()<V, std::int32_t>();
  } catch (const Error& e) {
    if (e.code() != ErrorCode::overflow) throw;
  }
  return load.template operator()<V, std::int64_t>();
}

template <class Load>
AnyCsr by_value_type(bool complex, bool single, Load&& load) {
  if (complex) return single ? narrow_or_wide<std::complex<float>>(load) : narrow_or_wide<std::complex<double>>(load);
  return single ? narrow_or_wide<float>(load) : narrow_or_wide<double>(load);
}

template <class V>
AnyCsr parse_text(std::string_view text, const std::string& path, bool wide) {
  if (wide) return coo_to_csr(parse_matrix_market<V, std::int64_t>(text, path).matrix);
  return coo_to_csr(parse_matrix_market<V, std::int32_t>(text, path).matrix);
}

}  // namespace

AnyCsr load_any_matrix(std::string_view source, bool single) {
  require_source(source);
  const std::string path(source);
  if (generators::is_generator_spec(source)) {
    return by_value_type(false, single, [&]<class V, class I>() { return AnyCsr(generators::generate<V, I>(source)); });
  }
  if (is_hsp_file(path)) {
    return by_value_type(hsp_holds_complex(path), single || hsp_holds_single(path),
                         [&]<class V, class I>() { return AnyCsr(read_hsp<V, I>(path)); });
  }
  const std::string text = read_matrix_market_text(path);  // the one read (and decompression), bounded by the size line
  const MatrixMarketHeader h = parse_matrix_market_header(text, path);
  const auto bound = static_cast<std::uint64_t>(h.entries) * (h.symmetry == MmSymmetry::general ? 1u : 2u);
  const bool wide = !fits_index<std::int32_t>(static_cast<std::uint64_t>(h.rows) + 1) ||
                    !fits_index<std::int32_t>(static_cast<std::uint64_t>(h.cols) + 1) || !fits_index<std::int32_t>(bound);
  if (h.field == MmField::complex) return single ? parse_text<std::complex<float>>(text, path, wide) : parse_text<std::complex<double>>(text, path, wide);
  return single ? parse_text<float>(text, path, wide) : parse_text<double>(text, path, wide);
}

bool source_is_complex(std::string_view source) {
  require_source(source);
  if (generators::is_generator_spec(source)) return false;
  const std::string path(source);
  if (is_hsp_file(path)) return hsp_holds_complex(path);
  return read_matrix_market_header(path).field == MmField::complex;
}

bool source_is_single_precision(std::string_view source) {
  require_source(source);
  if (generators::is_generator_spec(source)) return false;
  const std::string path(source);
  return is_hsp_file(path) && hsp_holds_single(path);
}

#define HSPARSE_INSTANTIATE(V, I) template Csr<V, I> load_matrix<V, I>(std::string_view);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::io
