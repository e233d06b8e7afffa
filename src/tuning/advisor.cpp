#include "hsparse/tuning/advisor.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "hsparse/analysis/matrix_analysis.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/performance/spmv_model.hpp"

namespace hsparse {

template <class V, class I>
double rhs_reuse_alpha(const Csr<V, I>& a, double cache_bytes) {
  const double nnz = static_cast<double>(std::max<std::size_t>(a.nnz(), 1));
  const double per_line = 64.0 / sizeof(V);
  if (static_cast<double>(a.cols) * sizeof(V) <= cache_bytes / 4) return static_cast<double>(a.cols) / nnz;  // x stays cached
  // Lines of x a row needs that the previous `window` rows did not touch:
  // a cache holding the recent rows' x lines (a quarter of it, the rest goes
  // to the streamed matrix). Sampled: 64 stretches of 256 rows.
  const double row_bytes = per_line * sizeof(V) * std::max(1.0, nnz / std::max<double>(a.rows, 1));
  const auto window = static_cast<I>(std::clamp(cache_bytes / 4 / row_bytes, 1.0, 4096.0));
  double new_lines = 0, entries = 0;
  const I stretches = 64, stretch = 256;
  for (I s = 0; s < stretches && a.rows > 0; ++s) {
    const I first = static_cast<I>(static_cast<long long>(a.rows) * s / stretches);
    std::unordered_set<long long> seen;
    const I warm_begin = first >= window ? first - window : 0;
    for (I r = warm_begin; r < first; ++r) {
      for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) seen.insert(static_cast<long long>(a.col_idx[k] / static_cast<I>(per_line)));
    }
    for (I r = first; r < std::min<I>(a.rows, first + stretch); ++r) {
      for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
        entries += 1;
        if (seen.insert(static_cast<long long>(a.col_idx[k] / static_cast<I>(per_line))).second) new_lines += 1;
      }
    }
  }
  if (entries == 0) return static_cast<double>(a.cols) / nnz;
  return std::max(static_cast<double>(a.cols) / nnz, new_lines * per_line / entries);
}

double kernel_efficiency(const std::string& backend, Format format, int block) {
  // Fractions of the read bandwidth under each format's own minimum traffic,
  // measured by hsparse bench (docs/results/2026-11-22-bench.md) on matrices
  // streamed from memory where x traffic is near its minimum: H200 (DIA
  // 0.76, ELL/HYB 0.92, SELL 0.83, BCSR 0.67 at bs=3 and 0.90 at bs=6, CSR
  // adaptive 0.83, COO 0.37) and the 2-core build machine (SELL and CSR at
  // about the read bandwidth, BCSR 0.68-0.82, the rest lower).
  if (backend == "cuda") {
    switch (format) {
      case Format::dia: return 0.76;
      case Format::ell: return 0.92;
      case Format::hyb: return 0.90;
      case Format::sell: return 0.83;
      case Format::bcsr: return block >= 6 ? 0.90 : block >= 2 ? 0.67 : 0.30;
      case Format::coo: return 0.37;
      case Format::csr: return 0.83;
    }
  }
  switch (format) {
    case Format::sell: return 1.0;
    case Format::csr: return 0.95;
    case Format::bcsr: return block >= 6 ? 0.82 : block >= 2 ? 0.68 : 0.5;
    case Format::dia: return 0.6;
    case Format::ell: return 0.55;
    case Format::hyb: return 0.5;
    case Format::coo: return 0.6;
  }
  return 0.5;
}

namespace {

// Extra setup beyond CSR's, in seconds per byte of the target format, from
// the H200 runs' setup times (upload included in both): GPU-side
// conversions (COO, ELL, HYB) ~0.02 ns/B, host ones (DIA, SELL, BCSR)
// ~0.6 ns/B on the 16-core host. CPU conversions: ~1 ns/B on 2 cores.
double conversion_seconds_per_byte(const std::string& backend, Format f) {
  if (f == Format::csr) return 0;
  if (backend == "cuda") return (f == Format::coo || f == Format::ell || f == Format::hyb) ? 0.02e-9 : 0.6e-9;
  return 1.0e-9;
}

}  // namespace

