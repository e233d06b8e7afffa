// CSR cut into tiles of rows x column panels (kernels/csr_panels.hpp).
#include "hsparse/kernels/csr_panels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"

namespace hsparse {

PanelShape csr_panel_shape(long long rows, long long cols, long long nnz, std::size_t value_bytes) {
  PanelShape s;
  s.panel_cols = std::min<long long>(65536, kPanelBytes / static_cast<long long>(value_bytes));
  s.panels = panel_count(cols, s.panel_cols);
  if (rows <= 0 || s.panels == 0) return s;
  s.entries_per_segment = static_cast<double>(nnz) / (static_cast<double>(rows) * static_cast<double>(s.panels));
  const double sectors = static_cast<double>(s.panel_cols * static_cast<long long>(value_bytes)) / 32;
  const double wanted = kPanelReuse * sectors / std::max(s.entries_per_segment, 1e-9);
  long long tile_rows = static_cast<long long>(std::ceil(std::min(wanted, 1e12) / 32)) * 32;
  const long long most = std::max<long long>(rows, 1);
  s.tile_rows = std::clamp<long long>(tile_rows, std::min<long long>(32, most), most);  // 32 rows at least, all of them at most
  return s;
}

PanelShape csr_panel_shape_for_threads(long long rows, long long cols, long long nnz, std::size_t value_bytes, int threads) {
  PanelShape s = csr_panel_shape(rows, cols, nnz, value_bytes);
  const long long per_thread = (rows + 4LL * std::max(threads, 1) - 1) / (4LL * std::max(threads, 1));
  const long long most = std::max<long long>(rows, 1);
  s.tile_rows = std::clamp<long long>(std::min(s.tile_rows, (per_thread + 31) / 32 * 32), std::min<long long>(32, most), most);
  return s;
}

void check_csr_panels(long long rows, long long cols, long long nnz, const PanelShape& shape, long long index_max) {
  if (shape.panel_cols < 1 || shape.panel_cols > 65536 || shape.tile_rows < 1) {
    throw Error(ErrorCode::invalid_argument, "CSR panels: panel_cols must be 1..65536 and tile_rows at least 1");
  }
  const long long panels = panel_count(cols, shape.panel_cols);
  if (rows > 0 && panels > 0 && static_cast<double>(nnz) < kMinPanelSegmentEntries * static_cast<double>(rows) * static_cast<double>(panels)) {
    throw Error(ErrorCode::invalid_argument,
                "CSR panels: " + std::to_string(nnz) + " entries in " + std::to_string(rows) + " rows x " + std::to_string(panels) +
                    " column panels of " + std::to_string(shape.panel_cols) + " columns, fewer than " +
                    std::to_string(static_cast<int>(kMinPanelSegmentEntries)) +
                    " per row and panel: the layout suits few, long rows (short-wide matrices)");
  }
  if (rows * panels >= index_max) {
    throw Error(ErrorCode::overflow, "CSR panels: " + std::to_string(rows * panels) + " segments overflow the index type");
  }
}

template <class V, class I>
CsrPanels<V, I> csr_panels(const Csr<V, I>& a, const PanelShape& shape) {
  check_csr_panels(a.rows, a.cols, static_cast<long long>(a.nnz()), shape, static_cast<long long>(std::numeric_limits<I>::max()));
  CsrPanels<V, I> p;
  p.rows = a.rows;
  p.cols = a.cols;
  p.panel_cols = shape.panel_cols;
  p.tile_rows = shape.tile_rows;
  p.panels = panel_count(a.cols, shape.panel_cols);
  const long long rows = a.rows, nnz = static_cast<long long>(a.nnz());
  const long long segments = p.segments();
  // Each row's entries per panel: counted row by row (columns increase in a row).
  std::vector<I> count(static_cast<std::size_t>(segments) + 1, I(0));
#pragma omp parallel for schedule(static)
  for (long long r = 0; r < rows; ++r) {
    for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) ++count[static_cast<std::size_t>(p.segment(r, a.col_idx[k] / shape.panel_cols))];
  }
  p.segment_ptr.assign(static_cast<std::size_t>(segments) + 1, I(0));
  for (long long s = 0; s < segments; ++s) p.segment_ptr[s + 1] = p.segment_ptr[s] + count[s];  // nnz fits I, so every prefix does
  std::vector<I>().swap(count);
  p.column.resize(static_cast<std::size_t>(nnz));
  p.values.resize(static_cast<std::size_t>(nnz));
#pragma omp parallel for schedule(static)
  for (long long r = 0; r < rows; ++r) {
    long long panel = -1, next = 0;
    for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const long long q = a.col_idx[k] / shape.panel_cols;
      if (q != panel) {
        panel = q;
        next = p.segment_ptr[static_cast<std::size_t>(p.segment(r, q))];
      }
      p.column[static_cast<std::size_t>(next)] = static_cast<std::uint16_t>(a.col_idx[k] - q * shape.panel_cols);
      p.values[static_cast<std::size_t>(next)] = a.values[k];
      ++next;
    }
  }
  return p;
}

template <class V, class I>
void csr_panels_spmv_reference(V alpha, const CsrPanels<V, I>& a, const V* x, V beta, V* y) {
  for (long long r = 0; r < a.rows; ++r) {
    V sum(0);
    for (long long q = 0; q < a.panels; ++q) {
      const long long s = a.segment(r, q);
      for (I k = a.segment_ptr[s]; k < a.segment_ptr[s + 1]; ++k) sum += a.values[k] * x[q * a.panel_cols + a.column[k]];
    }
    y[r] = beta == V(0) ? alpha * sum : alpha * sum + beta * y[r];
  }
}

#define HSPARSE_INSTANTIATE(V, I)                                              \
  template CsrPanels<V, I> csr_panels(const Csr<V, I>&, const PanelShape&); \
  template void csr_panels_spmv_reference(V, const CsrPanels<V, I>&, const V*, V, V*);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
