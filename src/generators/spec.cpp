// Generator specs: NAME[:key=value,...] parsed, checked and dispatched.
#include <charconv>
#include <cmath>

#include "hsparse/core/error.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/matrix_source.hpp"

namespace hsparse::generators {

const std::vector<GeneratorInfo>& generator_catalog() {
  static const std::vector<GeneratorInfo> catalog = {
      {"stencil2d", "2D Laplacian on an nx x ny grid, 5 or 9 points", {{"n", "1000"}, {"nx", "n"}, {"ny", "n"}, {"points", "5"}}},
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

class Params {
 public:
  Params(const GeneratorSpec& s, std::string_view text) : spec_(s), text_(text) {}

  std::string text(const std::string& key, const std::string& fallback) const {
    auto it = spec_.params.find(key);
    return it == spec_.params.end() ? fallback : it->second;
  }
  double real(const std::string& key, double fallback) const {
    auto it = spec_.params.find(key);
    if (it == spec_.params.end()) return fallback;
    double v = 0;
    const std::string& s = it->second;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) {
      spec_error(text_, "value '" + s + "' of " + key + " is not a number");
    }
    return v;
  }
  // Integers accept 1e6-style notation; they must be whole and non-negative.
  std::int64_t integer(const std::string& key, std::int64_t fallback) const {
    const double v = real(key, static_cast<double>(fallback));
    if (v < 0 || v != std::floor(v) || v > 9.0e18) spec_error(text_, key + " must be a non-negative integer");
    return static_cast<std::int64_t>(v);
  }

 private:
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
  std::string_view rest = text.substr(colon + 1);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
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
    spec.params[key] = std::string(item.substr(eq + 1));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  return spec;
}

namespace {
template <class V, class I>
Csr<V, I> generate_checked(std::string_view text) {
  const GeneratorSpec spec = parse_spec(text);
  const Params p(spec, text);
  const auto seed = static_cast<std::uint64_t>(p.integer("seed", 1));
  const std::string& name = spec.name;
  if (name == "stencil2d") {
    const auto n = p.integer("n", 1000);
    return stencil_2d<V, I>(p.integer("nx", n), p.integer("ny", n), static_cast<int>(p.integer("points", 5)));
  }
  if (name == "stencil3d" || name == "fem") {
    const auto n = p.integer("n", name == "fem" ? 20 : 100);
    const auto nx = p.integer("nx", n), ny = p.integer("ny", n), nz = p.integer("nz", n);
    if (name == "fem") return fem_blocks<V, I>(nx, ny, nz, static_cast<int>(p.integer("block", 3)), seed);
    return stencil_3d<V, I>(nx, ny, nz, static_cast<int>(p.integer("points", 27)));
  }
  if (name == "powerlaw") {
    PowerLawOptions o;
    o.rows = p.integer("rows", o.rows);
    o.min_length = p.real("min", o.min_length);
    o.exponent = p.real("exponent", o.exponent);
    o.long_rows = p.integer("long_rows", o.long_rows);
    o.long_fraction = p.real("long_fraction", o.long_fraction);
    o.seed = seed;
    return power_law<V, I>(o);
  }
  if (name == "circuit") {
    return circuit<V, I>(p.integer("n", 1000000), p.integer("per_row", 4), p.integer("dense_rows", 8), p.real("dense_fraction", 0.1), seed);
  }
  if (name == "random") {
    const auto rows = p.integer("rows", 100000);
    return random_uniform<V, I>(rows, p.integer("cols", rows), p.integer("per_row", 10), seed);
  }
  if (name == "shortwide") {
    return random_uniform<V, I>(p.integer("rows", 4284), p.integer("cols", 1092610), p.integer("per_row", 2600), seed);
  }
  if (name == "banded") return banded<V, I>(p.integer("n", 100000), p.integer("bandwidth", 8), seed);
  if (name == "dense") {
    const auto rows = p.integer("rows", 1000);
    return dense<V, I>(rows, p.integer("cols", rows), seed);
  }
  // replicate
  const std::string file = p.text("file", "");
  if (file.empty()) spec_error(text, "replicate needs file=PATH");
  return replicate(io::load_matrix<V, I>(file), p.integer("copies", 8), p.integer("couplings", 16), seed);
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

#define HSPARSE_INSTANTIATE(V, I) template Csr<V, I> generate<V, I>(std::string_view);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::generators
