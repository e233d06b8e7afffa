// The CUDA backend's plan builder (plans/spmv_plan.hpp): COO, ELL, HYB, DIA,
// BCSR, SELL and CSR16 are converted on the GPU after uploading the CSR
// (convert_on_device; each falls back to the host where its own limits say,
// below), the other formats on the host by the CPU's conversions, then uploaded. One
// case per format in a switch without a default (-Werror=switch).
#include "../common/spmv_plan_builders.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "hsparse/backends/cuda/cusparse_spmv.hpp"
#include "hsparse/backends/cuda/device_conversions.hpp"
#include "hsparse/backends/cuda/format_spmv.hpp"
#include "hsparse/backends/cuda/l2_window.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/formats/format_storage.hpp"
#include "hsparse/kernels/csr_slabs.hpp"
#include "hsparse/kernels/spmv_registry.hpp"
#include "hsparse/backends/cuda/timing.hpp"

namespace hsparse::cuda {

namespace {

// Whether a conversion on the device, peaking at peak_bytes (the staged CSR
// and the converted arrays together), is taken: where it fits in half the
// free memory, so the plan's other arrays and the caller's vectors still
// fit; else the host converts and uploads only the result (SELL, DIA, CSR16).
bool device_conversion_fits(double peak_bytes) { return peak_bytes < 0.5 * static_cast<double>(free_device_memory()); }

// Whether CSR adaptive should load its entries evict-first
// (CsrAdaptiveSchedule::evict_first), so that x's lines outlive the
// streaming matrix in L2. Where x is larger than a quarter of L2, a sample
// of 4096 entries of the short rows (long rows take their own path) asks
// whether their gathers spread far from the diagonal: more than 1 in 32
// lie more than kReuseColumns columns from it, and those far entries touch
// many distinct x lines (more than a quarter of them), not a few hot
// columns. A sample, not the advisor's alpha (rhs_reuse_alpha): that cost
// 50-110 ms per plan on the suite's irregular matrices (H100 host)
// and ranked the 27-point stencil's three planes as
// re-gathers, where plain loads are 2% faster.
// Measured on the H200 (docs/results/2026-11-27-csr-slabs-h100-h200, evict-first
// against plain loads): random 3 M rows +10%, power law 2 M rows +5.5%
// (its columns a quarter u^3-skewed), power law 4 M rows +0.6%; circuit 3
// M rows -3.4%: its far entries in short rows are its few hub columns,
// hot in any cache. With this rule (H200): circuit n = 1e7
// takes plain loads, 361.4-363.1 GFLOP/s against 343.4-345.4 evict-first;
// circuit 3 M 316.2-320.1 against 304.6-307.7; the 2 M-row power law takes
// evict-first, 261.2-264.6 against 249.4-250.4. Before, "far" meant beyond
// a quarter of L2's worth of columns, all entries counted: that missed the
// 2 M-row power law (its 2 M columns all lie within it) and took the
// circuit (its hub rows' random columns).
template <class V, class I>
bool gathers_far_columns(const Csr<V, I>& a, double cache_bytes) {
  constexpr long long kReuseColumns = 65536;  // beyond the stencil, FEM and replicated matrices' reach (24181 at most in the suite)
  const std::size_t nnz = a.nnz();
  if (nnz == 0 || static_cast<double>(a.cols) * sizeof(V) <= cache_bytes / 4) return false;  // x stays in L2 anyway
  constexpr std::size_t kSamples = 4096;
  const long long values_per_line = static_cast<long long>(std::max<std::size_t>(1, 64 / sizeof(V)));
  std::size_t sampled = 0, far = 0;
  std::unordered_set<long long> far_lines;
  for (std::size_t s = 0; s < kSamples; ++s) {
    const std::size_t k = nnz * s / kSamples;
    // The row holding entry k, by bisection: a walk over every row pointer
    // cost the setup 2-6 ms on 7.6 M rows (2-core build VM).
    const std::size_t row = static_cast<std::size_t>(std::upper_bound(a.row_ptr.begin(), a.row_ptr.end(), static_cast<I>(k)) - a.row_ptr.begin()) - 1;
    if (a.row_ptr[row + 1] - a.row_ptr[row] > static_cast<I>(kAdaptiveBlockNnz)) continue;  // a long row
    ++sampled;
    const long long c = static_cast<long long>(a.col_idx[k]);
    if (std::abs(c - static_cast<long long>(row)) > kReuseColumns) {
      ++far;
      far_lines.insert(c / values_per_line);
    }
  }
  return far * 32 > sampled && far_lines.size() * 4 > far;
}

// Everything the plan keeps on the device; only the members its format uses are filled.
template <class V, class I>
struct Storage {
  std::optional<DeviceCsr<V, I>> csr;
  std::optional<DeviceCoo<V, I>> coo;
  std::optional<DeviceEll<V, I>> ell;
  std::optional<DeviceHyb<V, I>> hyb;
  std::optional<DeviceDia<V, I>> dia;
  std::optional<DeviceSell<V, I>> sell;
  std::optional<DeviceBcsr<V, I>> bcsr;
  std::optional<DeviceCsrPanels<V, I>> panels;  // CSR "panels"
  std::vector<DeviceCsr<V, I>> slabs;           // CSR "slabs": one CSR per column slab
  std::vector<CsrAdaptiveSchedule> slab_schedules;
  std::optional<DeviceCsr16<V, I>> csr16;
  std::optional<DeviceCsr16<single_t<V>, I>> csr16_single;
  std::unique_ptr<CusparseSpmv<V, I>> cusparse;
  CsrAdaptiveSchedule adaptive;
  Csr16AdaptiveSchedules csr16_adaptive;
  DiaWindows dia_x_windows;  // DIA "staged": x's windows per block
  SpmmWorkspace spmm;  // SpMM: CSR's row bins, and the packing buffer of X
  DeviceArray<unsigned char> workspace;
  std::unique_ptr<L2SetAside> l2_set_aside;  // x kept in L2: held while the plan lives
};

}  // namespace

template <class V, class I>
SpmvParts<V> build_spmv_plan(const Executor& ex, const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
  FormatOptions layout = o.layout;
  layout.row_alignment = 32;  // ELL and HYB: a warp's rows share each slot column
  // SELL on the GPU: C = 32 (a warp per chunk, the SELL-C-sigma paper's C =
  // the SIMD width) and no sorting unless asked (the handle tunes sigma).
  if (layout.chunk <= 0) layout.chunk = 32;
  if (layout.sigma <= 0) layout.sigma = 1;
  auto storage = std::make_shared<Storage<V, I>>();
  Storage<V, I>& s = *storage;
  std::function<void(V, const V*, V, V*)> apply_;
  std::function<void(V, const ConstDenseView<V>&, V, const DenseView<V>&)> apply_block;
  const Executor* e = &ex;
  std::string desc = std::string(to_string(*o.format)) + "/" + kernel;
  auto use_cusparse = [&](std::unique_ptr<CusparseSpmv<V, I>> baseline) {
    s.cusparse = std::move(baseline);
    const CusparseSpmv<V, I>* c = s.cusparse.get();
    apply_ = [c](V al, const V* x, V be, V* y) { c->apply(al, x, be, y); };
  };
  switch (*o.format) {
  case Format::csr: {
    if (kernel == "panels") {  // its own layout of the entries: the CSR itself is never uploaded
      const PanelShape shape = csr_panel_shape(a.rows, a.cols, static_cast<long long>(a.nnz()), sizeof(V));
      if (o.convert_on_device) {
        const auto staged = DeviceCsr<V, I>::upload(a);
        s.panels.emplace(csr_panels_from_device_csr(ex, staged, shape));
      } else {
        s.panels.emplace(DeviceCsrPanels<V, I>::upload(csr_panels(a, shape), csr_panels_lanes(shape.entries_per_segment)));
      }
      s.workspace = DeviceArray<unsigned char>(static_cast<std::size_t>(s.panels->segments()) * sizeof(V) + 16);
      const DeviceCsrPanels<V, I>* m = &*s.panels;
      void* w = s.workspace.data();
      apply_ = [e, m, w](V al, const V* x, V be, V* y) { csr_spmv_panels(*e, al, *m, x, be, y, w); };
      desc += "-" + std::to_string(m->panels) + "x" + std::to_string(m->panel_cols) + "-rows" + std::to_string(m->tile_rows) + "-lanes" +
              std::to_string(m->lanes);
      break;
    }
    if (kernel == "slabs") {  // its own layout: one CSR per column slab, the whole CSR never uploaded
      const SlabShape shape = csr_slab_shape(a.cols, sizeof(V), static_cast<double>(l2_cache_bytes()), o.slabs);
      if (o.slabs == 0 && shape.slabs < 2) {
        throw Error(ErrorCode::invalid_argument, "CSR slabs: x (" + std::to_string(static_cast<long long>(a.cols) * sizeof(V) >> 20) +
                                                     " MiB) fits in a third of L2 (" + std::to_string(l2_cache_bytes() >> 20) +
                                                     " MiB): one slab is CSR adaptive (pass slabs explicitly to force a count)");
      }
      // The row pointers on the host (the schedules need them), the entries
      // copied on the device from the uploaded CSR unless asked otherwise.
      std::vector<std::vector<I>> row_ptrs;
      if (o.convert_on_device) {
        row_ptrs = csr_slab_row_ptrs(a, shape);
        s.slabs = csr_slabs_from_device_csr(ex, DeviceCsr<V, I>::upload(a), row_ptrs, shape);
      } else {
        for (Csr<V, I>& part : csr_slabs(a, shape)) {
          s.slabs.push_back(DeviceCsr<V, I>::upload(part));
          row_ptrs.push_back(std::move(part.row_ptr));
        }
      }
      std::size_t workspace = 0;
      for (const std::vector<I>& row_ptr : row_ptrs) {
        s.slab_schedules.push_back(csr_adaptive_schedule(std::span<const I>(row_ptr)));
        // Every slab streams its entries evict-first, so its x slab keeps L2:
        // on the H100 (random, 10 M rows) 178.9 GFLOP/s against 171.8 with
        // plain loads at 5 slabs, 180.3 against 165.0 at 4, 160.2 against 137.9 at 3.
        s.slab_schedules.back().evict_first = true;
        workspace = std::max(workspace, s.slab_schedules.back().workspace_bytes(sizeof(V)));
      }
      s.workspace = DeviceArray<unsigned char>(workspace);  // the slabs run one after another on the stream
      const auto* slabs = &s.slabs;
      const auto* scheds = &s.slab_schedules;
      void* w = s.workspace.data();
      // y = alpha A_0 x + beta y, then y += alpha A_s x per slab (beta 0 leaves y unread in the first).
      apply_ = [e, slabs, scheds, w](V al, const V* x, V be, V* y) {
        for (std::size_t k = 0; k < slabs->size(); ++k) csr_spmv_adaptive(*e, al, (*slabs)[k], x, k == 0 ? be : V(1), y, (*scheds)[k], w);
      };
      desc += "-" + std::to_string(shape.slabs) + "x" + std::to_string(shape.slab_cols);
      break;
    }
    s.csr.emplace(DeviceCsr<V, I>::upload(a));
    const DeviceCsr<V, I>* m = &*s.csr;
    if (kernel.rfind("cusparse", 0) != 0) {  // hsparse's CSR kernels: our SpMM (cuSPARSE's baselines go column by column)
      s.spmm = spmm_workspace(std::span<const I>(a.row_ptr));
      SpmmWorkspace* w = &s.spmm;  // the plan's own: a product may grow its packing buffer
      apply_block = [e, m, w](V al, const ConstDenseView<V>& x, V be, const DenseView<V>& y) { csr_spmm(*e, al, *m, *w, x, be, y); };
    }
    if (kernel == "scalar") {
      apply_ = [e, m](V al, const V* x, V be, V* y) { csr_spmv_scalar(*e, al, *m, x, be, y); };
    } else if (kernel == "vector") {
      CsrVectorParams p = csr_vector_fixed_rule(a.rows, static_cast<long long>(a.nnz()), ex.shape());
      if (o.vector.coop > 0) p.coop = o.vector.coop;
      if (o.vector.repeat > 0) p.repeat = o.vector.repeat;
      if (o.vector.block_size > 0) p.block_size = o.vector.block_size;
      apply_ = [e, m, p](V al, const V* x, V be, V* y) { csr_spmv_vector(*e, al, *m, x, be, y, p); };
      desc += "-coop" + std::to_string(p.coop) + "-repeat" + std::to_string(p.repeat) + "-block" + std::to_string(p.block_size);
    } else if (kernel == "merge") {
      s.workspace = DeviceArray<unsigned char>(csr_merge_workspace_bytes(a.rows, static_cast<long long>(a.nnz()), sizeof(V)));
      void* w = s.workspace.data();
      csr_merge_prepare(*e, *m, w);  // the tiles' corners, once
      apply_ = [e, m, w](V al, const V* x, V be, V* y) { csr_spmv_merge(*e, al, *m, x, be, y, w); };
    } else if (kernel == "adaptive") {
      s.adaptive = csr_adaptive_schedule(std::span<const I>(a.row_ptr));
      s.adaptive.evict_first = gathers_far_columns(a, static_cast<double>(l2_cache_bytes()));
      if (s.adaptive.evict_first) desc += "-evict-first";
      s.workspace = DeviceArray<unsigned char>(s.adaptive.workspace_bytes(sizeof(V)));
      const CsrAdaptiveSchedule* sched = &s.adaptive;
      void* w = s.workspace.data();
      apply_ = [e, m, sched, w](V al, const V* x, V be, V* y) { csr_spmv_adaptive(*e, al, *m, x, be, y, *sched, w); };
      if (s.adaptive.long_row_count > 0) desc += "-split" + std::to_string(s.adaptive.long_row_count);
    } else {
      use_cusparse(std::make_unique<CusparseSpmv<V, I>>(
          ex, *m, kernel == "cusparse-alg2" ? CusparseAlgorithm::csr_alg2 : CusparseAlgorithm::csr_alg1, o.cusparse_preprocess));
      if (!o.cusparse_preprocess) desc += "-no-preprocess";
    }
    break;
  }
  case Format::coo: {
    if (o.convert_on_device) {
      const auto staged = DeviceCsr<V, I>::upload(a);
      s.coo.emplace(coo_from_device_csr(ex, staged));
      ex.synchronize();
    } else {
      s.coo.emplace(DeviceCoo<V, I>::upload(csr_to_coo(a)));
    }
    const DeviceCoo<V, I>* m = &*s.coo;
    if (kernel == "cusparse") {
      use_cusparse(std::make_unique<CusparseSpmv<V, I>>(ex, *m));
    } else {
      s.workspace = DeviceArray<unsigned char>(coo_workspace_bytes(a.nnz(), sizeof(V)));
      void* w = s.workspace.data();
      apply_ = [e, m, w](V al, const V* x, V be, V* y) { coo_spmv_segmented(*e, al, *m, x, be, y, w); };
    }
    break;
  }
  case Format::ell: {
    const double max_fill = fill_limit(Format::ell, layout);
    if (o.convert_on_device) {
      const auto staged = DeviceCsr<V, I>::upload(a);
      s.ell.emplace(ell_from_device_csr(ex, a, staged, I(32), max_fill));
    } else {
      s.ell.emplace(DeviceEll<V, I>::upload(FormatStorage<Format::ell>::from_csr(a, layout)));
    }
    const DeviceEll<V, I>* m = &*s.ell;
    const int rows_per_thread = kernel == "thread2" ? 2 : 1;
    apply_ = [e, m, rows_per_thread](V al, const V* x, V be, V* y) { ell_spmv(*e, al, *m, x, be, y, rows_per_thread); };
    break;
  }
  case Format::hyb: {
    std::optional<I> width;
    if (layout.hyb_width) width = static_cast<I>(*layout.hyb_width);
    if (o.convert_on_device) {
      const auto staged = DeviceCsr<V, I>::upload(a);
      s.hyb.emplace(hyb_from_device_csr(ex, a, staged, width, I(32)));
    } else {
      s.hyb.emplace(DeviceHyb<V, I>::upload(FormatStorage<Format::hyb>::from_csr(a, layout)));
    }
    s.workspace = DeviceArray<unsigned char>(coo_workspace_bytes(s.hyb->coo.nnz(), sizeof(V)));
    const DeviceHyb<V, I>* m = &*s.hyb;
    void* w = s.workspace.data();
    apply_ = [e, m, w](V al, const V* x, V be, V* y) { hyb_spmv(*e, al, *m, x, be, y, w); };
    desc += "-width" + std::to_string(s.hyb->ell.width);
    break;
  }
  case Format::dia: {
    // On the device where the staged CSR, the diagonal index (rows + cols)
    // and the tiled DIA fit in half the free memory together, as SELL and
    // CSR16. The DIA's slots are bounded without a pass over the entries:
    // at most the fill limit times the entries (dia_offsets refuses more)
    // and at most every diagonal, plus the last tile's padding.
    const auto dia_device_peak = [&] {
      const double rows = static_cast<double>(a.rows), cols = static_cast<double>(a.cols);
      const double diagonals = std::min(fill_limit(Format::dia, layout) * static_cast<double>(a.nnz()) / std::max(rows, 1.0),
                                        std::max(0.0, rows + cols - 1));
      const double slots = std::ceil(diagonals) * static_cast<double>(dia_tiled_rows(a.rows));
      return static_cast<double>(a.nnz()) * (sizeof(I) + sizeof(V)) + (rows + 1) * sizeof(I) + (rows + cols) * sizeof(I) + slots * sizeof(V);
    };
    if (o.convert_on_device && device_conversion_fits(dia_device_peak())) {
      const auto staged = DeviceCsr<V, I>::upload(a);
      s.dia.emplace(dia_from_device_csr(ex, a, staged, fill_limit(Format::dia, layout)));
    } else {
      s.dia.emplace(DeviceDia<V, I>::upload(FormatStorage<Format::dia>::from_csr(a, layout)));
    }
    const DeviceDia<V, I>* m = &*s.dia;
    if (kernel == "staged") {
      const std::vector<I> offsets = s.dia->offsets.download();
      s.dia_x_windows = dia_windows(std::span<const I>(offsets), sizeof(V));
      const DiaWindows* w = &s.dia_x_windows;
      apply_ = [e, m, w](V al, const V* x, V be, V* y) { dia_spmv_staged(*e, al, *m, *w, x, be, y); };
    } else {
      apply_ = [e, m](V al, const V* x, V be, V* y) { dia_spmv(*e, al, *m, x, be, y); };
    }
    break;
  }
  case Format::bcsr: {
    // cuSPARSE's BSR takes block sizes from 2: its default is the fewest-bytes block among 2..8.
    int block = layout.block;
    if (block <= 0) {
      block = best_bcsr_block(a);
      if (kernel == "cusparse" && block < 2) {
        block = 2;
        for (int b = 3; b <= 8; ++b) block = bcsr_fill(a, b).bytes < bcsr_fill(a, block).bytes ? b : block;
      }
    }
    layout.block = block;
    if (o.convert_on_device) {
      const auto staged = DeviceCsr<V, I>::upload(a);
      s.bcsr.emplace(bcsr_from_device_csr(ex, a, staged, block, layout.align_blocks, fill_limit(Format::bcsr, layout)));
    } else {
      s.bcsr.emplace(DeviceBcsr<V, I>::upload(FormatStorage<Format::bcsr>::from_csr(a, layout)));
    }
    // auto: by-column below block size 16 (measured on the H200, bs = 3: 670
    // GFLOP/s against by-block's 606 and row-per-thread's 152; bs = 1: 196
    // against 217 for by-block, a choice the tuner should avoid anyway), and
    // row-per-thread from 16 up, where Eberhardt and Hoemmen find it best.
    // by-column is compiled for 1-6, 8, 16, 32: other sizes under 16 take row-per-thread.
    const bool by_column_compiled = block <= 6 || block == 8;
    const BcsrAlgorithm algorithm = kernel == "by-block"                     ? BcsrAlgorithm::by_block
                                    : kernel == "by-column"                  ? BcsrAlgorithm::by_column
                                    : kernel == "row-per-thread"             ? BcsrAlgorithm::row_per_thread
                                    : block < 16 && by_column_compiled ? BcsrAlgorithm::by_column
                                                                             : BcsrAlgorithm::row_per_thread;
    // Refuse here, not at the first product, what the kernels cannot run.
    if (algorithm == BcsrAlgorithm::by_block && block > 5) {
      throw Error(ErrorCode::invalid_argument, "BCSR by-block handles block sizes up to 5 (Eberhardt and Hoemmen), not " + std::to_string(block));
    }
    if (algorithm == BcsrAlgorithm::by_column && !(by_column_compiled || block == 16 || block == 32)) {
      throw Error(ErrorCode::invalid_argument, "BCSR by-column is compiled for block sizes 1-6, 8, 16 and 32, not " + std::to_string(block));
    }
    if (o.bcsr_lanes != 0 && o.bcsr_lanes != 4 && o.bcsr_lanes != 8 && o.bcsr_lanes != 16 && o.bcsr_lanes != 32) {
      throw Error(ErrorCode::invalid_argument, "BCSR by-column: lanes per block row must be 4, 8, 16 or 32 (0: chosen), not " +
                                                   std::to_string(o.bcsr_lanes));
    }
    const DeviceBcsr<V, I>* m = &*s.bcsr;
    desc += "-b" + std::to_string(block);
    const int lanes = o.bcsr_lanes > 0 ? o.bcsr_lanes
                                       : bcsr_by_column_lanes(static_cast<long long>(m->col_idx.size()), m->block_rows, block);
    if (kernel != "cusparse" && algorithm == BcsrAlgorithm::by_column && lanes != 32) desc += "-lanes" + std::to_string(lanes);
    if (kernel == "cusparse") {
      use_cusparse(std::make_unique<CusparseSpmv<V, I>>(ex, *m));
    } else {
      apply_ = [e, m, algorithm, lanes](V al, const V* x, V be, V* y) { bcsr_spmv(*e, algorithm, al, *m, x, be, y, lanes); };
      SpmmWorkspace* w = &s.spmm;
      apply_block = [e, m, w](V al, const ConstDenseView<V>& x, V be, const DenseView<V>& y) { bcsr_spmm(*e, al, *m, *w, x, be, y); };
    }
    break;
  }
  case Format::sell: {
    // On the device where the staged CSR and the padded SELL fit in half the
    // free memory together, else converted on the host (its layout is the
    // same: sell_layout).
    std::optional<SellCSigma<V, I>> sell_shape;
    if (o.convert_on_device) sell_shape = sell_layout(a, SellOptions{layout.chunk, layout.sigma, false});
    const auto device_peak = [&] {
      return static_cast<double>(a.nnz()) * (sizeof(I) + sizeof(V)) + static_cast<double>(a.rows + 1) * sizeof(I) +
             static_cast<double>(sell_shape->chunk_ptr.back()) * (sizeof(I) + sizeof(V)) +
             static_cast<double>(sell_shape->perm.size() + sell_shape->row_len.size() + 2 * sell_shape->chunk_len.size() + 1) * sizeof(I);
    };
    if (sell_shape && device_conversion_fits(device_peak())) {
      s.sell.emplace(sell_from_device_csr(ex, std::move(*sell_shape), DeviceCsr<V, I>::upload(a)));
    } else {
      s.sell.emplace(DeviceSell<V, I>::upload(FormatStorage<Format::sell>::from_csr(a, layout)));
    }
    const DeviceSell<V, I>* m = &*s.sell;
    const int T = o.threads_per_row;
    if (kernel != "cusparse") {  // our SpMM for both of our kernels (cuSPARSE's baseline goes column by column)
      SpmmWorkspace* w = &s.spmm;
      apply_block = [e, m, w](V al, const ConstDenseView<V>& x, V be, const DenseView<V>& y) { sell_spmm(*e, al, *m, *w, x, be, y); };
    }
    if (kernel == "cusparse") {
      use_cusparse(std::make_unique<CusparseSpmv<V, I>>(ex, *m));
    } else if (kernel == "threads") {
      apply_ = [e, m, T](V al, const V* x, V be, V* y) { sell_spmv_threads_per_row(*e, al, *m, x, be, y, T); };
      desc += "-T" + std::to_string(T);
    } else {
      apply_ = [e, m](V al, const V* x, V be, V* y) { sell_spmv_thread_per_row(*e, al, *m, x, be, y); };
    }
    desc += "-C" + std::to_string(layout.chunk) + "-sigma" + std::to_string(layout.sigma);
    break;
  }
  case Format::csr16:
  case Format::csr16_single: {
    std::vector<I> wide_row_ptr;  // the wide part's compacted rows (device_formats.hpp)
    // The kernel over the uploaded matrix m, whose narrow part has the row
    // pointers narrow_row_ptr and narrow_nnz entries (`a`'s own when the
    // device converted it: no row is wide then).
    const auto attach = [&](const auto* m, std::span<const I> narrow_row_ptr, long long narrow_nnz, long long wide_nnz) {
      if (kernel == "vector") {
        const CsrVectorParams narrow = csr_vector_fixed_rule(a.rows, narrow_nnz, ex.shape());
        const CsrVectorParams wide = csr_vector_fixed_rule(m->wide_row_count(), wide_nnz, ex.shape());
        s.workspace = DeviceArray<unsigned char>(csr16_vector_workspace_bytes(m->wide_row_count(), sizeof(V)));
        void* w = s.workspace.data();
        apply_ = [e, m, narrow, wide, w](V al, const V* x, V be, V* y) { csr16_spmv_vector(*e, al, *m, x, be, y, narrow, wide, w); };
        desc += "-coop" + std::to_string(narrow.coop);
      } else {
        s.csr16_adaptive.narrow = csr_adaptive_schedule(narrow_row_ptr);
        if (m->wide) s.csr16_adaptive.wide = csr_adaptive_schedule(std::span<const I>(wide_row_ptr));
        s.csr16_adaptive.wide_rows = m->wide_row_count();
        s.workspace = DeviceArray<unsigned char>(s.csr16_adaptive.workspace_bytes(sizeof(V)));
        const Csr16AdaptiveSchedules* sched = &s.csr16_adaptive;
        void* w = s.workspace.data();
        apply_ = [e, m, sched, w](V al, const V* x, V be, V* y) { csr16_spmv_adaptive(*e, al, *m, x, be, y, *sched, w); };
        const long long split = sched->narrow.long_row_count + sched->wide.long_row_count;
        if (split > 0) desc += "-split" + std::to_string(split);
      }
      if (m->wide) desc += "-wide";
    };
    // On the device where it can (csr16_from_device_csr), else on the host.
    // The device path holds the uploaded CSR beside the CSR16 arrays it
    // writes (up to 18 bytes an entry for csr16-single with int32, against
    // the host path's 6), so it is taken only where that fits in half the
    // free memory; it validates `a` as the host conversion does (the
    // offsets of unsorted or out-of-range columns would wrap silently).
    const auto place = [&](auto& slot, const auto& host_conversion) {
      using Stored = typename std::remove_cvref_t<decltype(*slot)>::value_type;
      const double device_peak = static_cast<double>(a.nnz()) * (2 * sizeof(I) + sizeof(V) + sizeof(std::uint16_t) + sizeof(Stored)) +
                                 3.0 * (static_cast<double>(a.rows) + 1) * sizeof(I);
      if (o.convert_on_device && device_conversion_fits(device_peak)) {
        a.validate();
        if (csr16_wide_row_count(a) == 0) {  // checked here too, so that a matrix with wide rows is not uploaded in vain
          if (auto d = csr16_from_device_csr<Stored>(ex, a, DeviceCsr<V, I>::upload(a))) {  // nullopt: values beyond float's range
            slot.emplace(std::move(*d));
            attach(&*slot, std::span<const I>(a.row_ptr), static_cast<long long>(a.nnz()), 0);
            return;
          }
        }
      }
      const auto host = host_conversion();
      slot.emplace(std::remove_cvref_t<decltype(*slot)>::upload(host, &wide_row_ptr));
      attach(&*slot, std::span<const I>(host.row_ptr), static_cast<long long>(host.values.size()), static_cast<long long>(host.wide.nnz()));
    };
    if (*o.format == Format::csr16) place(s.csr16, [&] { return FormatStorage<Format::csr16>::from_csr(a, layout); });
    else place(s.csr16_single, [&] { return FormatStorage<Format::csr16_single>::from_csr(a, layout); });
    break;
  }
  }
  SpmvParts<V> parts;
  auto bytes = [](const auto& array) { return array.size() * sizeof(*array.data()); };
  std::size_t bytes_ = 0, stored_ = a.nnz();
  if (s.csr) bytes_ = bytes(s.csr->row_ptr) + bytes(s.csr->col_idx) + bytes(s.csr->values);
  // Panels: the entries, their segments, and the partial sums written and read once per product.
  if (s.panels) bytes_ = bytes(s.panels->segment_ptr) + bytes(s.panels->column) + bytes(s.panels->values) + 2 * bytes(s.workspace);
  // Slabs: every slab's entries and row pointers, and y read and written once more per slab after the first.
  for (const auto& slab : s.slabs) bytes_ += bytes(slab.row_ptr) + bytes(slab.col_idx) + bytes(slab.values);
  if (s.slabs.size() > 1) bytes_ += 2 * (s.slabs.size() - 1) * static_cast<std::size_t>(a.rows) * sizeof(V);
  if (s.coo) bytes_ = bytes(s.coo->row_idx) + bytes(s.coo->col_idx) + bytes(s.coo->values);
  if (s.ell) {
    bytes_ = bytes(s.ell->col_idx) + bytes(s.ell->values);
    stored_ = s.ell->values.size();
  }
  if (s.hyb) {
    bytes_ = bytes(s.hyb->ell.col_idx) + bytes(s.hyb->ell.values) + bytes(s.hyb->coo.row_idx) + bytes(s.hyb->coo.col_idx) +
             bytes(s.hyb->coo.values);
    stored_ = s.hyb->ell.values.size() + s.hyb->coo.values.size();
  }
  if (s.dia) {
    // The slots of the rows, as the host's Dia counts them: the last tile's
    // padding (formats/dia_tiles.hpp) is never read.
    stored_ = s.dia->offsets.size() * static_cast<std::size_t>(a.rows);
    bytes_ = bytes(s.dia->offsets) + stored_ * sizeof(V);
  }
  if (s.sell) {
    bytes_ = bytes(s.sell->chunk_ptr) + bytes(s.sell->chunk_len) + bytes(s.sell->row_len) + bytes(s.sell->col_idx) +
             bytes(s.sell->values) + (s.sell->identity_order ? 0 : bytes(s.sell->perm));
    stored_ = s.sell->values.size();
  }
  if (s.bcsr) {
    bytes_ = bytes(s.bcsr->row_ptr) + bytes(s.bcsr->col_idx) + bytes(s.bcsr->values);
    stored_ = s.bcsr->values.size();
  }
  const auto csr16_bytes = [&](const auto& m) {
    std::size_t b = bytes(m.row_ptr) + bytes(m.base) + bytes(m.offset) + bytes(m.values);
    // The wide part, and its sums written and read once per product.
    if (m.wide) b += bytes(m.wide->row_ptr) + bytes(m.wide->col_idx) + bytes(m.wide->values) + bytes(m.wide_rows) +
                     2 * static_cast<std::size_t>(m.wide_row_count()) * sizeof(V);
    return b;
  };
  if (s.csr16) bytes_ = csr16_bytes(*s.csr16);
  if (s.csr16_single) bytes_ = csr16_bytes(*s.csr16_single);
  const std::size_t x_bytes = static_cast<std::size_t>(a.cols) * sizeof(V);
  if (!s.cusparse && apply_ && keep_x_in_l2(o.x_in_l2)) {
    desc += " (x in L2)";
    s.l2_set_aside = std::make_unique<L2SetAside>();
    apply_ = [inner = std::move(apply_), e, x_bytes](V al, const V* x, V be, V* y) {
      const ScopedL2Window window(*e, x, x_bytes);
      inner(al, x, be, y);
    };
  }
  parts.apply = std::move(apply_);
  parts.apply_block = std::move(apply_block);
  parts.storage = std::move(storage);
  parts.description = desc;
  parts.bytes = bytes_;
  parts.stored = stored_;
  return parts;
}

#define HSPARSE_INSTANTIATE(V, I) \
  template SpmvParts<V> build_spmv_plan(const Executor&, const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
