// Matrix Market reader. One pass over the text in memory; numbers are parsed
// with std::from_chars and entries appended to preallocated arrays, so there
// is no allocation per entry. Line numbers are tracked for every message.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <charconv>
#include <cstring>
#include <limits>

#include "hsparse/core/error.hpp"
#include "hsparse/core/host_system.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/io/file_bytes.hpp"
#include "hsparse/io/matrix_market.hpp"

namespace hsparse::io {

const char* to_string(MmLayout v) { return v == MmLayout::coordinate ? "coordinate" : "array"; }
const char* to_string(MmField v) {
  switch (v) {
    case MmField::real: return "real";
    case MmField::integer: return "integer";
    case MmField::complex: return "complex";
    case MmField::pattern: return "pattern";
  }
  return "?";
}
const char* to_string(MmSymmetry v) {
  switch (v) {
    case MmSymmetry::general: return "general";
    case MmSymmetry::symmetric: return "symmetric";
    case MmSymmetry::skew_symmetric: return "skew-symmetric";
    case MmSymmetry::hermitian: return "hermitian";
  }
  return "?";
}

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A token or line for a message, cut at 80 characters (a corrupt file may hold one huge line).
std::string quoted(std::string_view token) {
  std::string out(1, '\'');
  out.append(token.substr(0, 80));
  if (token.size() > 80) out.append("...");
  out.push_back('\'');
  return out;
}

// A cursor over the text that knows its line number.
class Cursor {
 public:
  Cursor(std::string_view text, const std::string& name)
      : begin_(text.data()), p_(text.data()), end_(text.data() + text.size()), name_(name) {}

  [[noreturn]] void fail(const std::string& reason) const { throw_parse_error(name_, line_, reason); }

  bool at_end() const { return p_ >= end_; }
  std::size_t offset() const { return static_cast<std::size_t>(p_ - begin_); }
  std::int64_t line() const { return line_; }

  [[gnu::always_inline]] void skip_blanks() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\r')) ++p_;
  }
  bool at_line_end() const { return p_ >= end_ || *p_ == '\n'; }

  // Moves past the current line's newline.
  void next_line() {
    const char* nl = static_cast<const char*>(std::memchr(p_, '\n', static_cast<std::size_t>(end_ - p_)));
    p_ = nl ? nl + 1 : end_;
    ++line_;
  }

  std::string_view rest_of_line() const {
    const char* nl = static_cast<const char*>(std::memchr(p_, '\n', static_cast<std::size_t>(end_ - p_)));
    std::string_view s(p_, static_cast<std::size_t>((nl ? nl : end_) - p_));
    while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
  }

  // Skips blank lines and '%' comment lines; returns false at end of text.
  [[gnu::always_inline]] bool skip_to_data_line() {
    for (;;) {
      skip_blanks();
      if (p_ >= end_) return false;
      if (*p_ == '\n' || *p_ == '%') { next_line(); continue; }
      return true;
    }
  }

  std::string_view token() const {
    const char* q = p_;
    while (q < end_ && !std::isspace(static_cast<unsigned char>(*q))) ++q;
    return {p_, static_cast<std::size_t>(q - p_)};
  }

  // Token number `index` (1-based) of `expected` on this line must be present.
  [[gnu::always_inline]] void require_token(int index, int expected) {
    skip_blanks();
    if (at_line_end()) {
      fail("expected " + std::to_string(expected) + " tokens, found " + std::to_string(index - 1));
    }
  }

  [[gnu::always_inline]] std::int64_t parse_integer(const char* what) {
    // Fast path: up to 18 plain digits cannot overflow int64 (the common case
    // by far); anything else (signs, long numbers, errors) goes to from_chars.
    const char* q = p_;
    std::uint64_t acc = 0;
    while (q < end_ && q - p_ < 18 && static_cast<unsigned>(*q - '0') < 10) acc = acc * 10 + static_cast<unsigned>(*q++ - '0');
    if (q > p_ && ends_token(q)) {
      p_ = q;
      return static_cast<std::int64_t>(acc);
    }
    return parse_integer_slow(what);
  }

  std::int64_t parse_integer_slow(const char* what) {
    std::int64_t v = 0;
    auto [next, ec] = std::from_chars(p_, end_, v);
    if (ec == std::errc::result_out_of_range) fail(std::string(what) + " " + quoted(token()) + " is out of range");
    if (ec != std::errc() || !ends_token(next)) fail(std::string(what) + " " + quoted(token()) + " is not an integer");
    p_ = next;
    return v;
  }

