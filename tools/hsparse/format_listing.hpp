#pragma once
// `hsparse info --formats [--json]` (format_listing.cpp).
namespace hsparse::tool {
int print_formats(bool json);
}  // namespace hsparse::tool
