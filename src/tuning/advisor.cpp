#include "hsparse/tuning/advisor.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "hsparse/formats/footprint.hpp"
#include "hsparse/formats/format.hpp"
#include "hsparse/kernels/csr_panels.hpp"
#include "hsparse/kernels/csr_slabs.hpp"
#include "hsparse/kernels/csr_vector_rows.hpp"
#include "hsparse/formats/row_statistics.hpp"
#include "hsparse/kernels/spmv_registry.hpp"
#include <cstdio>
#include "hsparse/core/types.hpp"
#include "hsparse/performance/spmv_model.hpp"

namespace hsparse {

// Rows longer than this multiple of the mean row length are counted whole
// in rhs_reuse rather than through the sample of 64 stretches of 256 rows:
// a stretch holds 256 mean rows' entries, so such a row outweighs any
// stretch it falls in, and the sample rarely holds one. Circuit n = 1e7's
// 8 hub rows hold 7.6 M of its 67.5 M entries, in random columns over x's
// 80 MB, and none was sampled: alpha came out 0.177 where the bench's
// implied figures were 1.32 (CSR adaptive) and 1.79 (HYB), and Nsight
// Compute measured HYB's COO tail (those rows) moving 449 MB, its 122 MB of
// entries and 327 MB of x, against the 352 MB their distinct 64-byte lines
// make (H200, docs/results/2026-11-27-hyb-carries-h200-h100).
constexpr double kLongRowMeanMultiple = 256;

template <class V, class I>
RhsReuse rhs_reuse(const Csr<V, I>& a, double cache_bytes) {
  RhsReuse r;
  const double nnz = static_cast<double>(std::max<std::size_t>(a.nnz(), 1));
  const double per_line = 64.0 / sizeof(V);
  r.alpha = static_cast<double>(a.cols) / nnz;
  const double long_row = kLongRowMeanMultiple * nnz / std::max<double>(a.rows, 1);
  const auto is_long = [&](I row) { return static_cast<double>(a.row_ptr[row + 1] - a.row_ptr[row]) > long_row; };
  const auto line = [&](I k) { return static_cast<long long>(a.col_idx[k] / static_cast<I>(per_line)); };
  // Long rows: every distinct line (columns are sorted within a row).
  for (I row = 0; row < a.rows; ++row) {
    if (!is_long(row)) continue;
    double lines = 0;
    for (I k = a.row_ptr[row]; k < a.row_ptr[row + 1]; ++k) lines += k == a.row_ptr[row] || line(k) != line(k - 1);
    r.long_entries += static_cast<double>(a.row_ptr[row + 1] - a.row_ptr[row]);
    r.long_values += lines * per_line;
  }
  // x stays cached: read once, long rows or not (their lines are still
  // reported: HYB's tail reads them, from the cache, advise()).
  if (static_cast<double>(a.cols) * sizeof(V) <= cache_bytes / 4) return r;
  // The other rows: lines of x a row needs that the previous `window` rows
  // did not touch: a cache holding the recent rows' x lines (a quarter of
  // it, the rest goes to the streamed matrix). Sampled: 64 stretches of 256 rows.
  const double row_bytes = per_line * sizeof(V) * std::max(1.0, nnz / std::max<double>(a.rows, 1));
  const auto window = static_cast<I>(std::clamp(cache_bytes / 4 / row_bytes, 1.0, 4096.0));
  double new_lines = 0, entries = 0;
  const I stretches = 64, stretch = 256;
  for (I s = 0; s < stretches && a.rows > 0; ++s) {
    const I first = static_cast<I>(static_cast<long long>(a.rows) * s / stretches);
    std::unordered_set<long long> seen;
    const I warm_begin = first >= window ? first - window : 0;
    for (I row = warm_begin; row < first; ++row) {
      if (is_long(row)) continue;
      for (I k = a.row_ptr[row]; k < a.row_ptr[row + 1]; ++k) seen.insert(line(k));
    }
    for (I row = first; row < std::min<I>(a.rows, first + stretch); ++row) {
      if (is_long(row)) continue;
      for (I k = a.row_ptr[row]; k < a.row_ptr[row + 1]; ++k) {
        entries += 1;
        if (seen.insert(line(k)).second) new_lines += 1;
      }
    }
  }
  const double short_entries = nnz - r.long_entries;
  const double short_values = entries > 0 ? new_lines * per_line / entries * short_entries : 0;
  r.alpha = std::max(r.alpha, (short_values + r.long_values) / nnz);
  return r;
}

template <class V, class I>
double rhs_reuse_alpha(const Csr<V, I>& a, double cache_bytes) {
  return rhs_reuse(a, cache_bytes).alpha;
}

// The CPU's widest SELL sorting scope the advisor takes (advise, below).
constexpr std::int64_t kCpuSellMaxSortRows = 262144;

double kernel_efficiency(const MachineModel& m, Format format, int block) {
  const SpmvKernelModel& model = spmv_registration(m.backend == "cuda" ? Backend::cuda : Backend::cpu, format).model;
  const double memory_bound = model.efficiency(block);
  if (!model.sm_bound || m.sm_cycles_per_s <= 0 || m.read_bytes_per_s <= 0) return memory_bound;
  return std::min(memory_bound, model.sm_bound(block) * m.sm_cycles_per_s / m.read_bytes_per_s);
}

template <class V, class I>
Advice advise(const Csr<V, I>& a, const MachineModel& m, long long spmv_count, double value_tolerance) {
  Advice advice;
  advice.spmv_count = std::max(1LL, spmv_count);
  const Backend backend = m.backend == "cuda" ? Backend::cuda : Backend::cpu;
  const RhsReuse reuse = rhs_reuse(a, m.cache_bytes);
  const double alpha = reuse.alpha;
  advice.alpha = alpha;
  const double nnz = static_cast<double>(std::max<std::size_t>(a.nnz(), 1));
  // The byte models' inputs, with SELL at the machine's SIMD width (the
  // SELL-C-sigma paper's C) and the narrowest sorting scope within 1% of
  // the fewest bytes: sorting moves rows away from their neighbours' x, a
  // cost the model does not count, so a wider scope must save bytes to be
  // taken (on a stencil, sorting all rows saves a fraction of a percent;
  // on circuit's hub rows it stores 1.0001 entries per nonzero against
  // sigma 256's 1.79). The plan then runs this sigma (prediction_options).
  // On the CPU the scope is at most kCpuSellMaxSortRows rows: sorting a
  // whole matrix of 0.9-2.2 M rows made SELL's product 1.3-1.6x slower than
  // the same bytes sorted in windows, or than CSR (2-core build VM: power
  // law, 894785 rows, 5.27 ms at sigma = all against 3.3-3.7 at 16384 and
  // 262144; on circuit, where the advisor had ranked that SELL 4% ahead of
  // CSR, 7.5 ms against CSR's 5.8). Its y writes, and its x gathers, then
  // span the whole vector (7-18 MB), not a window of 2 MB.
  FormatFootprint fp = format_footprint(a, m.simd_width, 1);
  const std::int64_t widest = backend == Backend::cpu ? std::min<std::int64_t>(a.rows, kCpuSellMaxSortRows) : a.rows;
  for (std::int64_t sigma : {std::int64_t{256}, std::int64_t{4096}, widest}) {
    if (sigma > a.rows) continue;
    const SellOccupancy s = sell_occupancy(a, m.simd_width, sigma);
    if (static_cast<double>(s.bytes) < 0.99 * static_cast<double>(fp.sell.bytes)) fp.sell = s;
  }
  const PanelShape panels = csr_panel_shape(a.rows, a.cols, static_cast<long long>(a.nnz()), sizeof(V));  // CSR's panels, below
  // One prediction per format with its backend's default kernel (CSR on
  // the GPU: adaptive, or vector on long even rows, or the slabs, below; on
  // the CPU: the row-parallel kernel), and for CSR a second one with the
  // panels where rows are few and long over a wide x (kernels/csr_panels.hpp,
  // csr_panels_suit). Both CSR kernels stay ranked: the panels' setup
  // (kPanelBuildSecondsPerByte*) pays back only over enough products. Only here, for products: a plan
  // made for SpMM keeps the default, whose SpMM reads A once per 32 columns
  // (the panels have no SpMM kernel). Measured on short-wide matrices: 1.41x
  // cuSPARSE's CSR on the H100, 1.25-1.35x CSR's OpenMP kernel on the
  // 2-core build VM.
  const RowStatistics rows_statistics = backend == Backend::cuda ? row_length_statistics(a) : RowStatistics{};  // read by the GPU's rule only
  const bool even_rows = backend == Backend::cuda && csr_vector_suits(rows_statistics);  // CSR vector's regime (kernels/csr_vector_rows.hpp)
  std::vector<std::pair<Format, bool>> candidates;  // (format, the CSR panels)
  for (Format f : all_formats()) {
    candidates.emplace_back(f, false);
    if (f == Format::csr && csr_panels_suit(panels)) candidates.emplace_back(f, true);
  }
  for (const auto& [f, with_panels] : candidates) {
    const FormatTraits& t = format_traits(f);
    const SpmvKernelModel& model = spmv_registration(backend, f).model;
    FormatPrediction p;
    p.format = f;
    p.kernel = with_panels ? "panels" : spmv_registration(backend, f).kernels.front().name;
    p.block = static_cast<int>(fp.bcsr.block);
    if (f == Format::sell) p.sigma = fp.sell.sigma;
    p.matrix_bytes = static_cast<double>(t.bytes(fp, sizeof(V), 4));  // this V, int32 indices
    // The panels store 16-bit columns and a pointer per row and panel
    // (csr_panels_bytes); the GPU's partial sums per segment, 8% more on
    // short-wide, are left out. Counted as CSR's 12 bytes per entry, the
    // CPU's advisor ranked SELL 5% ahead on short-wide, where the panels
    // ran 1.47x SELL (4.27 against 6.28 ms, 2-core build VM).
    if (p.kernel == "panels") {
      p.matrix_bytes = csr_panels_bytes(panels, a.rows, static_cast<long long>(a.nnz()), sizeof(V), 4);
    }
    const double fill = t.fill(fp);
    if (t.value_rounding > value_tolerance) {
      p.possible = false;
      char why[160];
      std::snprintf(why, sizeof why, "stores values rounded to %.2g relative, more than the %.2g allowed", t.value_rounding, value_tolerance);
      p.why = why;
    } else if (t.max_fill > 0 && fill > t.max_fill) {
      p.possible = false;
      char why[160];
      std::snprintf(why, sizeof why, "%s beyond %gx the nonzeros (%.3g)", t.fill_meaning, t.max_fill, fill);
      p.why = why;
    }
    p.alpha = alpha;
    p.efficiency = kernel_efficiency(m, f, p.block);
    if (with_panels && backend == Backend::cuda && m.sm_cycles_per_s > 0 && m.read_bytes_per_s > 0) {
      p.efficiency = std::min(p.efficiency, kPanelSmBytesPerCycle * m.sm_cycles_per_s / m.read_bytes_per_s);
    }
    const double latency_hiding = backend == Backend::cuda ? std::min(1.0, model.parallel_units(fp) / m.resident_threads) : 1.0;
    p.efficiency *= latency_hiding;
    // eq. (9)'s bytes, with x's traffic beyond one read (alpha - 1/N_nzc:
    // the gathers of lines the cache lost) at the kernel's gather efficiency
    // where one is measured: on random matrices those gathers are 80% of
    // the traffic, and ELL moves them 7% faster than CSR adaptive on the
    // H100 and the H200 alike although CSR adaptive streams faster on the H100.
    const double gather_alpha = std::max(0.0, alpha - static_cast<double>(a.cols) / nnz);
    const double gather_efficiency = model.gather_efficiency > 0 ? model.gather_efficiency * latency_hiding : p.efficiency;
    const auto seconds = [&](double stream_bytes, double entries, double efficiency) {
      return stream_bytes / (m.read_bytes_per_s * efficiency) + gather_alpha * sizeof(V) * entries / (m.read_bytes_per_s * gather_efficiency);
    };
    const double balance = code_balance(p.matrix_bytes, a.nnz(), a.rows, sizeof(V), alpha - gather_alpha);  // bytes per flop, streamed
    p.spmv_seconds = seconds(balance * 2 * nnz, nnz, p.efficiency);
    if (model.tail_efficiency > 0 && backend == Backend::cuda) {
      // Two kernels: the ELL part at its efficiency, then the COO tail
      // (measured: the tail, not the ELL part, decides on circuit matrices).
      // The bytes split by the tail's entries (value + 2 indices). The tail
      // is the overflow past the ELL width, so it holds the long rows
      // (rhs_reuse) and reads their x lines: charged the matrix's mean x
      // traffic, circuit n = 1e7's tail took 5.9 M of x's values where its
      // hub rows read 44 M (Nsight Compute: 327 MB of x in the tail's
      // kernel), and HYB was ranked 3.9% ahead of CSR adaptive while it ran
      // 13% behind.
      const double tail_entries = static_cast<double>(fp.hyb_coo_entries), head_entries = nnz - tail_entries;
      const double from_long = std::min(tail_entries, reuse.long_entries), rest = tail_entries - from_long;
      const double long_lines = reuse.long_entries > 0 ? reuse.long_values * from_long / reuse.long_entries : 0;
      // The other rows' x traffic per entry (the long rows' taken out of alpha).
      const double short_alpha = nnz > reuse.long_entries ? std::max(0.0, alpha * nnz - reuse.long_values) / (nnz - reuse.long_entries) : 0;
      const double head_bytes = p.matrix_bytes - tail_entries * (sizeof(V) + 8);
      const double streamed_alpha = alpha - gather_alpha;  // x read once
      const double head_gathers = std::max(0.0, alpha * nnz - long_lines - short_alpha * rest - streamed_alpha * head_entries);  // beyond that read
      const double head_s = (head_bytes + 2 * sizeof(V) * static_cast<double>(a.rows) + streamed_alpha * sizeof(V) * head_entries) /
                                (m.read_bytes_per_s * p.efficiency) +
                            head_gathers * sizeof(V) / (m.read_bytes_per_s * gather_efficiency);
      // The long rows' part as COO's kernel, which runs it: its stream bound
      // and gather efficiency give 124 us where Nsight Compute timed 126.7
      // on circuit n = 1e7 (H200). That kernel streams only the
      // tail, so where x fits in L2 it stays there and is read once: on
      // circuit n = 3e6 (x 24 MB) HYB ran 1.16x CSR adaptive on the H100
      // (0.136 against 0.158 ms), whose stream of the whole matrix
      // evicts x, so that it pays the hub rows' lines from memory.
      const double long_x = static_cast<double>(a.cols) * sizeof(V) <= m.cache_bytes ? std::min(long_lines, static_cast<double>(a.cols)) : long_lines;
      const SpmvKernelModel& coo = spmv_registration(backend, Format::coo).model;
      const double tail_hiding = std::min(1.0, tail_entries / 8 / m.resident_threads);  // one COO launch: 8 entries a thread
      const double long_s = from_long > 0 ? from_long * (sizeof(V) + 8) / (m.read_bytes_per_s * kernel_efficiency(m, Format::coo, 1) * tail_hiding) +
                                                long_x * sizeof(V) / (m.read_bytes_per_s * coo.gather_efficiency * tail_hiding)
                                          : 0;
      // The rest, the overflow of shorter rows, at the tail's fitted
      // efficiency with those rows' x traffic (backends/cuda/plans/hyb.cpp).
      const double rest_s = rest > 0 ? (rest * (sizeof(V) + 8) + short_alpha * sizeof(V) * rest) /
                                           (m.read_bytes_per_s * model.tail_efficiency * tail_hiding)
                                     : 0;
      const double tail_s = long_s + rest_s;
      p.spmv_seconds = head_s + tail_s;
    }
    double conversion_per_byte = model.conversion_seconds_per_byte_for ? model.conversion_seconds_per_byte_for(fp) : model.conversion_seconds_per_byte;
    if (model.vector_rows_efficiency && p.kernel == "adaptive") {
      // The adaptive kernels' row blocks are built at setup; the vector
      // kernel has none (kernels/csr_vector_rows.hpp).
      const double preprocess = kCsrAdaptivePreprocessSecondsPerByte * p.matrix_bytes;
      if (even_rows) {
        // The vector kernel on rows of even length, at its own share of the
        // bandwidth, where its time over the products beats adaptive's
        // with the preprocessing (kernels/csr_vector_rows.hpp). Where
        // adaptive streams faster (CSR on the H100), that is only over
        // fewer products than repay the preprocessing.
        const double efficiency = model.vector_rows_efficiency(rows_statistics.mean_length) * latency_hiding;
        const double vector_seconds = seconds(balance * 2 * nnz, nnz, efficiency);
        if (static_cast<double>(advice.spmv_count) * (p.spmv_seconds - vector_seconds) + preprocess > 0) {
          p.kernel = "vector";
          p.efficiency = efficiency;
          p.spmv_seconds = vector_seconds;
        }
      }
      if (p.kernel == "adaptive") conversion_per_byte += kCsrAdaptivePreprocessSecondsPerByte;
    }
    if (p.kernel == "panels") conversion_per_byte = backend == Backend::cuda ? kPanelBuildSecondsPerByteGpu : kPanelBuildSecondsPerByteCpu;
    if (f == Format::csr && backend == Backend::cuda && p.kernel != "panels") {
      // CSR's slabs (kernels/csr_slabs.hpp) where x is larger than L2: x
      // read once per slab, no gathers from DRAM, but y and a row pointer
      // once more per further slab, streamed at the slabs' measured
      // efficiency; taken where that is faster than the gathers. Where x
      // fits in L2, CSR adaptive's evict-first loads keep it there
      // (kSlabMinCacheShare).
      const SlabShape shape = csr_slab_shape(a.cols, sizeof(V), m.cache_bytes, 0);
      if (shape.slabs >= 2 && static_cast<double>(a.cols) * sizeof(V) > kSlabMinCacheShare * m.cache_bytes) {
        const double rows = static_cast<double>(a.rows), further = static_cast<double>(shape.slabs - 1);
        const double bytes = p.matrix_bytes + further * rows * (sizeof(I) + 2 * sizeof(V)) + (static_cast<double>(a.cols) + rows) * sizeof(V);
        double efficiency = kSlabStreamEfficiency;
        if (m.sm_cycles_per_s > 0 && m.read_bytes_per_s > 0) efficiency = std::min(efficiency, kSlabSmBytesPerCycle * m.sm_cycles_per_s / m.read_bytes_per_s);
        const double slab_seconds = bytes / (m.read_bytes_per_s * efficiency * latency_hiding);
        if (slab_seconds < p.spmv_seconds) {
          p.kernel = "slabs";
          p.spmv_seconds = slab_seconds;
          conversion_per_byte = kSlabSplitSecondsPerByte;
        }
      }
    }
    p.predicted_gflops = 2 * nnz / p.spmv_seconds * 1e-9;
    p.conversion_seconds = p.matrix_bytes * conversion_per_byte;
    p.total_seconds = static_cast<double>(advice.spmv_count) * p.spmv_seconds + p.conversion_seconds;
    advice.ranked.push_back(p);
  }
  // Where the panels suit and the gathers scatter (kPanelScatteredAlpha),
  // the byte model misjudges every other kernel: x
  // fits in the cache, so the model streams it once, but each entry's
  // gather still leaves L1 for a sector of L2 (H100, short-wide: CSR
  // adaptive at 41% of the read bandwidth, predicted at 608.6 GFLOP/s and
  // measured at 206.4; COO segmented 398.8 and 190.8). The panels, which
  // exist for that, ran at least kPanelSpeedup* faster than each of them;
  // no other kernel is predicted faster than that.
  const auto panel_kernel = std::find_if(advice.ranked.begin(), advice.ranked.end(),
                                         [](const FormatPrediction& q) { return q.format == Format::csr && q.kernel == "panels"; });
  if (panel_kernel != advice.ranked.end() && rhs_reuse_alpha(a, kPanelNearCacheBytes) > kPanelScatteredAlpha) {
    const double floor_s = (backend == Backend::cuda ? kPanelSpeedupGpu : kPanelSpeedupCpu) * panel_kernel->spmv_seconds;
    for (auto& q : advice.ranked) {
      if (&q == &*panel_kernel || q.spmv_seconds >= floor_s) continue;
      q.spmv_seconds = floor_s;
      q.predicted_gflops = 2 * nnz / q.spmv_seconds * 1e-9;
      q.total_seconds = static_cast<double>(advice.spmv_count) * q.spmv_seconds + q.conversion_seconds;
    }
  }
  std::stable_sort(advice.ranked.begin(), advice.ranked.end(), [](const FormatPrediction& x, const FormatPrediction& y) {
    if (x.possible != y.possible) return x.possible;
    return x.total_seconds < y.total_seconds;
  });
  // A conversion must be predicted to gain more than kGpuConversionMargin
  // on the total, or the matrix stays in CSR: a converted copy costs device
  // memory and setup, and the model cannot rank two formats a point or two
  // apart (H100, circuit n = 1e7: HYB predicted 0.8% ahead of
  // CSR adaptive, measured 12% behind, 0.570 against 0.507 ms). 3%, not
  // 5%: with the efficiencies measured on both cards
  // (backends/cuda/plans/) the model's SpMV times on the regular
  // matrices fall within 3% of the H100's (DIA 0.363 against 0.373 ms on
  // FEM bs = 3, CSR adaptive 0.406 against 0.406), and at 5% CSR stayed on
  // FEM bs = 3 where DIA, predicted 3.6% ahead, measured 3% ahead and its
  // staged kernel 6%: `auto` at 94.3% of the best, under issue 37's 95%.
  // The GPU only: on the CPU the model errs the other way, SELL predicted
  // 2.9% ahead of CSR on fem bs = 3 (n = 45) and measured 1.66x
  // (docs/results/2026-11-25-main-job-cpu), so there the least
  // total stays.
  const auto csr = std::find_if(advice.ranked.begin(), advice.ranked.end(),
                                [](const FormatPrediction& p) { return p.possible && p.format == Format::csr; });
  if (backend == Backend::cuda && csr != advice.ranked.end() && csr != advice.ranked.begin() &&
      csr->total_seconds <= advice.ranked.front().total_seconds * (1 + kGpuConversionMargin)) {
    char why[200];
    std::snprintf(why, sizeof why, "within %.0f%% of %s's predicted total (%.1f%% behind): a conversion must gain more", kGpuConversionMargin * 100,
                  to_string(advice.ranked.front().format), (csr->total_seconds / advice.ranked.front().total_seconds - 1) * 100);
    csr->why = why;
    std::rotate(advice.ranked.begin(), csr, csr + 1);
  }
  return advice;
}

#define HSPARSE_INSTANTIATE(V, I)                                   \
  template RhsReuse rhs_reuse(const Csr<V, I>&, double);            \
  template double rhs_reuse_alpha(const Csr<V, I>&, double);        \
  template Advice advise(const Csr<V, I>&, const MachineModel&, long long, double);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