  template <class T = double>
  [[gnu::always_inline]] T parse_real(const char* what) {
    T v = 0;
    const char* start = p_;
    if (start < end_ && *start == '+') ++start;  // from_chars rejects a leading '+'
    auto [next, ec] = std::from_chars(start, end_, v);
    if (ec == std::errc() && next < end_ && (*next == 'd' || *next == 'D')) {
      // Fortran exponent (1.0D+00), seen in old collection files.
      return parse_fortran_real<T>(start, what);
    }
    if (ec == std::errc::result_out_of_range) return parse_out_of_range_real<T>(what);
    if (ec != std::errc() || !ends_token(next)) fail(std::string(what) + " " + quoted(token()) + " is not a number");
    p_ = next;
    return v;
  }

  // from_chars reports both overflow and underflow as out of range. Underflow
  // (4.7e-83 read into float, as in bayer03) becomes the nearest subnormal or
  // zero, as strtod does; overflow is an error.
  template <class T>
  T parse_out_of_range_real(const char* what) {
    const std::string tok(token());
    errno = 0;
    char* end = nullptr;
    const double d = std::strtod(tok.c_str(), &end);
    if (end != tok.c_str() + tok.size()) fail(std::string(what) + " " + quoted(tok) + " is not a number");
    if (std::isinf(d) || std::abs(d) > static_cast<double>(std::numeric_limits<T>::max())) {
      fail(std::string(what) + " " + quoted(tok) + " overflows " + type_name<T>());
    }
    p_ += tok.size();
    return static_cast<T>(d);
  }

  [[gnu::always_inline]] void expect_line_end(int expected) {
    skip_blanks();
    if (!at_line_end()) fail("expected " + std::to_string(expected) + " tokens, found more: " + quoted(token()));
    if (p_ < end_) { ++p_; ++line_; }
  }

 private:
  [[gnu::always_inline]] bool ends_token(const char* q) const {
    return q >= end_ || *q == ' ' || *q == '\t' || *q == '\n' || *q == '\r';
  }

  template <class T>
  T parse_fortran_real(const char* start, const char* what) {
    const std::string_view tok = token();
    char buffer[128];
    if (tok.size() >= sizeof buffer) fail(std::string(what) + " " + quoted(tok) + " is not a number");
    std::size_t n = 0;
    for (const char* q = start; q < p_ + tok.size(); ++q) buffer[n++] = (*q == 'd' || *q == 'D') ? 'e' : *q;
    T v = 0;
    auto [next, ec] = std::from_chars(buffer, buffer + n, v);
    if (ec != std::errc() || next != buffer + n) fail(std::string(what) + " " + quoted(tok) + " is not a number");
    p_ += tok.size();
    return v;
  }

  const char* begin_;
  const char* p_;
  const char* end_;
  const std::string& name_;
  std::int64_t line_ = 1;
};

