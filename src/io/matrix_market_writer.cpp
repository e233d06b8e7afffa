// Matrix Market writer. Values are printed with std::to_chars' shortest
// round-trip form, so writing and re-reading gives the identical matrix.
#include <charconv>
#include <cmath>

#include "hsparse/core/error.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/io/file_bytes.hpp"
#include "hsparse/io/matrix_market.hpp"

namespace hsparse::io {

namespace {

class TextBuffer {
 public:
  explicit TextBuffer(std::size_t reserve) { text_.reserve(reserve); }
  TextBuffer& operator<<(std::string_view s) { text_.append(s); return *this; }
  TextBuffer& operator<<(char ch) { text_.push_back(ch); return *this; }
  template <class T>
  void number(T v) {
    char buffer[64];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
    (void)ec;  // 64 bytes hold any int64 or shortest double
    text_.append(buffer, end);
  }
  std::string& str() { return text_; }

 private:
  std::string text_;
};

template <class V>
void append_value(TextBuffer& out, V v, MmField field) {
  if (field == MmField::pattern) return;
  out << ' ';
  if constexpr (is_complex_v<V>) {
    out.number(v.real());
    out << ' ';
    out.number(v.imag());
  } else if (field == MmField::integer) {
    out.number(static_cast<std::int64_t>(v));
  } else {
    out.number(v);
  }
}

template <class V, class I>
void check_field(const Csr<V, I>& a, MmField field) {
  if (field == MmField::complex && !is_complex_v<V>) {
    // A real matrix written as complex gets imaginary parts of 0: allowed.
    return;
  }
  if constexpr (is_complex_v<V>) {
    if (field != MmField::complex && field != MmField::pattern) {
      throw Error(ErrorCode::invalid_argument, "a complex matrix must be written with the complex or pattern field");
    }
  } else {
    if (field == MmField::integer) {
      for (const V& v : a.values) {
        if (std::trunc(v) != v || std::abs(v) > 9.0e15) {
          throw Error(ErrorCode::invalid_argument, "the integer field needs integral values; found " + std::to_string(v));
        }
      }
    }
  }
}

// Throws unless a equals its (negated / conjugate) transpose as `symmetry` requires.
template <class V, class I>
void check_symmetry(const Csr<V, I>& a, MmSymmetry symmetry) {
  if (a.rows != a.cols) throw Error(ErrorCode::invalid_argument, std::string("a non-square matrix cannot be written as ") + to_string(symmetry));
  const Csr<V, I> t = transpose(a, symmetry == MmSymmetry::hermitian);
  bool same = t.row_ptr == a.row_ptr && t.col_idx == a.col_idx;
  for (std::size_t k = 0; same && k < a.nnz(); ++k) {
    const V expected = symmetry == MmSymmetry::skew_symmetric ? -t.values[k] : t.values[k];
    same = a.values[k] == expected;
  }
  if (!same) {
    throw Error(ErrorCode::invalid_argument, std::string("the matrix is not ") + to_string(symmetry) + ", so it cannot be written as such");
  }
}

}  // namespace

template <class V, class I>
std::string format_matrix_market(const Csr<V, I>& a, const MatrixMarketWriteOptions& options) {
  const MmField field = options.field.value_or(is_complex_v<V> ? MmField::complex : MmField::real);
  check_field(a, field);
  const MmSymmetry symmetry = options.symmetry;
  if (symmetry == MmSymmetry::hermitian && field != MmField::complex) {
    throw Error(ErrorCode::invalid_argument, "only a complex matrix can be written as hermitian");
  }
  if (symmetry != MmSymmetry::general) check_symmetry(a, symmetry);

  std::size_t stored = 0;
  for (I r = 0; r < a.rows; ++r) {
    for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const I c = a.col_idx[k];
      if (symmetry == MmSymmetry::general || c < r || (c == r && symmetry != MmSymmetry::skew_symmetric)) ++stored;
    }
  }
  TextBuffer out(stored * 32 + 256);
  out << "%%MatrixMarket matrix coordinate " << to_string(field) << ' ' << to_string(symmetry) << '\n';
  out << "% written by hsparse\n";
  if (!options.comment.empty()) out << "% " << options.comment << '\n';
  out.number(static_cast<std::int64_t>(a.rows));
  out << ' ';
  out.number(static_cast<std::int64_t>(a.cols));
  out << ' ';
  out.number(static_cast<std::int64_t>(stored));
  out << '\n';
  for (I r = 0; r < a.rows; ++r) {
    for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const I c = a.col_idx[k];
      if (!(symmetry == MmSymmetry::general || c < r || (c == r && symmetry != MmSymmetry::skew_symmetric))) continue;
      out.number(static_cast<std::int64_t>(r) + 1);
      out << ' ';
      out.number(static_cast<std::int64_t>(c) + 1);
      append_value(out, a.values[k], field);
      out << '\n';
    }
  }
  return std::move(out.str());
}

template <class V, class I>
void write_matrix_market(const std::string& path, const Csr<V, I>& a, const MatrixMarketWriteOptions& options) {
  write_file_bytes(path, format_matrix_market(a, options));
}

template <class V>
void write_matrix_market_vector(const std::string& path, std::span<const V> v) {
  TextBuffer out(v.size() * 26 + 128);
  out << "%%MatrixMarket matrix array " << (is_complex_v<V> ? "complex" : "real") << " general\n";
  out << "% written by hsparse\n";
  out.number(static_cast<std::int64_t>(v.size()));
  out << " 1\n";
  for (const V& x : v) {
    if constexpr (is_complex_v<V>) {
      out.number(x.real());
      out << ' ';
      out.number(x.imag());
    } else {
      out.number(x);
    }
    out << '\n';
  }
  write_file_bytes(path, out.str());
}

#define HSPARSE_INSTANTIATE(V, I)                                                                 \
  template std::string format_matrix_market(const Csr<V, I>&, const MatrixMarketWriteOptions&); \
  template void write_matrix_market(const std::string&, const Csr<V, I>&, const MatrixMarketWriteOptions&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE
template void write_matrix_market_vector<float>(const std::string&, std::span<const float>);
template void write_matrix_market_vector<double>(const std::string&, std::span<const double>);
template void write_matrix_market_vector<std::complex<float>>(const std::string&, std::span<const std::complex<float>>);
template void write_matrix_market_vector<std::complex<double>>(const std::string&, std::span<const std::complex<double>>);

}  // namespace hsparse::io
