// The format registry (formats/format.hpp): the formats' traits, collected
// in HSPARSE_FORMATS' order from each format's own source
// (src/formats/<format>.cpp, beside the conversion its byte model counts).
#include "hsparse/formats/format.hpp"

#include "hsparse/core/error.hpp"

namespace hsparse {

namespace {

const std::vector<FormatTraits>& registry() {
#define HSPARSE_FORMAT_TRAITS_ROW(f) detail::format_traits_##f(),
  static const std::vector<FormatTraits> r = {HSPARSE_FORMATS(HSPARSE_FORMAT_TRAITS_ROW)};
#undef HSPARSE_FORMAT_TRAITS_ROW
  return r;
}

}  // namespace

const std::vector<Format>& all_formats() {
  static const std::vector<Format> formats = [] {
    std::vector<Format> f;
    for (const auto& t : registry()) {
      // Backends index their registrations by the enumerator's value.
      if (static_cast<std::size_t>(t.format) != f.size()) {
        throw Error(ErrorCode::internal, std::string("the traits of ") + t.name + " name another format's enumerator (src/formats/)");
      }
      f.push_back(t.format);
    }
    return f;
  }();
  return formats;
}

const FormatTraits& format_traits(Format format) {
  for (const auto& t : registry()) {
    if (t.format == format) return t;
  }
  throw Error(ErrorCode::internal, "format " + std::to_string(static_cast<int>(format)) + " has no traits in formats/format.cpp");
}

const char* to_string(Format format) { return format_traits(format).name; }

std::vector<std::string> format_name_list() {
  std::vector<std::string> names;
  for (const auto& t : registry()) names.emplace_back(t.name);
  return names;
}

std::string format_names(const std::string& extra) {
  std::string list;
  for (const auto& t : registry()) list += (list.empty() ? "" : ", ") + std::string(t.name);
  return extra.empty() ? list : list + ", " + extra;
}

Format parse_format(const std::string& name) {
  for (const auto& t : registry()) {
    if (name == t.name) return t.format;
  }
  throw Error(ErrorCode::invalid_argument, "unknown format '" + name + "' (known: " + format_names() + ")");
}

std::optional<Format> parse_format_choice(const std::string& name) {
  if (name == "auto") return std::nullopt;
  for (const auto& t : registry()) {
    if (name == t.name) return t.format;
  }
  throw Error(ErrorCode::invalid_argument, "unknown format '" + name + "' (known: " + format_names("auto") + ")");
}

double fill_limit(Format format, const FormatOptions& options) {
  return options.max_fill > 0 ? options.max_fill : format_traits(format).max_fill;
}

}  // namespace hsparse
