#pragma once
/// @file
/// The format registry: every storage format hsparse has, declared once in
/// HSPARSE_FORMATS with its traits. The CLI's option lists and help, the
/// bench candidates, the advisor, `hsparse info --formats` and the tests
/// iterate all_formats(). A format's traits sit beside its conversion
/// (src/formats/FORMAT.cpp, detail::format_traits_FORMAT), and each
/// backend's registration of it, with the builder of its plans, in
/// src/backends/BACKEND/plans/FORMAT.cpp. The tables that collect them
/// are generated from HSPARSE_FORMATS, so a format missing any of them does
/// not link, and tests/unit/test_format_registry.cpp fails for a format
/// whose traits or kernels are incomplete. docs/adding-a-format.md lists the
/// files a new format touches.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hsparse/formats/footprint.hpp"

namespace hsparse {

/// Every format, in the registry's order: X(enumerator) per format. Adding a
/// format is one line here plus its own files (docs/adding-a-format.md).
#define HSPARSE_FORMATS(X) \
  X(coo)                   \
  X(csr)                   \
  X(ell)                   \
  X(hyb)                   \
  X(dia)                   \
  X(bcsr)                  \
  X(sell)                  \
  X(csr16)                 \
  X(csr16_single)

/// @cond HSPARSE_INTERNAL
#define HSPARSE_FORMAT_ENUMERATOR(f) f,
/// @endcond
/// The storage formats (their traits: format_traits()): coo, csr, ell, hyb,
/// dia, bcsr, sell (SELL-C-sigma), csr16 (16-bit column offsets, lossless)
/// and csr16_single (csr16 with single-precision values, lossy).
enum class Format { HSPARSE_FORMATS(HSPARSE_FORMAT_ENUMERATOR) };
#undef HSPARSE_FORMAT_ENUMERATOR

/// A parameter of a format's layout that a user may set and a tuner may search.
struct FormatTunable {
  const char* option;   ///< the CLI option, e.g. "--block-size"
  const char* meaning;  ///< what it sets, in words
};

/// What hsparse knows of a format, declared once (format_traits()).
struct FormatTraits {
  Format format;  ///< the format these traits describe
  const char* name;     ///< option values, JSON, cache keys: "sell"
  const char* title;    ///< tables and plots: "SELL-C-sigma"
  const char* summary;  ///< one line, with the source it follows
  /// Default limit on stored slots / nonzeros a conversion accepts (padding,
  /// fill); 0: the format stores no padding. FormatOptions::max_fill overrides it.
  double max_fill;
  const char* fill_meaning;  ///< what the limit counts, for messages
  std::vector<FormatTunable> tunables;  ///< the layout parameters a user may set
  /// The GPU converts CSR to this format on the device (else the host
  /// converts and the result is uploaded).
  bool gpu_converts;
  /// Bytes of the stored matrix (values, indices, offsets) for a value and index width.
  std::size_t (*bytes)(const FormatFootprint&, std::size_t value_bytes, std::size_t index_bytes);
  /// Stored slots / nonzeros (1 for formats without padding).
  double (*fill)(const FormatFootprint&);
  /// The layout's shape in words, e.g. "width 27" ("" when nothing to say).
  std::string (*shape)(const FormatFootprint&);
  /// Relative rounding of the stored values: 0 for the exact formats, 2^-24
  /// for those storing single precision (lossy: the advisor takes them only
  /// when the caller allows that much, advise()'s value_tolerance).
  double value_rounding = 0;
};

/// @cond HSPARSE_INTERNAL
namespace detail {
// Each format's traits, defined beside its conversion (src/formats/<format>.cpp).
#define HSPARSE_DECLARE_FORMAT_TRAITS(f) FormatTraits format_traits_##f();
HSPARSE_FORMATS(HSPARSE_DECLARE_FORMAT_TRAITS)
#undef HSPARSE_DECLARE_FORMAT_TRAITS
}  // namespace detail
/// @endcond

/// Every format, in the registry's order.
const std::vector<Format>& all_formats();
/// The traits of `format` (a reference to static data, valid for the program's life).
const FormatTraits& format_traits(Format format);
/// The format's name, as parse_format() takes it ("sell", "csr16-single").
const char* to_string(Format format);
/// Error(invalid_argument) naming the known formats.
Format parse_format(const std::string& name);
/// A format or "auto" (empty: the library chooses, plans/spmv_plan.hpp's
/// resolve_spmv_options): how every option and argument naming a format is
/// read. Error(invalid_argument) naming the formats and auto.
std::optional<Format> parse_format_choice(const std::string& name);
/// "coo, csr, ell, hyb, dia, bcsr, sell, csr16" (with `extra` appended, e.g. "auto").
std::string format_names(const std::string& extra = "");
/// The names of every format, in the registry's order.
std::vector<std::string> format_name_list();

/// The layout choices of every format's conversion from CSR, in one struct
/// so plans, handles and the CLI pass them through unchanged. Zero means the
/// format's (or the backend's) default.
struct FormatOptions {
  int block = 0;               ///< BCSR block size; 0: the fewest bytes in 1..8
  bool align_blocks = false;   ///< BCSR: 64-byte aligned blocks
  int chunk = 0;               ///< SELL C; 0: the backend's SIMD width
  long long sigma = 0;         ///< SELL sorting scope; 0: the backend's default
  std::optional<long long> hyb_width;  ///< unset: cusp's rule
  double max_fill = 0;         ///< 0: FormatTraits::max_fill
  int row_alignment = 1;       ///< ELL and HYB rows padded to a multiple (the GPU uses 32)
};
/// max_fill, or the format's default.
double fill_limit(Format format, const FormatOptions& options);

}  // namespace hsparse
