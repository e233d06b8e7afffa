// Stencils, FEM-like block matrices, banded and dense matrices: symmetric
// structure, symmetric values, dominant diagonal (SPD).
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "hsparse/generators/generators.hpp"
#include "row_builder.hpp"

namespace hsparse::generators {

namespace {

// Off-diagonal value in [-1, -0.1): depends only on the unordered pair, so the matrix is symmetric.
double symmetric_offdiagonal(std::uint64_t seed, std::int64_t i, std::int64_t j) {
  const auto lo = static_cast<std::uint64_t>(std::min(i, j)), hi = static_cast<std::uint64_t>(std::max(i, j));
  return -(0.1 + 0.9 * hash_uniform(seed, lo, hi));
}

void check_positive(std::int64_t v, const char* what) {
  if (v < 0) throw Error(ErrorCode::invalid_argument, std::string("generator: ") + what + " must be non-negative");
}

// Adds a diagonal entry equal to 1 + the sum of |off-diagonals| (strict dominance).
void add_dominant_diagonal(std::int64_t r, RowEntries& e) {
  double sum = 1;
  for (const auto& [c, v] : e) sum += std::abs(v);
  e.emplace_back(r, sum);
}

}  // namespace

template <class V, class I>
Csr<V, I> stencil_2d(std::int64_t nx, std::int64_t ny, int points) {
  check_positive(nx, "nx");
  check_positive(ny, "ny");
  if (points != 5 && points != 9) throw Error(ErrorCode::invalid_argument, "stencil2d: points must be 5 or 9");
  // Classic Dirichlet Laplacian: diagonal points-1, neighbours -1.
  const std::int64_t n = checked_product({nx, ny}, "stencil2d: nx * ny");
  return build_rows<V, I>(n, n, checked_product({n, points}, "stencil2d: rows * points"), [=](std::int64_t r, RowEntries& e) {
    const std::int64_t x = r % nx, y = r / nx;
    for (std::int64_t dy = -1; dy <= 1; ++dy) {
      for (std::int64_t dx = -1; dx <= 1; ++dx) {
        if (points == 5 && dx != 0 && dy != 0) continue;
        const std::int64_t xx = x + dx, yy = y + dy;
        if (xx < 0 || xx >= nx || yy < 0 || yy >= ny) continue;
        e.emplace_back(yy * nx + xx, (dx == 0 && dy == 0) ? points - 1.0 : -1.0);
      }
    }
  });
}

template <class V, class I>
Csr<V, I> convection_diffusion_2d(std::int64_t nx, std::int64_t ny, double peclet) {
  check_positive(nx, "nx");
  check_positive(ny, "ny");
  if (!(peclet >= 0) || !std::isfinite(peclet)) throw Error(ErrorCode::invalid_argument, "convdiff2d: peclet must be finite and >= 0");
  const std::int64_t n = checked_product({nx, ny}, "convdiff2d: nx * ny");
  // Central differences, times h^2: (w_x h / 2) on the x neighbours, likewise y.
  const double cx = peclet * std::sqrt(0.5) / (2.0 * static_cast<double>(nx + 1)), cy = peclet * std::sqrt(0.5) / (2.0 * static_cast<double>(ny + 1));
  return build_rows<V, I>(n, n, checked_product({n, 5}, "convdiff2d: rows * 5"), [=](std::int64_t r, RowEntries& e) {
    const std::int64_t x = r % nx, y = r / nx;
    if (y > 0) e.emplace_back(r - nx, -1.0 - cy);
    if (x > 0) e.emplace_back(r - 1, -1.0 - cx);
    e.emplace_back(r, 4.0);
    if (x + 1 < nx) e.emplace_back(r + 1, -1.0 + cx);
    if (y + 1 < ny) e.emplace_back(r + nx, -1.0 + cy);
  });
}

template <class V, class I>
Csr<V, I> stencil_3d(std::int64_t nx, std::int64_t ny, std::int64_t nz, int points) {
  check_positive(nx, "nx");
  check_positive(ny, "ny");
  check_positive(nz, "nz");
  if (points != 7 && points != 27) throw Error(ErrorCode::invalid_argument, "stencil3d: points must be 7 or 27");
  const std::int64_t n = checked_product({nx, ny, nz}, "stencil3d: nx * ny * nz");
  return build_rows<V, I>(n, n, checked_product({n, points}, "stencil3d: rows * points"), [=](std::int64_t r, RowEntries& e) {
    const std::int64_t x = r % nx, y = (r / nx) % ny, z = r / (nx * ny);
    for (std::int64_t dz = -1; dz <= 1; ++dz)
      for (std::int64_t dy = -1; dy <= 1; ++dy)
        for (std::int64_t dx = -1; dx <= 1; ++dx) {
          if (points == 7 && std::abs(dx) + std::abs(dy) + std::abs(dz) > 1) continue;
          const std::int64_t xx = x + dx, yy = y + dy, zz = z + dz;
          if (xx < 0 || xx >= nx || yy < 0 || yy >= ny || zz < 0 || zz >= nz) continue;
          e.emplace_back((zz * ny + yy) * nx + xx, (dx == 0 && dy == 0 && dz == 0) ? points - 1.0 : -1.0);
        }
  });
}

template <class V, class I>
Csr<V, I> fem_blocks(std::int64_t nx, std::int64_t ny, std::int64_t nz, int block, std::uint64_t seed) {
  check_positive(nx, "nx");
  check_positive(ny, "ny");
  check_positive(nz, "nz");
  if (block < 1 || block > 32) throw Error(ErrorCode::invalid_argument, "fem: block must be in [1, 32]");
  // Each mesh node carries `block` unknowns and couples to its 27-point
  // neighbourhood with a dense block x block block (the FEM-like matrices of
  // Eberhardt-Hoemmen and ENVIRONMENT.md's cuSPARSE anchors).
  const std::int64_t b = block, nodes = checked_product({nx, ny, nz}, "fem: nx * ny * nz");
  const std::int64_t rows = checked_product({nodes, b}, "fem: nodes * block");
  // A row couples to at most 27 nodes' b unknowns.
  return build_rows<V, I>(rows, rows, checked_product({rows, 27, b}, "fem: rows * 27 * block"), [=](std::int64_t r, RowEntries& e) {
    const std::int64_t node = r / b;
    const std::int64_t x = node % nx, y = (node / nx) % ny, z = node / (nx * ny);
    for (std::int64_t dz = -1; dz <= 1; ++dz)
      for (std::int64_t dy = -1; dy <= 1; ++dy)
        for (std::int64_t dx = -1; dx <= 1; ++dx) {
          const std::int64_t xx = x + dx, yy = y + dy, zz = z + dz;
          if (xx < 0 || xx >= nx || yy < 0 || yy >= ny || zz < 0 || zz >= nz) continue;
          const std::int64_t base = ((zz * ny + yy) * nx + xx) * b;
          for (std::int64_t k = 0; k < b; ++k) {
            if (base + k != r) e.emplace_back(base + k, symmetric_offdiagonal(seed, r, base + k));
          }
        }
    add_dominant_diagonal(r, e);
  });
}

template <class V, class I>
Csr<V, I> banded(std::int64_t n, std::int64_t half_bandwidth, std::uint64_t seed) {
  check_positive(n, "n");
  check_positive(half_bandwidth, "bandwidth");
  // min(2b + 1, n) entries per row; 2b + 1 computed unsigned, b may be near 2^63.
  const auto width = static_cast<std::int64_t>(std::min<std::uint64_t>(static_cast<std::uint64_t>(n), 2 * static_cast<std::uint64_t>(half_bandwidth) + 1));
  return build_rows<V, I>(n, n, checked_product({n, width}, "banded: n * min(2 bandwidth + 1, n)"), [=](std::int64_t r, RowEntries& e) {
    // Written so that a bandwidth near 2^63 cannot overflow r +- b.
    for (std::int64_t c = r - std::min(r, half_bandwidth); c <= r + std::min(n - 1 - r, half_bandwidth); ++c) {
      if (c != r) e.emplace_back(c, symmetric_offdiagonal(seed, r, c));
    }
    add_dominant_diagonal(r, e);
  });
}

template <class V, class I>
Csr<V, I> dense(std::int64_t rows, std::int64_t cols, std::uint64_t seed) {
  check_positive(rows, "rows");
  check_positive(cols, "cols");
  return build_rows<V, I>(rows, cols, checked_product({rows, cols}, "dense: rows * cols"), [=](std::int64_t r, RowEntries& e) {
    for (std::int64_t c = 0; c < cols; ++c) {
      if (c != r) e.emplace_back(c, symmetric_offdiagonal(seed, r, c));
    }
    if (r < cols) add_dominant_diagonal(r, e);
  });
}

#define HSPARSE_INSTANTIATE(V, I)                                                                \
  template Csr<V, I> stencil_2d<V, I>(std::int64_t, std::int64_t, int);                          \
  template Csr<V, I> convection_diffusion_2d<V, I>(std::int64_t, std::int64_t, double);          \
  template Csr<V, I> stencil_3d<V, I>(std::int64_t, std::int64_t, std::int64_t, int);            \
  template Csr<V, I> fem_blocks<V, I>(std::int64_t, std::int64_t, std::int64_t, int, std::uint64_t); \
  template Csr<V, I> banded<V, I>(std::int64_t, std::int64_t, std::uint64_t);                    \
  template Csr<V, I> dense<V, I>(std::int64_t, std::int64_t, std::uint64_t);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::generators