MatrixMarketHeader parse_header(Cursor& c) {
  MatrixMarketHeader h;
  if (c.at_end()) c.fail("empty file: expected a %%MatrixMarket banner");
  const std::string banner(c.rest_of_line());
  if (banner.rfind("%%MatrixMarket", 0) != 0) {
    c.fail("bad banner " + quoted(banner) + ": the first line must start with %%MatrixMarket");
  }
  std::vector<std::string> words;
  {
    std::size_t i = std::strlen("%%MatrixMarket");
    while (i < banner.size()) {
      while (i < banner.size() && std::isspace(static_cast<unsigned char>(banner[i]))) ++i;
      std::size_t j = i;
      while (j < banner.size() && !std::isspace(static_cast<unsigned char>(banner[j]))) ++j;
      if (j > i) words.push_back(lower(std::string_view(banner).substr(i, j - i)));
      i = j;
    }
  }
  if (words.size() != 4) {
    c.fail("bad banner: expected 'object format field symmetry' after %%MatrixMarket, found " +
           std::to_string(words.size()) + " words");
  }
  if (words[0] != "matrix") c.fail("unknown object " + quoted(words[0]) + " (only 'matrix' is supported)");
  if (words[1] == "coordinate") h.layout = MmLayout::coordinate;
  else if (words[1] == "array") h.layout = MmLayout::array;
  else c.fail("unknown format " + quoted(words[1]) + " (expected coordinate or array)");
  if (words[2] == "real" || words[2] == "double") h.field = MmField::real;
  else if (words[2] == "integer") h.field = MmField::integer;
  else if (words[2] == "complex") h.field = MmField::complex;
  else if (words[2] == "pattern") h.field = MmField::pattern;
  else c.fail("unknown field " + quoted(words[2]) + " (expected real, integer, complex or pattern)");
  if (words[3] == "general") h.symmetry = MmSymmetry::general;
  else if (words[3] == "symmetric") h.symmetry = MmSymmetry::symmetric;
  else if (words[3] == "skew-symmetric") h.symmetry = MmSymmetry::skew_symmetric;
  else if (words[3] == "hermitian") h.symmetry = MmSymmetry::hermitian;
  else c.fail("unknown symmetry " + quoted(words[3]) + " (expected general, symmetric, skew-symmetric or hermitian)");
  if (h.field == MmField::pattern && h.layout == MmLayout::array) c.fail("a pattern matrix cannot use the array format");
  if (h.field == MmField::pattern && h.symmetry == MmSymmetry::skew_symmetric) c.fail("a pattern matrix cannot be skew-symmetric");
  if (h.symmetry == MmSymmetry::hermitian && h.field != MmField::complex) c.fail("only a complex matrix can be hermitian");
  c.next_line();

  if (!c.skip_to_data_line()) c.fail("missing size line");
  const int tokens = h.layout == MmLayout::coordinate ? 3 : 2;
  c.require_token(1, tokens);
  h.rows = c.parse_integer("row count");
  c.require_token(2, tokens);
  h.cols = c.parse_integer("column count");
  if (h.layout == MmLayout::coordinate) {
    c.require_token(3, tokens);
    h.entries = c.parse_integer("entry count");
  }
  if (h.rows < 0 || h.cols < 0 || h.entries < 0) c.fail("negative size on the size line");
  if (h.symmetry != MmSymmetry::general && h.rows != h.cols) {
    c.fail(std::string(to_string(h.symmetry)) + " matrix must be square, size line says " +
           std::to_string(h.rows) + "x" + std::to_string(h.cols));
  }
  if (h.layout == MmLayout::array) {
    const auto n = static_cast<unsigned __int128>(h.rows) * static_cast<unsigned __int128>(h.cols);
    if (n > static_cast<unsigned __int128>(std::numeric_limits<std::int64_t>::max())) c.fail("array size overflows 64 bits");
    const std::int64_t r = h.rows;
    switch (h.symmetry) {
      case MmSymmetry::general: h.entries = r * h.cols; break;
      case MmSymmetry::symmetric:
      case MmSymmetry::hermitian: h.entries = r * (r + 1) / 2; break;
      case MmSymmetry::skew_symmetric: h.entries = r * (r - 1) / 2; break;
    }
  }
  // A coordinate file may hold more entries than rows*cols: duplicates are
  // summed (the GraphBLAS files of fast_matrix_market's suite do this). The
  // count only bounds what is reserved (parse_matrix_market) and read
  // (read_matrix_market_text); the merged matrix cannot exceed rows*cols,
  // since every index is checked against the size line.
  c.expect_line_end(tokens);
  return h;
}

template <class V, class R>
V make_value(R re, R im) {
  if constexpr (is_complex_v<V>) return V(re, im);
  else return re;
}

template <class V>
V mirror_value(V v, MmSymmetry s) {
  switch (s) {
    case MmSymmetry::skew_symmetric: return -v;
    case MmSymmetry::hermitian: return conj_value(v);
    default: return v;
  }
}

}  // namespace

MatrixMarketHeader read_matrix_market_header(const std::string& path) {
  const std::string prefix = read_file_prefix(path, 1 << 16);
  Cursor c(prefix, path);
  return parse_header(c);
}

MatrixMarketHeader parse_matrix_market_header(std::string_view text, const std::string& name) {
  Cursor c(text, name);
  return parse_header(c);
}