template <class V, class I>
Advice advise(const Csr<V, I>& a, const MachineModel& m, long long spmv_count) {
  Advice advice;
  advice.spmv_count = std::max(1LL, spmv_count);
  const MatrixAnalysis s = analyze_matrix(a);
  const double alpha = rhs_reuse_alpha(a, m.cache_bytes);
  advice.alpha = alpha;
  const double nnz = static_cast<double>(std::max<std::size_t>(a.nnz(), 1));
  auto bytes_of = [&](const std::string& name) {
    for (const auto& f : s.formats) {
      if (f.format.rfind(name, 0) == 0) return static_cast<double>(f.bytes);
    }
    return 0.0;
  };
  // Parallel units of each kernel family on the GPU (a thread per row for
  // ELL, DIA, HYB's ELL part and SELL; a warp per block row for BCSR; 16
  // entries per thread for COO; CSR adaptive balances by nonzeros).
  auto parallel_units = [&](Format f, int block) {
    switch (f) {
      case Format::ell: case Format::dia: case Format::hyb: case Format::sell: return static_cast<double>(a.rows);
      case Format::bcsr: return 32.0 * static_cast<double>(a.rows) / std::max(block, 1);
      case Format::coo: return nnz / 16;
      case Format::csr: return std::max(nnz / 8, static_cast<double>(a.rows));
    }
    return static_cast<double>(a.rows);
  };
  auto add = [&](Format f, std::string kernel, int block, double bytes, bool possible, std::string why) {
    FormatPrediction p;
    p.format = f;
    p.kernel = std::move(kernel);
    p.block = block;
    p.possible = possible;
    p.why = std::move(why);
    p.matrix_bytes = bytes;  // analyze_matrix's bytes: this V, int32 indices
    p.alpha = alpha;
    p.efficiency = kernel_efficiency(m.backend, f, block);
    if (m.backend == "cuda") p.efficiency *= std::min(1.0, parallel_units(f, block) / m.resident_threads);
    const double balance = code_balance(p.matrix_bytes, a.nnz(), a.rows, sizeof(V), alpha);  // eq. (9), bytes per flop
    p.predicted_gflops = m.read_bytes_per_s * p.efficiency / balance * 1e-9;
    p.spmv_seconds = 2 * nnz / (p.predicted_gflops * 1e9);
    if (f == Format::hyb && m.backend == "cuda") {
      // HYB is two kernels: the ELL part at ELL's efficiency, the COO tail
      // at COO's (measured: the tail, not the ELL part, decides on circuit
      // matrices). Split the bytes by the tail's entries (16 bytes each).
      const double tail_entries = std::max(0.0, (bytes - static_cast<double>(a.rows) * static_cast<double>(s.hyb_ell_width) * 12) / 16);
      const double tail_bytes = tail_entries * 16, ell_bytes = bytes - tail_bytes;
      const double ell_s = (ell_bytes + 2 * 8 * static_cast<double>(a.rows) + alpha * 8 * (nnz - tail_entries)) /
                           (m.read_bytes_per_s * p.efficiency);
      const double tail_s = tail_entries > 0 ? (tail_bytes + alpha * 8 * tail_entries) /
                                                   (m.read_bytes_per_s * kernel_efficiency(m.backend, Format::coo, 0) *
                                                    std::min(1.0, tail_entries / 16 / m.resident_threads))
                                             : 0;
      p.spmv_seconds = ell_s + tail_s;
      p.predicted_gflops = 2 * nnz / p.spmv_seconds * 1e-9;
    }
    p.conversion_seconds = p.matrix_bytes * conversion_seconds_per_byte(m.backend, f);
    p.total_seconds = static_cast<double>(advice.spmv_count) * p.spmv_seconds + p.conversion_seconds;
    advice.ranked.push_back(p);
  };
  const bool gpu = m.backend == "cuda";
  const double csr_bytes = bytes_of("CSR");
  add(Format::csr, gpu ? "adaptive" : "openmp", 0, csr_bytes, true, "");
  add(Format::coo, gpu ? "segmented" : "openmp", 0, bytes_of("COO"), true, "");
  const bool ell_fits = static_cast<double>(s.rows) * static_cast<double>(s.row_lengths.max_length) <= 20 * nnz;  // ell.hpp's limit
  add(Format::ell, gpu ? "thread" : "openmp", 0, bytes_of("ELL"), ell_fits, ell_fits ? "" : "ELL slots beyond 20x the nonzeros");
  add(Format::hyb, gpu ? "thread" : "openmp", 0, bytes_of("HYB"), true, "");
  const bool dia_fits = static_cast<double>(s.diagonals) * static_cast<double>(s.rows) <= 3 * nnz;  // dia.hpp's default limit
  add(Format::dia, gpu ? "thread" : "openmp", 0, bytes_of("DIA"), dia_fits, dia_fits ? "" : "DIA slots beyond 3x the nonzeros");
  add(Format::bcsr, gpu ? "auto" : "openmp", s.best_bcsr_block, bytes_of("BCSR"), true, "");
  double sell_bytes = 0;
  for (const auto& o : s.sell) {
    if (o.chunk == (gpu ? 32 : 8) && (sell_bytes == 0 || static_cast<double>(o.bytes) < sell_bytes)) sell_bytes = static_cast<double>(o.bytes);
  }
  add(Format::sell, gpu ? "thread" : "auto", 0, sell_bytes > 0 ? sell_bytes : csr_bytes, true, "");
  std::stable_sort(advice.ranked.begin(), advice.ranked.end(), [](const FormatPrediction& x, const FormatPrediction& y) {
    if (x.possible != y.possible) return x.possible;
    return x.total_seconds < y.total_seconds;
  });
  return advice;
}

#define HSPARSE_INSTANTIATE(V, I)                                   \
  template double rhs_reuse_alpha(const Csr<V, I>&, double);        \
  template Advice advise(const Csr<V, I>&, const MachineModel&, long long);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
