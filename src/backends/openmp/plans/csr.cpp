// CSR on the CPU: its registration and builder (kernels/spmv_registry.hpp).
// CSR and SELL stream at the same 0.95 of the read bandwidth, and SELL's
// SIMD gathers move x's traffic beyond one read faster than CSR's scalar
// loads (gather_efficiency: SELL 0.95, CSR 0.80). Best CSR against best
// SELL kernel in two runs (2-core build VM): where x stays cached they run
// alike or CSR ahead (stencil, cage10, bcsstk16, FEM bs = 3 and 6: CSR at
// 0.97-1.07x SELL's GFLOP/s), and only the random matrix's gathers, most of
// its traffic, put SELL ahead (2.36 against 2.78 and 1.32 against 2.38
// GFLOP/s: CSR's gathers at 1/1.18 of SELL's, the smaller gap). SELL at 1.0
// against CSR's 0.95 made `auto` take SELL on the stencil (88% of the best
// at N = 1000) and cage10 (94%).
#include <omp.h>

#include <vector>

#include "format_plan.hpp"

#include "hsparse/core/error.hpp"
#include "hsparse/kernels/csr_panels.hpp"
#include "hsparse/kernels/csr_spmm.hpp"
#include "hsparse/kernels/csr_spmv.hpp"

namespace hsparse::openmp {

BackendFormat registration_csr() {
  return {{{"openmp", "row-parallel, static or guided schedule by eq. (15) of the SELL-C-sigma paper; where most rows differ in length from the one before, the rows sorted by length within windows of 256"},
           {"merge", "merge-path split of rows and nonzeros (Merrill and Garland)"},
           {"panels", "x in 64 KB column panels, threads over tiles of rows, a tile's panels in order (cache blocking, Nishtala et al.); few, long rows"},
           reference_kernel()},
          {[](int) { return 0.95; }, rows, 0, 0, nullptr, 0.80}};
}

template <class V, class I>
Built<V> build_csr(const Csr<V, I>& a, const SpmvOptions&, const std::string& kernel) {
  if (kernel == "panels") {  // its own layout of the entries (kernels/csr_panels.hpp), no CSR copy; SpMM then goes column by column
    const PanelShape shape = csr_panel_shape_for_threads(a.rows, a.cols, static_cast<long long>(a.nnz()), sizeof(V), omp_get_max_threads());
    auto p = std::make_shared<const CsrPanels<V, I>>(csr_panels(a, shape));
    Built<V> c;
    c.matrix = p;
    c.bytes = p->segment_ptr.size() * sizeof(I) + p->column.size() * sizeof(std::uint16_t) + p->values.size() * sizeof(V);
    c.stored = p->values.size();
    c.apply = bind(p, openmp::csr_panels_spmv<V, I>);
    c.kernel = "panels-" + std::to_string(p->panels) + "x" + std::to_string(p->panel_cols) + "-rows" + std::to_string(p->tile_rows);
    return c;
  }
  if (kernel == "openmp" && openmp::sort_rows_by_length(a)) {
    // Most rows differing in length from the one before: the rows sorted by
    // length in windows (kernels/csr_spmv.hpp, CsrSortedRows), in place of
    // the plain copy below.
    auto s = std::make_shared<const openmp::CsrSortedRows<V, I>>(openmp::csr_sorted_rows(a));
    Built<V> b;
    b.matrix = s;
    b.kernel = "sorted";
    b.bytes = FormatStorage<Format::csr>::bytes(s->rows) + s->row_of.size() * sizeof(I);
    b.stored = FormatStorage<Format::csr>::stored(s->rows);
    b.apply = bind(s, openmp::csr_sorted_spmv<V, I>);
    // SpMM: the sorted rows' products into a scratch block, then each row
    // to its place (A still read once per pass of the SpMM kernel).
    b.apply_block = [s](V al, const ConstDenseView<V>& x, V be, const DenseView<V>& y) {
      const long long rows = s->rows.rows, cols = y.cols;
      check_spmv_dimensions(rows, s->rows.cols, static_cast<std::size_t>(x.rows), static_cast<std::size_t>(y.rows));
      if (x.cols != cols) throw Error(ErrorCode::invalid_argument, "SpMM: X has " + std::to_string(x.cols) + " columns, Y " + std::to_string(cols));
      std::vector<V> scratch(static_cast<std::size_t>(rows * cols));
      openmp::csr_spmm<V, I>(al, s->rows, x, V(0), DenseView<V>{scratch.data(), rows, cols, rows});
      const bool read_y = be != V(0);
#pragma omp parallel for schedule(static)
      for (long long i = 0; i < rows; ++i) {
        const long long r = static_cast<long long>(s->row_of[static_cast<std::size_t>(i)]);
        for (long long j = 0; j < cols; ++j) {
          const V v = scratch[static_cast<std::size_t>(i + j * rows)];
          y(r, j) = read_y ? v + be * y(r, j) : v;
        }
      }
    };
    return b;
  }
  auto m = std::make_shared<const Csr<V, I>>(a);
  Built<V> b;
  // SpMM (kernels/csr_spmm.hpp): the reference for the reference kernel, the OpenMP one for the others.
  b.apply_block = [m, reference = kernel == "reference"](V al, const ConstDenseView<V>& x, V be, const DenseView<V>& y) {
    if (reference) reference::csr_spmm<V, I>(al, *m, x, be, y);
    else openmp::csr_spmm<V, I>(al, *m, x, be, y);
  };
  b.matrix = m;
  b.kernel = kernel;
  b.bytes = FormatStorage<Format::csr>::bytes(*m);
  b.stored = FormatStorage<Format::csr>::stored(*m);
  if (kernel == "reference") {
    b.apply = bind(m, reference::csr_spmv<V, I>);
  } else if (kernel == "merge") {
    b.apply = bind(m, openmp::csr_merge_spmv<V, I>);
  } else {
    const auto schedule = openmp::choose_schedule(*m);
    b.apply = [m, schedule](V al, std::span<const V> x, V be, std::span<V> y) { openmp::csr_spmv<V, I>(al, *m, x, be, y, schedule); };
    b.kernel = schedule == openmp::Schedule::static_rows ? "static" : "guided";
  }
  return b;
}

#define HSPARSE_INSTANTIATE(V, I) template Built<V> build_csr(const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
