// The format registry (formats/format.hpp): each format's traits, once.
// The byte models count what the conversions in this folder store
// (coo.hpp ... sell_c_sigma.hpp); the fill limits are the defaults of
// those conversions.
#include "hsparse/formats/format.hpp"

#include <algorithm>

#include "hsparse/core/error.hpp"

namespace hsparse {

namespace {

using Footprint = FormatFootprint;
std::size_t u(std::int64_t v) { return static_cast<std::size_t>(std::max<std::int64_t>(v, 0)); }
double per_nonzero(double stored, const Footprint& f) { return f.nnz > 0 ? stored / static_cast<double>(f.nnz) : 1.0; }

// CSR16's bytes with stored values of sb bytes: narrow entries (value + 16-bit
// offset), row_ptr and bases, and the wide rows' plain CSR when there are any.
std::size_t csr16_bytes(const Footprint& f, std::size_t sb, std::size_t ib) {
  const std::size_t narrow = u(f.nnz - f.csr16_wide_entries), wide = u(f.csr16_wide_entries);
  return narrow * (sb + 2) + (2 * u(f.rows) + 1) * ib + (f.csr16_wide_rows > 0 ? wide * (sb + ib) + (u(f.rows) + 1) * ib : 0);
}
std::string csr16_shape(const Footprint& f) {
  return f.csr16_wide_rows > 0 ? std::to_string(f.csr16_wide_rows) + " wide rows in plain CSR" : std::string();
}

const std::vector<FormatTraits>& registry() {
  static const std::vector<FormatTraits> r = {
      {Format::coo, "coo", "COO", "coordinate triplets sorted by row (Owens lecture, COO; segmented reduction)", 0, "", {}, true,
       [](const Footprint& f, std::size_t vb, std::size_t ib) { return u(f.nnz) * (vb + 2 * ib); },
       [](const Footprint&) { return 1.0; }, [](const Footprint&) { return std::string(); }},
      {Format::csr, "csr", "CSR", "compressed sparse rows (every paper's baseline)", 0, "", {}, false,
       [](const Footprint& f, std::size_t vb, std::size_t ib) { return u(f.nnz) * (vb + ib) + (u(f.rows) + 1) * ib; },
       [](const Footprint&) { return 1.0; }, [](const Footprint&) { return std::string(); }},
      {Format::ell, "ell", "ELL", "ELLPACK: every row padded to the longest, column-major (Bell and Garland)", 20.0,
       "ELL slots (rows x longest row)", {{"--max-fill", "refuse beyond this many slots per nonzero"}}, true,
       [](const Footprint& f, std::size_t vb, std::size_t ib) { return u(f.rows) * u(f.max_row_length) * (vb + ib); },
       [](const Footprint& f) { return per_nonzero(static_cast<double>(f.rows) * static_cast<double>(f.max_row_length), f); },
       [](const Footprint& f) { return "width " + std::to_string(f.max_row_length); }},
      {Format::hyb, "hyb", "HYB", "ELL for the first K entries of each row plus COO for the rest (Bell and Garland; cusp's K)", 0, "",
       {{"--hyb-width", "the ELL part's width K (default: cusp's histogram rule)"}}, true,
       [](const Footprint& f, std::size_t vb, std::size_t ib) {
         return u(f.rows) * u(f.hyb_ell_width) * (vb + ib) + u(f.hyb_coo_entries) * (vb + 2 * ib);
       },
       [](const Footprint& f) {
         return per_nonzero(static_cast<double>(f.rows) * static_cast<double>(f.hyb_ell_width) + static_cast<double>(f.hyb_coo_entries), f);
       },
       [](const Footprint& f) {
         return "ELL width " + std::to_string(f.hyb_ell_width) + ", " + std::to_string(f.hyb_coo_entries) + " COO entries";
       }},
      {Format::dia, "dia", "DIA", "diagonals stored densely, one offset each (Bell and Garland)", 3.0, "DIA slots (diagonals x rows)",
       {{"--max-fill", "refuse beyond this many slots per nonzero"}}, true,
       [](const Footprint& f, std::size_t vb, std::size_t ib) { return u(f.diagonals) * (u(f.rows) * vb + ib); },
       [](const Footprint& f) { return per_nonzero(static_cast<double>(f.diagonals) * static_cast<double>(f.rows), f); },
       [](const Footprint& f) { return std::to_string(f.diagonals) + " diagonals"; }},
      {Format::bcsr, "bcsr", "BCSR", "dense b x b blocks in CSR order, column-major blocks (Eberhardt and Hoemmen)", 16.0,
       "stored block entries",
       {{"--block-size", "block size b (default: the fewest bytes in 1..8)"}, {"--align-blocks", "64-byte aligned blocks (CPU)"},
        {"--max-fill", "refuse beyond this many stored entries per nonzero"}},
       true,
       [](const Footprint& f, std::size_t vb, std::size_t ib) {
         const std::size_t b = u(f.bcsr.block), block_rows = (u(f.rows) + b - 1) / std::max<std::size_t>(b, 1);
         return u(f.bcsr.blocks) * (b * b * vb + ib) + (block_rows + 1) * ib;
       },
       [](const Footprint& f) { return f.bcsr.fill_ratio; },
       [](const Footprint& f) { return "block " + std::to_string(f.bcsr.block); }},
      {Format::sell, "sell", "SELL-C-sigma",
       "chunks of C rows sorted by length within sigma rows, padded per chunk (Kreutzer et al. 2014)", 0, "",
       {{"--chunk", "C, rows per chunk (default: the SIMD width; 32 on the GPU)"}, {"--sigma", "sorting scope in rows"}}, true,
       [](const Footprint& f, std::size_t vb, std::size_t ib) {
         // The container keeps the row permutation whatever sigma (identity at 1).
         return u(f.sell.stored) * (vb + ib) + u(2 * f.sell.chunks + 1) * ib + u(f.rows) * ib;
       },
       [](const Footprint& f) { return f.sell.beta > 0 ? 1.0 / f.sell.beta : 1.0; },
       [](const Footprint& f) { return "C " + std::to_string(f.sell.chunk) + ", sigma " + std::to_string(f.sell.sigma); }},
      {Format::csr16, "csr16", "CSR16",
       "CSR with a 32-bit base per row and 16-bit column offsets; rows spanning 2^16 columns or more in a plain CSR part (issue 18: "
       "lossless index compression)",
       0, "", {}, true,
       [](const Footprint& f, std::size_t vb, std::size_t ib) { return csr16_bytes(f, vb, ib); }, [](const Footprint&) { return 1.0; }, csr16_shape},
      {Format::csr16_single, "csr16-single", "CSR16, single values",
       "CSR16 with the values stored in single precision, products accumulated in the caller's precision (issue 18: opt-in, lossy; "
       "relative rounding 2^-24 per value)",
       0, "", {}, true,
       [](const Footprint& f, std::size_t, std::size_t ib) { return csr16_bytes(f, f.complex_values ? 8 : 4, ib); },  // complex<float> or float
       [](const Footprint&) { return 1.0; }, csr16_shape, 1.0 / (1 << 24)},
  };
  return r;
}

}  // namespace

const std::vector<Format>& all_formats() {
  static const std::vector<Format> formats = [] {
    std::vector<Format> f;
    for (const auto& t : registry()) {
      // Backends index their registrations by the enumerator's value.
      if (static_cast<std::size_t>(t.format) != f.size()) {
        throw Error(ErrorCode::internal, std::string("formats/format.cpp lists ") + t.name + " out of the enum's order");
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
