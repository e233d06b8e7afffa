// Generator specs: NAME[:key=value,...] parsed, checked and dispatched.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <optional>
#include <utility>

#include "hsparse/core/error.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "row_builder.hpp"

namespace hsparse::generators {

const std::vector<GeneratorInfo>& generator_catalog() {
  static const std::vector<GeneratorInfo> catalog = {
      {"stencil2d", "2D Laplacian on an nx x ny grid, 5 or 9 points", {{"n", "1000"}, {"nx", "n"}, {"ny", "n"}, {"points", "5"}}},
      {"convdiff2d", "2D convection-diffusion, central differences, nonsymmetric (peclet: |w| on the unit square)", {{"n", "1000"}, {"nx", "n"}, {"ny", "n"}, {"peclet", "1000"}}},
      {"stencil3d", "3D Laplacian on an nx x ny x nz grid, 7 or 27 points", {{"n", "100"}, {"nx", "n"}, {"ny", "n"}, {"nz", "n"}, {"points", "27"}}},
      {"fem", "FEM-like: 27-point node coupling on a 3D mesh, dense block x block blocks", {{"n", "20"}, {"nx", "n"}, {"ny", "n"}, {"nz", "n"}, {"block", "3"}, {"seed", "1"}}},
      {"powerlaw", "webbase-like: Pareto row lengths plus a few very long rows", {{"rows", "1000000"}, {"min", "1"}, {"exponent", "1.5"}, {"long_rows", "2"}, {"long_fraction", "0.05"}, {"seed", "1"}}},
      {"circuit", "circuit-like: local couplings plus a few dense hub rows and columns", {{"n", "1000000"}, {"per_row", "4"}, {"dense_rows", "8"}, {"dense_fraction", "0.1"}, {"seed", "1"}}},
      {"random", "uniform random columns, per_row entries per row", {{"rows", "100000"}, {"cols", "rows"}, {"per_row", "10"}, {"seed", "1"}}},
      {"banded", "all entries with |i - j| <= bandwidth", {{"n", "100000"}, {"bandwidth", "8"}, {"seed", "1"}}},
      {"dense", "every entry stored", {{"rows", "1000"}, {"cols", "rows"}, {"seed", "1"}}},
      {"shortwide", "few rows, very many columns (rail4284-like)", {{"rows", "4284"}, {"cols", "1092610"}, {"per_row", "2600"}, {"seed", "1"}}},
      {"replicate", "copies of a real matrix on the block diagonal with random couplings", {{"file", "(required)"}, {"copies", "8"}, {"couplings", "16"}, {"seed", "1"}}},
  };
  return catalog;
}

namespace {

const GeneratorInfo* find_generator(std::string_view name) {
  for (const auto& g : generator_catalog()) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

[[noreturn]] void spec_error(std::string_view spec, const std::string& why) {
  throw Error(ErrorCode::parse, "generator spec '" + std::string(spec) + "': " + why);
}

// The largest size a key may take: products of sizes are checked separately
// (checked_product), and the nonzeros against memory (build_rows).
constexpr std::int64_t kNoLimit = std::numeric_limits<std::int64_t>::max();

std::string integer_range(std::int64_t lo, std::int64_t hi) {
  if (hi == kNoLimit) return "an integer >= " + std::to_string(lo);
  return "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

// Every value is checked against its key's range before it is narrowed:
// block=4294967299 once became block 3 through static_cast<int>.
class Params {
 public:
  Params(const GeneratorSpec& s, std::string_view text) : spec_(s), text_(text) {}

  std::string text(const std::string& key, const std::string& fallback) const {
    auto it = spec_.params.find(key);
    return it == spec_.params.end() ? fallback : it->second;
  }
  // A finite number in [lo, hi] (lo excluded when lo_open).
  double real(const std::string& key, double fallback, double lo, double hi, bool lo_open = false) const {
    auto it = spec_.params.find(key);
    if (it == spec_.params.end()) return fallback;
    const std::string range = hi == std::numeric_limits<double>::infinity()
                                  ? std::string("a number ") + (lo_open ? "> " : ">= ") + number(lo)
                                  : std::string("a number in ") + (lo_open ? "(" : "[") + number(lo) + ", " + number(hi) + "]";
    const auto v = parse_real(it->second);
    if (!v) bad_value(key, "is not a number", range);
    if (*v < lo || *v > hi || (lo_open && *v == lo)) bad_value(key, "is out of range", range);
    return *v;
  }
  // An integer in [lo, hi]; 1e6-style notation is accepted when it is whole.
  std::int64_t integer(const std::string& key, std::int64_t fallback, std::int64_t lo, std::int64_t hi = kNoLimit) const {
    if (!spec_.params.count(key)) return fallback;
    const std::int64_t v = any_integer(key, integer_range(lo, hi));
    if (v < lo || v > hi) bad_value(key, "is out of range", integer_range(lo, hi));
    return v;
  }
  // One of `allowed` (e.g. a stencil's points).
  int choice(const std::string& key, int fallback, std::initializer_list<int> allowed) const {
    if (!spec_.params.count(key)) return fallback;
    std::string range;
    for (const int a : allowed) range += (range.empty() ? "" : " or ") + std::to_string(a);
    // Parsed as a 64-bit integer first, so a huge value is refused, not narrowed.
    const std::int64_t v = any_integer(key, range);
    if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) bad_value(key, "is out of range", range);
    return static_cast<int>(v);
  }

 private:
  // The key's value as a 64-bit integer; `range` only words the errors.
  std::int64_t any_integer(const std::string& key, const std::string& range) const {
    const std::string& s = spec_.params.at(key);
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (end == s.data() + s.size() && ec == std::errc()) return v;
    if (end == s.data() + s.size() && ec == std::errc::result_out_of_range) bad_value(key, "is out of range", range);
    const auto d = parse_real(s);
    if (!d) bad_value(key, "is not a number", range);
    if (*d != std::floor(*d)) bad_value(key, "is not an integer", range);
    // 2^63 is not below INT64_MAX as a double: compare before the cast.
    if (*d < -9223372036854775808.0 || *d >= 9223372036854775808.0) bad_value(key, "is out of range", range);
    return static_cast<std::int64_t>(*d);
  }
  static std::optional<double> parse_real(const std::string& s) {
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
    return v;
  }
  static std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
  }
  // "value 'x' of key is out of range: key must be RANGE"
  [[noreturn]] void bad_value(const std::string& key, const std::string& problem, const std::string& range) const {
    spec_error(text_, "value '" + spec_.params.at(key) + "' of " + key + " " + problem + ": " + key + " must be " + range);
  }

  const GeneratorSpec& spec_;
  std::string_view text_;
};

}  // namespace

bool is_generator_spec(std::string_view text) {
  return find_generator(text.substr(0, text.find(':'))) != nullptr;
}

GeneratorSpec parse_spec(std::string_view text) {
  GeneratorSpec spec;
  const auto colon = text.find(':');
  spec.name = std::string(text.substr(0, colon));
  const GeneratorInfo* info = find_generator(spec.name);
  if (info == nullptr) {
    std::string names;
    for (const auto& g : generator_catalog()) names += (names.empty() ? "" : ", ") + g.name;
    spec_error(text, "unknown generator '" + spec.name + "' (known: " + names + ")");
  }
  if (colon == std::string_view::npos) return spec;
  // Every comma-separated item must be key=value: an empty one (a trailing
  // or doubled comma, or nothing after ':') is refused, not skipped.
  std::string_view rest = text.substr(colon + 1);
  for (bool last = false; !last;) {
    const auto comma = rest.find(',');
    last = comma == std::string_view::npos;
    const std::string_view item = rest.substr(0, comma);
    if (!last) rest = rest.substr(comma + 1);
    if (item.empty()) spec_error(text, "expected key=value, found an empty item (a trailing or doubled comma?)");
    const auto eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size()) {
      spec_error(text, "expected key=value, found '" + std::string(item) + "'");
    }
    const std::string key(item.substr(0, eq));
    bool known = false;
    std::string keys;
    for (const auto& [k, d] : info->keys) {
      known = known || k == key;
      keys += (keys.empty() ? "" : ", ") + k;
    }
    if (!known) spec_error(text, "unknown key '" + key + "' for " + spec.name + " (keys: " + keys + ")");
    if (!spec.params.emplace(key, std::string(item.substr(eq + 1))).second) spec_error(text, "key '" + key + "' given twice");
  }
  return spec;
}

