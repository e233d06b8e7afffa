#include "hsparse/io/matrix_source.hpp"

#include "hsparse/generators/generators.hpp"
#include "hsparse/io/binary_format.hpp"

namespace hsparse::io {

template <class V, class I>
Csr<V, I> load_matrix(std::string_view source) {
  if (generators::is_generator_spec(source)) return generators::generate<V, I>(source);
  const std::string path(source);
  if (is_hsp_file(path)) return read_hsp<V, I>(path);
  return read_matrix_market_csr<V, I>(path);
}

bool source_is_complex(std::string_view source) {
  if (generators::is_generator_spec(source)) return false;
  const std::string path(source);
  if (is_hsp_file(path)) return hsp_holds_complex(path);
  return read_matrix_market_header(path).field == MmField::complex;
}

bool source_is_single_precision(std::string_view source) {
  if (generators::is_generator_spec(source)) return false;
  const std::string path(source);
  return is_hsp_file(path) && hsp_holds_single(path);
}

#define HSPARSE_INSTANTIATE(V, I) template Csr<V, I> load_matrix<V, I>(std::string_view);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::io
