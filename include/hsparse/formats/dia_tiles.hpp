#pragma once
// DIA's values on the GPU, in tiles of kDiaTileRows rows: a tile's slots of
// diagonal 0, then of diagonal 1, and so on (dia_tiled_slot), the last tile
// padded with zeros. The host's Dia keeps one array per diagonal
// (formats/dia.hpp); the GPU's thread-per-row kernels read this one.
//
// Why: with one array per diagonal, a warp's 32 rows read one 256-byte
// piece of each of the D diagonals, D regions rows x 8 bytes apart; in
// tiles the warp streams one contiguous region of D x 256 bytes, as SELL's
// chunks do. Measured on the H200 (L2 flushed, GFLOP/s, untiled / tiled at
// 32-256 rows, same process;
// docs/results/2026-11-27-sell-device-dia-tiles-h200-h100/ab-dia-tiled-h200.csv): stencil
// 902-907 / 932-941, banded 877-878 / 893-902, FEM bs = 3 805-810 /
// 816-823. The tile sizes tie; 32, a warp, keeps the layout independent of
// the kernels' block size. Evict-first value loads did not help.
#include <cstddef>
#include <string>
#include <vector>

#include "hsparse/core/error.hpp"
#include "hsparse/core/host_device.hpp"
#include "hsparse/formats/dia.hpp"
#include "hsparse/formats/padding.hpp"

namespace hsparse {

inline constexpr int kDiaTileRows = 32;

/// Rows rounded up to whole tiles.
HSPARSE_HOST_DEVICE inline long long dia_tiled_rows(long long rows) { return (rows + kDiaTileRows - 1) / kDiaTileRows * kDiaTileRows; }

/// Where row r's slot of diagonal d lies among `diagonals` diagonals.
HSPARSE_HOST_DEVICE inline long long dia_tiled_slot(long long r, long long d, long long diagonals) {
  return ((r / kDiaTileRows) * diagonals + d) * kDiaTileRows + r % kDiaTileRows;
}

/// Row r's sum over tiled DIA values without the padded slots
/// (formats/padding.hpp): what a kernel recomputes for a row whose sum is
/// not finite. `values` and `x` in the caller's memory (device pointers in
/// a kernel).
template <class D, class I>
HSPARSE_HOST_DEVICE inline D dia_tiled_row_without_padding(long long r, I cols, int diagonals, const I* offsets, const D* values, const D* x) {
  D sum(0);
  for (int d = 0; d < diagonals; ++d) {
    const long long c = r + static_cast<long long>(offsets[d]);
    if (c >= 0 && c < cols) sum += entry_product(values[dia_tiled_slot(r, d, diagonals)], x[c]);
  }
  return sum;
}

/// a's values (one array per diagonal) in the tiled order, padding zero.
template <class V, class I>
std::vector<V> dia_tiled_values(const Dia<V, I>& a) {
  const long long rows = a.rows, diagonals = static_cast<long long>(a.offsets.size());
  if (a.values.size() != static_cast<std::size_t>(rows * diagonals)) {
    throw Error(ErrorCode::invalid_matrix, "DIA tiles: " + std::to_string(a.values.size()) + " values for " + std::to_string(diagonals) +
                                               " diagonals of " + std::to_string(rows) + " rows");
  }
  std::vector<V> tiled(static_cast<std::size_t>(dia_tiled_rows(rows) * diagonals), V(0));
  for (long long d = 0; d < diagonals; ++d) {
    for (long long r = 0; r < rows; ++r) tiled[static_cast<std::size_t>(dia_tiled_slot(r, d, diagonals))] = a.values[static_cast<std::size_t>(d * rows + r)];
  }
  return tiled;
}

}  // namespace hsparse
