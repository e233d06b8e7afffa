#pragma once
/// @file
/// Matrix Market (NIST) reader and writer: coordinate and array layouts;
/// real, integer, pattern and complex fields; general, symmetric,
/// skew-symmetric and Hermitian symmetry. Files may be gzip-compressed
/// (.mtx.gz) or SuiteSparse .tar.gz archives (see file_bytes.hpp).
///
/// Reading expands symmetry (the mirrored entry of a symmetric, skew-symmetric
/// or Hermitian file is added as a(j,i) = a(i,j), -a(i,j), conj(a(i,j))), so
/// the result is the full matrix. Duplicate entries are kept in the COO and
/// summed when it becomes CSR (read_matrix_market_csr). Explicit zeros are kept.
/// Pattern entries get the value 1. Every malformed input throws
/// Error(parse) with "file:line: reason".
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hsparse/formats/coo.hpp"
#include "hsparse/formats/csr.hpp"

namespace hsparse::io {

/// The banner's format: coordinate (sparse) or array (dense, column-major).
enum class MmLayout { coordinate, array };
/// The banner's field.
enum class MmField { real, integer, complex, pattern };
/// The banner's symmetry; anything but general stores one triangle.
enum class MmSymmetry { general, symmetric, skew_symmetric, hermitian };

/// The banner word, e.g. "coordinate".
const char* to_string(MmLayout);
/// The banner word, e.g. "real".
const char* to_string(MmField);
/// The banner word, e.g. "skew-symmetric".
const char* to_string(MmSymmetry);

/// A Matrix Market file's banner and size line.
struct MatrixMarketHeader {
  MmLayout layout = MmLayout::coordinate;  ///< coordinate or array
  MmField field = MmField::real;  ///< real, integer, complex or pattern
  MmSymmetry symmetry = MmSymmetry::general;  ///< general, symmetric, skew-symmetric or hermitian
  std::int64_t rows = 0;  ///< rows of the matrix
  std::int64_t cols = 0;  ///< columns of the matrix
  std::int64_t entries = 0;  ///< stored entries (the size line's count; rows*cols for a general array)
};

template <class V, class I>
/// A read file: its header and its entries, symmetry expanded.
struct MatrixMarketData {
  MatrixMarketHeader header;  ///< banner and size line
  Coo<V, I> matrix;  ///< expanded, in file order
};

/// Parses banner and size line only (reads just the start of the file).
MatrixMarketHeader read_matrix_market_header(const std::string& path);
/// The same from text already in memory; `name` is used in error messages.
MatrixMarketHeader parse_matrix_market_header(std::string_view text, const std::string& name);

/// A Matrix Market file's whole (decompressed) text, read with a bound: once
/// the size line is read, the text that follows may take at most 256 bytes
/// per declared entry plus 1 MiB of comments. Error(parse) naming the file
/// and the line reached when it goes on past that (a corrupt file or a gzip
/// bomb: decompression stops there); Error(io) when it cannot be read.
std::string read_matrix_market_text(const std::string& path);

template <class V, class I>
/// Reads a .mtx, .mtx.gz or SuiteSparse .tar.gz file (its text through
/// read_matrix_market_text). Error(io) when it
/// cannot be read, Error(parse) naming the file, line and reason for
/// malformed content, Error(overflow) when a size does not fit I.
MatrixMarketData<V, I> read_matrix_market(const std::string& path);

/// Parses text already in memory; `name` is used in error messages.
template <class V, class I>
MatrixMarketData<V, I> parse_matrix_market(std::string_view text, const std::string& name);

/// Convenience: read and convert to canonical CSR (duplicates summed).
template <class V, class I>
Csr<V, I> read_matrix_market_csr(const std::string& path);

/// A vector: an n x 1 (or 1 x n) array or coordinate file.
template <class V>
std::vector<V> read_matrix_market_vector(const std::string& path);

/// How write_matrix_market() writes.
struct MatrixMarketWriteOptions {
  /// Default: real for real value types, complex for complex ones. Integer
  /// requires integral values; pattern writes no values.
  std::optional<MmField> field;
  /// Anything but general writes only the lower triangle, after checking that
  /// the matrix really has that symmetry (Error(invalid_argument) otherwise).
  MmSymmetry symmetry = MmSymmetry::general;
  std::string comment;  ///< one comment line written after the banner ("% " + comment)
};

template <class V, class I>
/// The file's text (write_matrix_market() without the file).
std::string format_matrix_market(const Csr<V, I>& a, const MatrixMarketWriteOptions& options = {});

template <class V, class I>
/// Writes `a` to path with every value in full precision, gzip-compressed
/// when path ends in .gz; complete or not at all (atomic_file.hpp), and
/// Error(io) naming the file when it cannot be written.
void write_matrix_market(const std::string& path, const Csr<V, I>& a,
                         const MatrixMarketWriteOptions& options = {});

/// A dense vector as an n x 1 array file, every value with full precision
/// (complete or not at all; Error(io) naming the file when it cannot be written).
template <class V>
void write_matrix_market_vector(const std::string& path, std::span<const V> v);

}  // namespace hsparse::io
