#pragma once
// The element numbering of the FEM data (fem/poisson.hpp): colour by colour,
// colour (ex % 2) + 2 (ey % 2), then ey, then ex; no two elements of one
// colour share a node.
#include <array>

namespace hsparse::fem {

// Element e's position in the colour-major order: colour (ex % 2) + 2 (ey % 2), then ey, ex.
struct ColourOrder {
  long long n;
  std::array<long long, 5> begin{};
  explicit ColourOrder(long long elements_per_side) : n(elements_per_side) {
    for (int c = 0; c < 4; ++c) {
      const long long nx = (n + 1 - (c % 2)) / 2, ny = (n + 1 - (c / 2)) / 2;  // elements with ex % 2 == c % 2, ey % 2 == c / 2
      begin[static_cast<std::size_t>(c) + 1] = begin[static_cast<std::size_t>(c)] + nx * ny;
    }
  }
  long long index(long long ex, long long ey) const {
    const int c = static_cast<int>(ex % 2 + 2 * (ey % 2));
    const long long nx = (n + 1 - (c % 2)) / 2;
    return begin[static_cast<std::size_t>(c)] + (ey / 2) * nx + ex / 2;
  }
};

}  // namespace hsparse::fem