template <class V, class I>
MatrixMarketData<V, I> parse_matrix_market(std::string_view text, const std::string& name) {
  Cursor c(text, name);
  MatrixMarketData<V, I> out;
  MatrixMarketHeader& h = out.header = parse_header(c);
  const std::int64_t size_line = c.line() - 1;

  if (!fits_index<I>(static_cast<std::uint64_t>(h.rows)) || !fits_index<I>(static_cast<std::uint64_t>(h.cols))) {
    throw_parse_error(name, size_line,
                      "size " + std::to_string(h.rows) + "x" + std::to_string(h.cols) +
                          " overflows the " + type_name<I>() + " index type");
  }
  if (h.field == MmField::complex && !is_complex_v<V>) {
    throw_parse_error(name, 1, std::string("complex matrix cannot be read into the real value type ") + type_name<V>());
  }

  Coo<V, I>& m = out.matrix;
  m.rows = static_cast<I>(h.rows);
  m.cols = static_cast<I>(h.cols);
  const bool mirrored = h.symmetry != MmSymmetry::general;
  // Reserve from the declared count, but never more than the text can hold
  // (an entry takes at least 2 bytes), so a lying size line cannot exhaust memory.
  const auto plausible = std::min<std::uint64_t>(static_cast<std::uint64_t>(h.entries), text.size() / 2 + 1);
  const auto capacity = static_cast<std::size_t>(plausible * (mirrored ? 2 : 1));
  // The COO entries and the CSR made from them, checked before either exists.
  require_host_memory(2 * capacity * (2 * sizeof(I) + sizeof(V)), name + ": " + std::to_string(h.entries) + " entries");
  m.row_idx.reserve(capacity);
  m.col_idx.reserve(capacity);
  m.values.reserve(capacity);

  const bool is_complex_field = h.field == MmField::complex;
  const bool is_integer_field = h.field == MmField::integer;
  auto read_value = [&](int first_token, int tokens) __attribute__((always_inline)) -> V {
    if (h.field == MmField::pattern) return V(1);
    c.require_token(first_token, tokens);
    // Parsed straight into the value's precision (no double rounding for float).
    using R = real_type_t<V>;
    R re = is_integer_field ? static_cast<R>(c.parse_integer("value")) : c.parse_real<R>("value");
    R im = 0;
    if (is_complex_field) {
      c.require_token(first_token + 1, tokens);
      im = c.parse_real<R>("imaginary part");
    }
    return make_value<V, R>(re, im);
  };
  auto add = [&](std::int64_t i, std::int64_t j, V v) __attribute__((always_inline)) {
    m.row_idx.push_back(static_cast<I>(i));
    m.col_idx.push_back(static_cast<I>(j));
    m.values.push_back(v);
    if (mirrored && i != j) {
      m.row_idx.push_back(static_cast<I>(j));
      m.col_idx.push_back(static_cast<I>(i));
      m.values.push_back(mirror_value(v, h.symmetry));
    }
  };

  std::int64_t seen = 0;
  if (h.layout == MmLayout::coordinate) {
    const int tokens = 2 + (h.field == MmField::pattern ? 0 : is_complex_field ? 2 : 1);
    while (c.skip_to_data_line()) {
      if (seen == h.entries) c.fail("more entries than the " + std::to_string(h.entries) + " declared");
      c.require_token(1, tokens);
      const std::int64_t i = c.parse_integer("row index");
      c.require_token(2, tokens);
      const std::int64_t j = c.parse_integer("column index");
      if (i < 1 || i > h.rows) c.fail("row index " + std::to_string(i) + " outside [1, " + std::to_string(h.rows) + "]");
      if (j < 1 || j > h.cols) c.fail("column index " + std::to_string(j) + " outside [1, " + std::to_string(h.cols) + "]");
      const V v = read_value(3, tokens);
      if (h.symmetry == MmSymmetry::skew_symmetric && i == j && v != V(0)) {
        c.fail("skew-symmetric matrix has a nonzero diagonal entry");
      }
      c.expect_line_end(tokens);
      add(i - 1, j - 1, v);
      ++seen;
    }
  } else {
    // Column-major; symmetric files store the lower triangle column by column.
    const int tokens = is_complex_field ? 2 : 1;
    std::int64_t i = 0, j = 0;
    const std::int64_t skip = h.symmetry == MmSymmetry::skew_symmetric ? 1 : 0;
    if (mirrored) i = skip;
    while (c.skip_to_data_line()) {
      if (seen == h.entries) c.fail("more entries than the " + std::to_string(h.entries) + " declared");
      const V v = read_value(1, tokens);
      c.expect_line_end(tokens);
      add(i, j, v);
      ++seen;
      if (++i == h.rows) { ++j; i = mirrored ? j + skip : 0; }
    }
  }
  if (seen < h.entries) {
    c.fail("file ends after " + std::to_string(seen) + " of " + std::to_string(h.entries) + " declared entries");
  }
  return out;
}

