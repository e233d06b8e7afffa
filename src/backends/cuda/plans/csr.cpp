// CSR on the GPU: its registration and builder (kernels/spmv_registry.hpp).
// Model: CSR adaptive at 0.95-0.99 of the read bandwidth on the H100
// (0.95), bound at 0.83 of the H200's, x's gathers at 0.89 / 0.85 (H100 /
// H200).
#include "format_plan.hpp"

#include "hsparse/kernels/csr_vector_rows.hpp"

#ifdef HSPARSE_HAVE_CUDA
#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_set>
#include <vector>

#include "hsparse/backends/cuda/csr_spmv.hpp"
#include "hsparse/backends/cuda/device_conversions.hpp"
#include "hsparse/backends/cuda/format_spmv.hpp"
#include "hsparse/backends/cuda/timing.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/kernels/csr_panels.hpp"
#include "hsparse/kernels/csr_slabs.hpp"
#endif

namespace hsparse::cuda {

BackendFormat registration_csr() {
  const KernelParam convert{"convert_on_device", "1: upload the CSR and build this kernel's layout on the GPU; 0: on the host, upload the result", {0, 1}};
  const KernelParam preprocess{"preprocess", "1: cusparseSpMV_preprocess at setup (default); 0: none", {0, 1}};
  return {{{"adaptive", "row blocks by nonzeros, long rows split (Greathouse and Daga, CSR-Adaptive)"},
           {"vector", "a group of coop threads per row, repeat rows per group (Reguly and Giles)", {""},
            {{"coop", "threads per row (default: the fixed rule, backends/cuda/csr_spmv.hpp)", {1, 2, 4, 8, 16, 32}},
             {"repeat", "rows per group of threads (default: the fixed rule)", {}, 1, 1 << 20},
             {"block", "threads per thread block (default: the fixed rule)", {32, 64, 128, 256, 512, 1024}}}},
           {"scalar", "one thread per row"},
           {"merge", "merge-path split (Merrill and Garland)"},
           {"panels", "x in 64 KB column panels staged in shared memory, a block per tile of rows x panel (cache blocking, Nishtala et al.); few, long rows",
            {""}, {convert}},
           {"slabs", "x cut into column slabs of a third of L2, CSR adaptive per slab adding into y (cache blocking for L2); gathers over an x larger than L2",
            {""}, {{"slabs", "column slabs (default: x's bytes over a third of L2, kernels/csr_slabs.hpp)", {}, 1, 64}, convert}},
           {"cusparse-alg1", "cuSPARSE CSR, CUSPARSE_SPMV_CSR_ALG1 (baseline)", {"", "no-preprocess"}, {preprocess}},
           {"cusparse-alg2", "cuSPARSE CSR, CUSPARSE_SPMV_CSR_ALG2 (baseline)", {"", "no-preprocess"}, {preprocess}}},
          {[](int) { return 0.95; }, csr_units, 0, 0, [](int) { return h200_bound(0.83); }, 0.87, nullptr,
           [](double mean_row) { return mean_row >= kCsrVectorLongRow ? kCsrVectorStreamEfficiency : kCsrVectorShortRowEfficiency; }}};
}

#ifdef HSPARSE_HAVE_CUDA

namespace {

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

// What a CSR plan keeps on the device; only the members its kernel uses are filled.
template <class V, class I>
struct CsrStorage {
  std::optional<DeviceCsr<V, I>> csr;
  std::optional<DeviceCsrPanels<V, I>> panels;  // "panels"
  std::vector<DeviceCsr<V, I>> slabs;           // "slabs": one CSR per column slab
  std::vector<CsrAdaptiveSchedule> slab_schedules;
  CsrAdaptiveSchedule adaptive;
  SpmmWorkspace spmm;  // SpMM: CSR's row bins, and the packing buffer of X
  DeviceArray<unsigned char> workspace;
};

// "panels": its own layout of the entries; the CSR itself is never uploaded.
template <class V, class I>
Built<V> build_panels(const Executor& ex, const Csr<V, I>& a, const SpmvOptions& o) {
  auto s = std::make_shared<CsrStorage<V, I>>();
  const PanelShape shape = csr_panel_shape(a.rows, a.cols, static_cast<long long>(a.nnz()), sizeof(V));
  if (convert_on_device(o)) {
    const auto staged = DeviceCsr<V, I>::upload(a);
    s->panels.emplace(csr_panels_from_device_csr(ex, staged, shape));
  } else {
    s->panels.emplace(DeviceCsrPanels<V, I>::upload(csr_panels(a, shape), csr_panels_lanes(shape.entries_per_segment)));
  }
  s->workspace = DeviceArray<unsigned char>(static_cast<std::size_t>(s->panels->segments()) * sizeof(V) + 16);
  const DeviceCsrPanels<V, I>* m = &*s->panels;
  void* w = s->workspace.data();
  const Executor* e = &ex;
  Built<V> b;
  b.apply = [e, m, w](V al, const V* x, V be, V* y) { csr_spmv_panels(*e, al, *m, x, be, y, w); };
  b.description = "-" + std::to_string(m->panels) + "x" + std::to_string(m->panel_cols) + "-rows" + std::to_string(m->tile_rows) + "-lanes" +
                  std::to_string(m->lanes);
  // The entries, their segments, and the partial sums written and read once per product.
  b.bytes = array_bytes(m->segment_ptr) + array_bytes(m->column) + array_bytes(m->values) + 2 * array_bytes(s->workspace);
  b.stored = a.nnz();
  b.storage = s;
  return b;
}

// "slabs": its own layout, one CSR per column slab; the whole CSR never uploaded.
template <class V, class I>
Built<V> build_slabs(const Executor& ex, const Csr<V, I>& a, const SpmvOptions& o) {
  auto s = std::make_shared<CsrStorage<V, I>>();
  const int given = static_cast<int>(kernel_param(o, "slabs", 0));
  const SlabShape shape = csr_slab_shape(a.cols, sizeof(V), static_cast<double>(l2_cache_bytes()), given);
  if (given == 0 && shape.slabs < 2) {
    throw Error(ErrorCode::invalid_argument, "CSR slabs: x (" + std::to_string(static_cast<long long>(a.cols) * sizeof(V) >> 20) +
                                                 " MiB) fits in a third of L2 (" + std::to_string(l2_cache_bytes() >> 20) +
                                                 " MiB): one slab is CSR adaptive (set the parameter slabs to force a count)");
  }
  // The row pointers on the host (the schedules need them), the entries
  // copied on the device from the uploaded CSR unless asked otherwise.
  std::vector<std::vector<I>> row_ptrs;
  if (convert_on_device(o)) {
    row_ptrs = csr_slab_row_ptrs(a, shape);
    s->slabs = csr_slabs_from_device_csr(ex, DeviceCsr<V, I>::upload(a), row_ptrs, shape);
  } else {
    for (Csr<V, I>& part : csr_slabs(a, shape)) {
      s->slabs.push_back(DeviceCsr<V, I>::upload(part));
      row_ptrs.push_back(std::move(part.row_ptr));
    }
  }
  std::size_t workspace = 0;
  for (const std::vector<I>& row_ptr : row_ptrs) {
    s->slab_schedules.push_back(csr_adaptive_schedule(std::span<const I>(row_ptr)));
    // Every slab streams its entries evict-first, so its x slab keeps L2:
    // on the H100 (random, 10 M rows) 178.9 GFLOP/s against 171.8 with
    // plain loads at 5 slabs, 180.3 against 165.0 at 4, 160.2 against 137.9 at 3.
    s->slab_schedules.back().evict_first = true;
    workspace = std::max(workspace, s->slab_schedules.back().workspace_bytes(sizeof(V)));
  }
  s->workspace = DeviceArray<unsigned char>(workspace);  // the slabs run one after another on the stream
  const auto* slabs = &s->slabs;
  const auto* scheds = &s->slab_schedules;
  void* w = s->workspace.data();
  const Executor* e = &ex;
  Built<V> b;
  // y = alpha A_0 x + beta y, then y += alpha A_s x per slab (beta 0 leaves y unread in the first).
  b.apply = [e, slabs, scheds, w](V al, const V* x, V be, V* y) {
    for (std::size_t k = 0; k < slabs->size(); ++k) csr_spmv_adaptive(*e, al, (*slabs)[k], x, k == 0 ? be : V(1), y, (*scheds)[k], w);
  };
  b.description = "-" + std::to_string(shape.slabs) + "x" + std::to_string(shape.slab_cols);
  // Every slab's entries and row pointers, and y read and written once more per slab after the first.
  for (const auto& slab : s->slabs) b.bytes += array_bytes(slab.row_ptr) + array_bytes(slab.col_idx) + array_bytes(slab.values);
  if (s->slabs.size() > 1) b.bytes += 2 * (s->slabs.size() - 1) * static_cast<std::size_t>(a.rows) * sizeof(V);
  b.stored = a.nnz();
  b.storage = s;
  return b;
}

}  // namespace

template <class V, class I>
Built<V> build_csr(const Executor& ex, const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
  if (kernel == "panels") return build_panels(ex, a, o);
  if (kernel == "slabs") return build_slabs(ex, a, o);
  auto s = std::make_shared<CsrStorage<V, I>>();
  s->csr.emplace(DeviceCsr<V, I>::upload(a));
  const DeviceCsr<V, I>* m = &*s->csr;
  const Executor* e = &ex;
  Built<V> b;
  b.bytes = array_bytes(m->row_ptr) + array_bytes(m->col_idx) + array_bytes(m->values);
  b.stored = a.nnz();
  if (kernel.rfind("cusparse", 0) == 0) {  // the baselines go column by column for SpMM
    const bool preprocess = kernel_param(o, "preprocess", 1) != 0;
    use_cusparse(b, s, std::make_unique<CusparseSpmv<V, I>>(ex, *m, kernel == "cusparse-alg2" ? CusparseAlgorithm::csr_alg2 : CusparseAlgorithm::csr_alg1,
                                                             preprocess));
    if (!preprocess) b.description = "-no-preprocess";
    return b;
  }
  // hsparse's CSR kernels: our SpMM.
  s->spmm = spmm_workspace(std::span<const I>(a.row_ptr));
  SpmmWorkspace* w_spmm = &s->spmm;  // the plan's own: a product may grow its packing buffer
  b.apply_block = [e, m, w_spmm](V al, const ConstDenseView<V>& x, V be, const DenseView<V>& y) { csr_spmm(*e, al, *m, *w_spmm, x, be, y); };
  if (kernel == "scalar") {
    b.apply = [e, m](V al, const V* x, V be, V* y) { csr_spmv_scalar(*e, al, *m, x, be, y); };
  } else if (kernel == "vector") {
    CsrVectorParams p = csr_vector_fixed_rule(a.rows, static_cast<long long>(a.nnz()), ex.shape());
    p.coop = static_cast<int>(kernel_param(o, "coop", p.coop));
    p.repeat = static_cast<int>(kernel_param(o, "repeat", p.repeat));
    p.block_size = static_cast<int>(kernel_param(o, "block", p.block_size));
    b.apply = [e, m, p](V al, const V* x, V be, V* y) { csr_spmv_vector(*e, al, *m, x, be, y, p); };
    b.description = "-coop" + std::to_string(p.coop) + "-repeat" + std::to_string(p.repeat) + "-block" + std::to_string(p.block_size);
  } else if (kernel == "merge") {
    s->workspace = DeviceArray<unsigned char>(csr_merge_workspace_bytes(a.rows, static_cast<long long>(a.nnz()), sizeof(V)));
    void* w = s->workspace.data();
    csr_merge_prepare(*e, *m, w);  // the tiles' corners, once
    b.apply = [e, m, w](V al, const V* x, V be, V* y) { csr_spmv_merge(*e, al, *m, x, be, y, w); };
  } else {  // adaptive
    s->adaptive = csr_adaptive_schedule(std::span<const I>(a.row_ptr));
    s->adaptive.evict_first = gathers_far_columns(a, static_cast<double>(l2_cache_bytes()));
    if (s->adaptive.evict_first) b.description += "-evict-first";
    s->workspace = DeviceArray<unsigned char>(s->adaptive.workspace_bytes(sizeof(V)));
    const CsrAdaptiveSchedule* sched = &s->adaptive;
    void* w = s->workspace.data();
    b.apply = [e, m, sched, w](V al, const V* x, V be, V* y) { csr_spmv_adaptive(*e, al, *m, x, be, y, *sched, w); };
    if (s->adaptive.long_row_count > 0) b.description += "-split" + std::to_string(s->adaptive.long_row_count);
  }
  b.storage = s;
  return b;
}

#define HSPARSE_INSTANTIATE(V, I) template Built<V> build_csr(const Executor&, const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

#endif  // HSPARSE_HAVE_CUDA

}  // namespace hsparse::cuda
