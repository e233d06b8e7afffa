// Issue 18's "below the byte floor" in the bench report: lossless index
// compression (CSR16) against the same format uncompressed (CSR), and
// single-precision values (csr16-single) against CSR16 in double, with the
// bytes per nonzero and the error the rounding cost (report_parts.hpp).
#include <cmath>
#include <ostream>

#include "report_parts.hpp"

namespace hsparse::bench::detail {

namespace {

double bytes_per_nonzero(const Result* x, const MatrixInfo& m) {
  return x && m.nnz > 0 ? x->matrix_bytes / static_cast<double>(m.nnz) : 0;
}
// CSR16 applies where no row escapes to the plain CSR part (its kernels name "-wide" otherwise).
bool csr16_applies(const Result* x) { return x && x->kernel.find("-wide") == std::string::npos; }
// Bandwidth-bound: the large regular matrices, streamed from memory.
bool bandwidth_bound(const MatrixSummary& s) { return !s.info->cache_resident && is_regular(*s.info); }

}  // namespace

std::vector<Goal> byte_floor_goals(const std::vector<MatrixSummary>& sums) {
  Tally bytes, speed, single;
  for (const auto& s : sums) {
    if (s.info->cache_resident) continue;
    if (csr16_applies(s.best_csr16)) {
      const double b = bytes_per_nonzero(s.best_csr16, *s.info);
      bytes.add(b < 12, s, fmt("%.2f B", b));
    }
    if (!bandwidth_bound(s)) continue;
    if (s.best_csr16 && s.best_csr) {
      const double q = ratio(s.best_csr16, s.best_csr);
      speed.add(q >= 1.15, s, fmt("%.2fx", q));
    }
    if (s.best_lossy && s.best_csr16) {
      const double q = ratio(s.best_lossy, s.best_csr16);
      single.add(q >= 1.4, s, fmt("%.2fx", q) + fmt(" (error %.1e)", s.best_lossy->relative_error));
    }
  }
  std::vector<Goal> goals;
  if (bytes.count > 0) goals.push_back(bytes.goal("lossless index compression: CSR16 below 12 bytes per nonzero wherever no row escapes to its CSR part"));
  if (speed.count > 0) goals.push_back(speed.goal("lossless index compression: best CSR16 >= 1.15x best CSR (uncompressed) on the large regular matrices"));
  if (single.count > 0) {
    goals.push_back(single.goal("single-precision values: best csr16-single >= 1.4x best CSR16 in double on the large regular matrices"));
  }
  return goals;
}

void write_byte_floor_section(std::ostream& md, const std::vector<MatrixSummary>& sums) {
  bool any = false;
  for (const auto& s : sums) any = any || s.best_csr16 || s.best_lossy;
  if (!any) return;
  md << "\n## Below the byte floor\n\nCSR16: 16-bit column offsets from a 32-bit base per row (lossless; rows spanning 2^16 columns kept "
        "in a plain CSR part, \"-wide\"). CSR B/nnz: the CSR arrays (the best CSR kernel may read more: the slabs read y once per "
        "slab). csr16-single: CSR16 with single-precision values, products in double (lossy, opt-in: "
        "never in the \"best hsparse\" columns above); relative error against the double-precision reference. L2 flushed.\n\n"
        "| matrix | CSR B/nnz | CSR16 B/nnz | best CSR | GFLOP/s | best CSR16 | GFLOP/s | CSR16 / CSR | float values | GFLOP/s | / CSR16 | "
        "/ best exact | relative error |\n|---|---:|---:|---|---:|---|---:|---:|---|---:|---:|---:|---:|\n";
  for (const auto& s : sums) {
    const Result *c = s.best_csr, *c16 = s.best_csr16, *f = s.best_lossy;
    md << "| " << short_name(s.info->name) << (s.info->cache_resident ? " (in cache)" : "") << " | "
       << (s.info->nnz > 0 ? fmt("%.2f", s.info->csr_bytes / static_cast<double>(s.info->nnz)) : "-") << " | " << (c16 ? fmt("%.2f", bytes_per_nonzero(c16, *s.info)) : "-") << " | "
       << (c ? c->kernel : "-") << " | " << (c ? fmt("%.1f", c->gflops) : "-") << " | " << (c16 ? c16->kernel : "-") << " | "
       << (c16 ? fmt("%.1f", c16->gflops) : "-") << " | " << (c && c16 ? fmt("%.2fx", ratio(c16, c)) : "-") << " | " << (f ? f->kernel : "-")
       << " | " << (f ? fmt("%.1f", f->gflops) : "-") << " | " << (f && c16 ? fmt("%.2fx", ratio(f, c16)) : "-") << " | "
       << (f && s.best_hsparse ? fmt("%.2fx", ratio(f, s.best_hsparse)) : "-") << " | " << (f ? fmt("%.1e", f->relative_error) : "-") << " |\n";
  }
}

}  // namespace hsparse::bench::detail