namespace {
template <class V, class I>
Csr<V, I> generate_checked(std::string_view text) {
  const GeneratorSpec spec = parse_spec(text);
  const Params p(spec, text);
  const auto seed = static_cast<std::uint64_t>(p.integer("seed", 1, 0));
  const std::string& name = spec.name;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  // Sizes are any integer >= 0 here: their products are checked for overflow
  // and the nonzeros against memory by the generators (row_builder.hpp).
  if (name == "stencil2d") {
    const auto n = p.integer("n", 1000, 0);
    return stencil_2d<V, I>(p.integer("nx", n, 0), p.integer("ny", n, 0), p.choice("points", 5, {5, 9}));
  }
  if (name == "convdiff2d") {
    const auto n = p.integer("n", 1000, 0);
    return convection_diffusion_2d<V, I>(p.integer("nx", n, 0), p.integer("ny", n, 0), p.real("peclet", 1000, 0, kInf));
  }
  if (name == "stencil3d" || name == "fem") {
    const auto n = p.integer("n", name == "fem" ? 20 : 100, 0);
    const auto nx = p.integer("nx", n, 0), ny = p.integer("ny", n, 0), nz = p.integer("nz", n, 0);
    if (name == "fem") return fem_blocks<V, I>(nx, ny, nz, static_cast<int>(p.integer("block", 3, 1, 32)), seed);
    return stencil_3d<V, I>(nx, ny, nz, p.choice("points", 27, {7, 27}));
  }
  if (name == "powerlaw") {
    PowerLawOptions o;
    o.rows = p.integer("rows", o.rows, 0);
    o.min_length = p.real("min", o.min_length, 0, kInf);
    o.exponent = p.real("exponent", o.exponent, 0, kInf, true);
    o.long_rows = p.integer("long_rows", o.long_rows, 0);
    o.long_fraction = p.real("long_fraction", o.long_fraction, 0, 1);
    o.seed = seed;
    return power_law<V, I>(o);
  }
  if (name == "circuit") {
    return circuit<V, I>(p.integer("n", 1000000, 0), p.integer("per_row", 4, 0), p.integer("dense_rows", 8, 0),
                         p.real("dense_fraction", 0.1, 0, 1), seed);
  }
  if (name == "random") {
    const auto rows = p.integer("rows", 100000, 0);
    return random_uniform<V, I>(rows, p.integer("cols", rows, 0), p.integer("per_row", 10, 0), seed);
  }
  if (name == "shortwide") {
    return random_uniform<V, I>(p.integer("rows", 4284, 0), p.integer("cols", 1092610, 0), p.integer("per_row", 2600, 0), seed);
  }
  if (name == "banded") return banded<V, I>(p.integer("n", 100000, 0), p.integer("bandwidth", 8, 0), seed);
  if (name == "dense") {
    const auto rows = p.integer("rows", 1000, 0);
    return dense<V, I>(rows, p.integer("cols", rows, 0), seed);
  }
  // replicate: the copies' sizes are checked once the file is read.
  const std::string file = p.text("file", "");
  if (file.empty()) spec_error(text, "replicate needs file=PATH");
  const auto copies = p.integer("copies", 8, 1), couplings = p.integer("couplings", 16, 0);
  // The base is read whole, outside any row window (generate_rows cuts the result).
  RowWindow* window = std::exchange(active_row_window(), nullptr);
  auto base = io::load_matrix<V, I>(file);
  active_row_window() = window;
  return replicate(base, copies, couplings, seed);
}
}  // namespace

