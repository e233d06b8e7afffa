#include "support/kernel_cases.hpp"

#include <memory>

#include "hsparse/core/error.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/kernels/csr_panels.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/kernels/format_spmv.hpp"

namespace hsparse::test {

namespace {

template <class V, class I, class Matrix, class Fn>
void add(KernelCases<V, I>& out, Format format, const std::string& kernel, const std::string& name, std::shared_ptr<Matrix> m, Fn fn) {
  out.cases.push_back({name, format, kernel, [m, fn](V alpha, std::span<const V> x, V beta, std::span<V> y) { fn(alpha, *m, x, beta, y); }});
}

template <class V, class I, class Build, class Each>
void try_format(KernelCases<V, I>& out, const std::string& format, Build build, Each each) {
  try {
    each(std::make_shared<decltype(build())>(build()));
  } catch (const Error& e) {
    if (e.code() != ErrorCode::invalid_argument) throw;
    out.refused.push_back(format + ": " + e.what());
  }
}

}  // namespace

template <class V, class I>
KernelCases<V, I> all_cpu_kernels(const Csr<V, I>& a, std::optional<Format> only) {
  KernelCases<V, I> out;
  const auto want = [only](Format f) { return !only || *only == f; };
  if (want(Format::csr)) {
    auto csr = std::make_shared<Csr<V, I>>(a);
    add(out, Format::csr, "reference", "csr/reference", csr, reference::csr_spmv<V, I>);
    add(out, Format::csr, "openmp", "csr/openmp-static", csr, [](V al, const Csr<V, I>& m, auto x, V be, auto y) { openmp::csr_spmv<V, I>(al, m, x, be, y, openmp::Schedule::static_rows); });
    add(out, Format::csr, "openmp", "csr/openmp-guided", csr, [](V al, const Csr<V, I>& m, auto x, V be, auto y) { openmp::csr_spmv<V, I>(al, m, x, be, y, openmp::Schedule::guided_rows); });
    add(out, Format::csr, "merge", "csr/merge-path", csr, openmp::csr_merge_spmv<V, I>);
    add(out, Format::csr, "openmp", "csr/openmp-sorted", std::make_shared<openmp::CsrSortedRows<V, I>>(openmp::csr_sorted_rows(a)), openmp::csr_sorted_spmv<V, I>);
    // The panels where the layout takes the matrix (it refuses fewer than 2
    // entries per row and panel by design, not as a format limit: not counted
    // as a refusal); small panels and tiles, so most matrices span several.
    for (long long panel_cols : {64LL, 8192LL}) {
      PanelShape shape = csr_panel_shape(a.rows, a.cols, static_cast<long long>(a.nnz()), sizeof(V));
      shape.panel_cols = panel_cols;
      shape.panels = panel_count(a.cols, panel_cols);
      shape.tile_rows = 37;
      try {
        auto p = std::make_shared<CsrPanels<V, I>>(csr_panels(a, shape));
        add(out, Format::csr, "panels", "csr/panels/" + std::to_string(panel_cols), p, openmp::csr_panels_spmv<V, I>);
      } catch (const Error& e) {
        if (e.code() != ErrorCode::invalid_argument) throw;
      }
    }
  }
  if (want(Format::coo)) {
    auto coo = std::make_shared<Coo<V, I>>(csr_to_coo(a));
    add(out, Format::coo, "reference", "coo/reference", coo, reference::coo_spmv<V, I>);
    add(out, Format::coo, "openmp", "coo/openmp", coo, openmp::coo_spmv<V, I>);
  }
  {  // every format takes every value type (complex included)
    for (I align : {I(1), I(8)}) {
      if (!want(Format::ell)) break;
      try_format(out, "ell", [&] { return ell_from_csr(a, align); }, [&](auto m) {
        add(out, Format::ell, "reference", "ell/reference/align" + std::to_string(align), m, reference::ell_spmv<V, I>);
        add(out, Format::ell, "openmp", "ell/openmp/align" + std::to_string(align), m, openmp::ell_spmv<V, I>);
      });
    }
    for (int width : {-1, 0, 2}) {
      if (!want(Format::hyb)) break;
      auto h = std::make_shared<Hyb<V, I>>(width < 0 ? hyb_from_csr(a) : hyb_from_csr(a, std::optional<I>(static_cast<I>(width))));
      const std::string w = width < 0 ? "rule" : std::to_string(width);
      add(out, Format::hyb, "reference", "hyb/reference/width-" + w, h, reference::hyb_spmv<V, I>);
      add(out, Format::hyb, "openmp", "hyb/openmp/width-" + w, h, openmp::hyb_spmv<V, I>);
    }
    if (want(Format::dia)) {
      try_format(out, "dia", [&] { return dia_from_csr(a); }, [&](auto m) {
        add(out, Format::dia, "reference", "dia/reference", m, reference::dia_spmv<V, I>);
        add(out, Format::dia, "openmp", "dia/openmp", m, openmp::dia_spmv<V, I>);
      });
    }
    if (want(Format::csr16)) {
      auto c16 = std::make_shared<Csr16<V, I>>(csr16_from_csr(a));
      add(out, Format::csr16, "reference", std::string("csr16/reference") + (c16->has_wide() ? "-wide" : ""), c16, reference::csr16_spmv<V, V, I>);
      add(out, Format::csr16, "openmp", std::string("csr16/openmp") + (c16->has_wide() ? "-wide" : ""), c16, openmp::csr16_spmv<V, V, I>);
    }
    for (int block : {1, 2, 3, 4, 5, 6, 7, 8, 11, 32}) {
      if (!want(Format::bcsr)) break;
      for (bool aligned : {false, true}) {
        if (aligned && block != 3 && block != 5) continue;
        const std::string name = "bcsr/b" + std::to_string(block) + (aligned ? "-aligned" : "");
        try_format(out, name, [&] { return bcsr_from_csr(a, block, aligned); }, [&](auto m) {
          add(out, Format::bcsr, "reference", name + "/reference", m, reference::bcsr_spmv<V, I>);
          add(out, Format::bcsr, "openmp", name + "/openmp", m, openmp::bcsr_spmv<V, I>);
        });
      }
    }
    for (int chunk : {1, 4, 8, 16, 32}) {
      if (!want(Format::sell)) break;
      for (long long sigma : {1LL, 64LL, 1LL << 40}) {
        for (bool permuted : {false, true}) {
          if (permuted && (a.rows != a.cols || sigma == 64)) continue;
          auto s = std::make_shared<SellCSigma<V, I>>(sell_from_csr(a, SellOptions{chunk, sigma, permuted}));
          const std::string name = "sell/C" + std::to_string(chunk) + "-sigma" + (sigma > 1000 ? std::string("all") : std::to_string(sigma)) + (permuted ? "-permuted" : "");
          std::vector<openmp::SellKernel> kernels = {openmp::SellKernel::portable};
          const auto best = openmp::best_sell_kernel(*s);
          if (best != openmp::SellKernel::portable) kernels.push_back(best);
          if (best == openmp::SellKernel::avx512 && std::is_same_v<I, std::int32_t> && chunk == (std::is_same_v<V, double> ? 4 : 8)) {
            kernels.push_back(openmp::SellKernel::avx2);
          }
          auto run_in_original_order = [permuted](auto kernel_fn) {
            return [permuted, kernel_fn](V al, const SellCSigma<V, I>& m, std::span<const V> x, V be, std::span<V> y) {
              if (!permuted) return kernel_fn(al, m, x, be, y);
              // Solver-style use: x and y live in the sorted ordering.
              const auto xp = sell_permute<V, I>(m, x);
              auto yp = sell_permute<V, I>(m, std::span<const V>(y.data(), y.size()));
              kernel_fn(al, m, xp, be, yp);
              const auto back = sell_unpermute<V, I>(m, yp);
              std::copy(back.begin(), back.end(), y.begin());
            };
          };
          add(out, Format::sell, "reference", name + "/reference", s, run_in_original_order([](V al, const SellCSigma<V, I>& m, std::span<const V> x, V be, std::span<V> y) { reference::sell_spmv<V, I>(al, m, x, be, y); }));
          for (auto k : kernels) {
            add(out, Format::sell, openmp::to_string(k), name + "/openmp-" + openmp::to_string(k), s, run_in_original_order([k](V al, const SellCSigma<V, I>& m, std::span<const V> x, V be, std::span<V> y) { openmp::sell_spmv<V, I>(al, m, x, be, y, k); }));
          }
        }
      }
    }
  }
  return out;
}

#define HSPARSE_INSTANTIATE(V, I) template KernelCases<V, I> all_cpu_kernels(const Csr<V, I>&, std::optional<Format>);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::test