namespace {

// What may follow the size line: kBytesPerEntry per declared entry (an
// entry of two 64-bit indices and a complex value with 17 significant
// digits takes under 80) plus kSlackBytes of comments and blank lines.
// Text past that bound is refused before it is read or inflated, so a
// gzip bomb (a few MB inflating to gigabytes of blanks) costs a megabyte.
constexpr std::uint64_t kBytesPerEntry = 256;
constexpr std::uint64_t kSlackBytes = 1 << 20;
// How far to look for the size line; comments before it rarely pass 1 MiB.
constexpr std::size_t kHeaderPeek = std::size_t{1} << 20;
constexpr std::size_t kLongHeaderPeek = std::size_t{64} << 20;

// The most bytes the whole text may take, from the size line of `head`
// (sets `entries`); 0 when `head`, cut at its end, may not hold the whole
// size line.
std::size_t text_bound(std::string_view head, bool cut, const std::string& path, std::int64_t& entries) {
  Cursor c(head, path);
  const MatrixMarketHeader h = parse_header(c);
  if (cut && c.offset() >= head.size()) return 0;  // the size line may go on past the cut
  entries = h.entries;
  const unsigned __int128 bound = static_cast<unsigned __int128>(c.offset()) +
                                  static_cast<unsigned __int128>(h.entries) * kBytesPerEntry + kSlackBytes;
  return static_cast<std::size_t>(std::min<unsigned __int128>(bound, std::numeric_limits<std::size_t>::max() - 1));
}

}  // namespace

std::string read_matrix_market_text(const std::string& path) {
  bool more = false;
  std::string head = read_file_prefix(path, kHeaderPeek, &more);
  if (!more) return head;  // the whole file
  std::int64_t entries = 0;
  std::size_t limit = 0;
  try {
    limit = text_bound(head, true, path, entries);
  } catch (const Error&) {
    limit = 0;  // perhaps cut inside the comments: look further
  }
  if (limit == 0) {
    head = read_file_prefix(path, kLongHeaderPeek, &more);
    if (!more) return head;
    limit = text_bound(head, true, path, entries);  // a real header error throws here again
    if (limit == 0) throw_parse_error(path, 1, "no size line in the first " + std::to_string(kLongHeaderPeek >> 20) + " MiB");
  }
  head.clear();
  std::string text = read_file_prefix(path, limit, &more);
  if (more) {
    const auto line = 1 + std::count(text.begin(), text.end(), '\n');
    throw_parse_error(path, line,
                      "the text goes on past " + std::to_string(limit) + " bytes, more than the size line's " + std::to_string(entries) +
                          " entries can take (at most " + std::to_string(kBytesPerEntry) +
                          " bytes each, plus 1 MiB of comments): refused before reading further (a corrupt or padded file, or a gzip bomb)");
  }
  return text;
}

template <class V, class I>
MatrixMarketData<V, I> read_matrix_market(const std::string& path) {
  const std::string text = read_matrix_market_text(path);
  return parse_matrix_market<V, I>(text, path);
}

template <class V, class I>
Csr<V, I> read_matrix_market_csr(const std::string& path) {
  auto data = read_matrix_market<V, I>(path);
  if (!fits_index<I>(data.matrix.nnz())) {
    throw Error(ErrorCode::overflow, path + ": " + std::to_string(data.matrix.nnz()) +
                                         " nonzeros overflow the " + type_name<I>() + " index type");
  }
  return coo_to_csr(data.matrix);
}

template <class V>
std::vector<V> read_matrix_market_vector(const std::string& path) {
  auto data = read_matrix_market<V, std::int64_t>(path);
  const auto& m = data.matrix;
  if (m.rows != 1 && m.cols != 1) {
    throw Error(ErrorCode::invalid_argument, path + ": expected a vector (n x 1 or 1 x n), found " +
                                                 std::to_string(m.rows) + "x" + std::to_string(m.cols));
  }
  std::vector<V> v(static_cast<std::size_t>(std::max(m.rows, m.cols)), V(0));
  for (std::size_t k = 0; k < m.nnz(); ++k) v[static_cast<std::size_t>(m.rows == 1 ? m.col_idx[k] : m.row_idx[k])] += m.values[k];
  return v;
}

#define HSPARSE_INSTANTIATE(V, I)                                                              \
  template MatrixMarketData<V, I> parse_matrix_market<V, I>(std::string_view, const std::string&); \
  template MatrixMarketData<V, I> read_matrix_market<V, I>(const std::string&);                \
  template Csr<V, I> read_matrix_market_csr<V, I>(const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE
template std::vector<float> read_matrix_market_vector<float>(const std::string&);
template std::vector<double> read_matrix_market_vector<double>(const std::string&);
template std::vector<std::complex<float>> read_matrix_market_vector<std::complex<float>>(const std::string&);
template std::vector<std::complex<double>> read_matrix_market_vector<std::complex<double>>(const std::string&);

}  // namespace hsparse::io