// A refusal for memory names the spec the user wrote.
template <class V, class I>
Csr<V, I> generate(std::string_view text) {
  try {
    return generate_checked<V, I>(text);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::out_of_memory && e.code() != ErrorCode::overflow) throw;
    throw Error(e.code(), "generator spec '" + std::string(text) + "': " + e.what());
  }
}

template <class V>
GeneratedRows<V> generate_rows(std::string_view text, const RowBlock& block) {
  // The block asked for, checked against the global row count.
  RowWindow window{[&](std::int64_t rows) {
    const auto [b, e] = block(rows);
    if (b < 0 || b > e || e > rows) {
      throw Error(ErrorCode::invalid_argument, "generate_rows: rows [" + std::to_string(b) + ", " + std::to_string(e) + ") of a " +
                                                   std::to_string(rows) + "-row matrix");
    }
    return std::make_pair(b, e);
  }};
  struct Restore {
    RowWindow* previous;
    ~Restore() { active_row_window() = previous; }
  } restore{active_row_window()};
  active_row_window() = &window;
  GeneratedRows<V> out;
  out.rows = generate<V, std::int64_t>(text);
  active_row_window() = restore.previous;
  if (window.global_rows >= 0) {
    out.global_rows = window.global_rows;
    out.first_row = window.first_row;
    return out;
  }
  // Not built row by row: cut the whole matrix here, as build_rows would.
  Csr<V, std::int64_t> whole = std::move(out.rows);
  const auto [first, end] = window.block(whole.rows);
  out.global_rows = whole.rows;
  out.first_row = first;
  const std::int64_t count = end - first;
  const auto b = whole.row_ptr[static_cast<std::size_t>(first)], e = whole.row_ptr[static_cast<std::size_t>(end)];
  out.rows.rows = count;
  out.rows.cols = whole.cols;
  out.rows.row_ptr.clear();
  for (std::int64_t i = 0; i <= count; ++i) out.rows.row_ptr.push_back(whole.row_ptr[static_cast<std::size_t>(first + i)] - b);
  out.rows.col_idx.assign(whole.col_idx.begin() + b, whole.col_idx.begin() + e);
  out.rows.values.assign(whole.values.begin() + b, whole.values.begin() + e);
  return out;
}

template <class V>
GeneratedRows<V> generate_rows(std::string_view text, int ranks, int rank) {
  if (ranks < 1 || rank < 0 || rank >= ranks) {
    throw Error(ErrorCode::invalid_argument, "generate_rows: rank " + std::to_string(rank) + " of " + std::to_string(ranks));
  }
  return generate_rows<V>(text, [=](std::int64_t rows) {
    const std::int64_t base = rows / ranks, extra = rows % ranks;
    const std::int64_t first = rank * base + std::min<std::int64_t>(rank, extra);
    return std::make_pair(first, first + base + (rank < extra ? 1 : 0));
  });
}

#define HSPARSE_INSTANTIATE(V, I) template Csr<V, I> generate<V, I>(std::string_view);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE
#define HSPARSE_INSTANTIATE(V)                                                        \
  template GeneratedRows<V> generate_rows<V>(std::string_view, int, int); \
  template GeneratedRows<V> generate_rows<V>(std::string_view, const RowBlock&);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::generators
