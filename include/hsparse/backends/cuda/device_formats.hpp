#pragma once
// Every format moved to the GPU keeps its layout (formats/*.hpp): the device
// structs hold the same arrays as DeviceArrays, uploaded once.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/formats/bcsr.hpp"
#include "hsparse/formats/coo.hpp"
#include "hsparse/formats/csr16.hpp"
#include "hsparse/formats/dia.hpp"
#include "hsparse/formats/dia_tiles.hpp"
#include "hsparse/formats/ell.hpp"
#include "hsparse/formats/hyb.hpp"
#include "hsparse/formats/sell_c_sigma.hpp"

namespace hsparse::cuda {

template <class V, class I>
struct DeviceCoo {
  I rows = 0, cols = 0;
  DeviceArray<I> row_idx, col_idx;
  DeviceArray<V> values;
  std::size_t nnz() const { return values.size(); }
  // The segmented kernel needs entries sorted by row: checked here, once.
  static DeviceCoo upload(const Coo<V, I>& a) {
    if (!std::is_sorted(a.row_idx.begin(), a.row_idx.end())) {
      throw Error(ErrorCode::invalid_argument, "DeviceCoo: entries must be sorted by row (canonicalize the COO first)");
    }
    return DeviceCoo{a.rows, a.cols, DeviceArray<I>(a.row_idx), DeviceArray<I>(a.col_idx), DeviceArray<V>(a.values)};
  }
};

template <class V, class I>
struct DeviceEll {
  I rows = 0, cols = 0, padded_rows = 0, width = 0;
  DeviceArray<I> col_idx;
  DeviceArray<V> values;
  static DeviceEll upload(const Ell<V, I>& a) {
    return DeviceEll{a.rows, a.cols, a.padded_rows, a.width, DeviceArray<I>(a.col_idx), DeviceArray<V>(a.values)};
  }
};

template <class V, class I>
struct DeviceHyb {
  DeviceEll<V, I> ell;
  DeviceCoo<V, I> coo;
  static DeviceHyb upload(const Hyb<V, I>& h) { return DeviceHyb{DeviceEll<V, I>::upload(h.ell), DeviceCoo<V, I>::upload(h.coo)}; }
};

template <class V, class I>
struct DeviceCsr16 {
  using value_type = V;  // the stored values (single precision for csr16-single)
  I rows = 0, cols = 0;
  DeviceArray<I> row_ptr, base;
  DeviceArray<std::uint16_t> offset;
  DeviceArray<V> values;
  // The rows spanning 2^16 columns or more, compacted: `wide` holds only the
  // host wide part's rows that have entries (wide->rows of them, same
  // columns), `wide_rows` each one's row in the matrix. A product sums them
  // into a workspace of wide->rows values and adds those to y
  // (csr16_wide_rows.cuh). Run over the host's full-shape part, the wide
  // pass read its row_ptr and read and wrote y for every row, 20 bytes a
  // row for a few wide rows: replicated cage10 ran at 0.86x CSR adaptive.
  std::optional<DeviceCsr<V, I>> wide;
  DeviceArray<I> wide_rows;
  std::size_t narrow_nnz() const { return values.size(); }
  long long wide_row_count() const { return wide ? static_cast<long long>(wide->rows) : 0; }
  // host_wide_row_ptr, when given, receives the wide part's compacted row_ptr (for a schedule over it).
  static DeviceCsr16 upload(const Csr16<V, I>& a, std::vector<I>* host_wide_row_ptr = nullptr) {
    DeviceCsr16 d{a.rows, a.cols, DeviceArray<I>(a.row_ptr), DeviceArray<I>(a.base), DeviceArray<std::uint16_t>(a.offset), DeviceArray<V>(a.values), std::nullopt, {}};
    if (!a.has_wide()) return d;
    std::vector<I> rows, row_ptr{0};
    for (I r = 0; r < a.rows; ++r) {
      const I end = a.wide.row_ptr[static_cast<std::size_t>(r) + 1];
      if (end == a.wide.row_ptr[static_cast<std::size_t>(r)]) continue;
      rows.push_back(r);
      row_ptr.push_back(end);  // the entries stay where they are: only empty rows leave
    }
    d.wide_rows = DeviceArray<I>(rows);
    d.wide = DeviceCsr<V, I>{static_cast<I>(rows.size()), a.cols, DeviceArray<I>(row_ptr), DeviceArray<I>(a.wide.col_idx), DeviceArray<V>(a.wide.values)};
    if (host_wide_row_ptr) *host_wide_row_ptr = std::move(row_ptr);
    return d;
  }
};

template <class V, class I>
struct DeviceDia {
  I rows = 0, cols = 0;
  DeviceArray<I> offsets;
  DeviceArray<V> values;  ///< in tiles of rows (formats/dia_tiles.hpp), not the host's one array per diagonal
  static DeviceDia upload(const Dia<V, I>& a) {
    return DeviceDia{a.rows, a.cols, DeviceArray<I>(a.offsets), DeviceArray<V>(dia_tiled_values(a))};
  }
};

template <class V, class I>
struct DeviceSell {
  I rows = 0, cols = 0;
  int chunk = 32;
  bool permuted_columns = false, identity_order = false;  // identity_order: sigma == 1 (perm unused)
  DeviceArray<I> chunk_ptr, chunk_len, row_len, perm, col_idx;
  DeviceArray<V> values;
  std::size_t nnz = 0;  // true entries (values.size() counts the padding too)
  std::size_t chunks() const { return chunk_len.size(); }
  static DeviceSell upload(const SellCSigma<V, I>& a) {
    return DeviceSell{a.rows, a.cols, a.chunk, a.permuted_columns, a.sigma == 1,
                      DeviceArray<I>(a.chunk_ptr), DeviceArray<I>(a.chunk_len), DeviceArray<I>(a.row_len),
                      DeviceArray<I>(a.perm), DeviceArray<I>(a.col_idx), DeviceArray<V>(a.values), a.nnz};
  }
};

template <class V, class I>
struct DeviceBcsr {
  I rows = 0, cols = 0, block_rows = 0;
  int block = 1;
  std::size_t block_stride = 1;
  DeviceArray<I> row_ptr, col_idx;
  DeviceArray<V> values;
  static DeviceBcsr upload(const Bcsr<V, I>& a) {
    return DeviceBcsr{a.rows, a.cols, a.block_rows, a.block, a.block_stride, DeviceArray<I>(a.row_ptr), DeviceArray<I>(a.col_idx),
                      DeviceArray<V>(a.values)};
  }
};

}  // namespace hsparse::cuda
