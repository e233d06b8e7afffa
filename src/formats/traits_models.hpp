#pragma once
// What the formats' byte, fill and shape models (detail::format_traits_*,
// formats/format.hpp) share: counts as sizes, and stored slots per nonzero.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "hsparse/formats/format.hpp"

namespace hsparse::detail {

inline std::size_t count(std::int64_t v) { return static_cast<std::size_t>(std::max<std::int64_t>(v, 0)); }
inline double per_nonzero(double stored, const FormatFootprint& f) { return f.nnz > 0 ? stored / static_cast<double>(f.nnz) : 1.0; }
inline double no_padding(const FormatFootprint&) { return 1.0; }
inline std::string no_shape(const FormatFootprint&) { return {}; }

}  // namespace hsparse::detail
