#pragma once
// The format registry: every storage format hsparse has, declared once with
// its traits. The CLI's option lists and help, the bench candidates, the
// advisor, `hsparse info --formats` and the tests iterate all_formats();
// each backend registers its kernels for a format in
// backends/<backend>/spmv_kernels.cpp and builds it in its plan
// (backends/<backend>/spmv_plan*.cpp), both by a switch without a default, so
// a new enumerator that a backend does not handle is a compile error
// (-Werror=switch), and tests/unit/test_format_registry.cpp fails for a
// format whose traits or kernels are missing. docs/adding-a-format.md lists
// the files a new format touches.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hsparse/formats/footprint.hpp"

namespace hsparse {

enum class Format { coo, csr, ell, hyb, dia, bcsr, sell, csr16, csr16_single };

// A parameter of a format's layout that a user may set and a tuner may search.
struct FormatTunable {
  const char* option;   // the CLI option, e.g. "--block-size"
  const char* meaning;
};

struct FormatTraits {
  Format format;
  const char* name;     // option values, JSON, cache keys: "sell"
  const char* title;    // tables and plots: "SELL-C-sigma"
  const char* summary;  // one line, with the source it follows
  // Default limit on stored slots / nonzeros a conversion accepts (padding,
  // fill); 0: the format stores no padding. FormatOptions::max_fill overrides it.
  double max_fill;
  const char* fill_meaning;  // what the limit counts, for messages
  std::vector<FormatTunable> tunables;
  // The GPU converts CSR to this format on the device (else the host
  // converts and the result is uploaded).
  bool gpu_converts;
  // Bytes of the stored matrix (values, indices, offsets) for a value and index width.
  std::size_t (*bytes)(const FormatFootprint&, std::size_t value_bytes, std::size_t index_bytes);
  // Stored slots / nonzeros (1 for formats without padding).
  double (*fill)(const FormatFootprint&);
  // The layout's shape in words, e.g. "width 27" ("" when nothing to say).
  std::string (*shape)(const FormatFootprint&);
  // Relative rounding of the stored values: 0 for the exact formats, 2^-24
  // for those storing single precision (lossy: the advisor takes them only
  // when the caller allows that much, advise()'s value_tolerance).
  double value_rounding = 0;
};

const std::vector<Format>& all_formats();
const FormatTraits& format_traits(Format format);
const char* to_string(Format format);
// Error(invalid_argument) naming the known formats.
Format parse_format(const std::string& name);
// "coo, csr, ell, hyb, dia, bcsr, sell, csr16" (with `extra` appended, e.g. "auto").
std::string format_names(const std::string& extra = "");
std::vector<std::string> format_name_list();

// The layout choices of every format's conversion from CSR, in one struct
// so plans, handles and the CLI pass them through unchanged. Zero means the
// format's (or the backend's) default.
struct FormatOptions {
  int block = 0;               // BCSR block size; 0: the fewest bytes in 1..8
  bool align_blocks = false;   // BCSR: 64-byte aligned blocks
  int chunk = 0;               // SELL C; 0: the backend's SIMD width
  long long sigma = 0;         // SELL sorting scope; 0: the backend's default
  std::optional<long long> hyb_width;  // unset: cusp's rule
  double max_fill = 0;         // 0: FormatTraits::max_fill
  int row_alignment = 1;       // ELL and HYB rows padded to a multiple (the GPU uses 32)
};
// max_fill, or the format's default.
double fill_limit(Format format, const FormatOptions& options);

}  // namespace hsparse
