// The CPU backend's plan builder (plans/spmv_plan.hpp): one builder per
// format, chosen by a switch over the registry's formats without a default,
// so a format the CPU does not build is a compile error. Conversions are the registry's
// (formats/format_storage.hpp); kernels the CPU backend registers
// (backends/openmp/spmv_kernels.cpp).
#include <omp.h>

#include <algorithm>
#include <vector>

#include "../common/spmv_plan_builders.hpp"

#include "hsparse/core/error.hpp"
#include "hsparse/core/host_system.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/formats/format_storage.hpp"
#include "hsparse/kernels/csr_spmm.hpp"
#include "hsparse/kernels/block_format_spmm.hpp"
#include "hsparse/kernels/csr_panels.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/kernels/format_spmv.hpp"
#include "hsparse/kernels/spmv_registry.hpp"

namespace hsparse::openmp {

namespace {

template <class V>
using ApplyFn = std::function<void(V, std::span<const V>, V, std::span<V>)>;

// What a builder returns: the product, the matrix it keeps alive, and the facts the plan reports.
template <class V>
struct Built {
  ApplyFn<V> apply;
  std::function<void(V, const ConstDenseView<V>&, V, const DenseView<V>&)> apply_block;  // SpMM, where the format has one
  std::shared_ptr<const void> matrix;
  std::string shape;     // appended to the format's name, e.g. "-27"
  std::string kernel;    // the kernel as described, e.g. "openmp", "avx512(auto)"
  std::size_t bytes = 0, stored = 0;
};

template <class M, class Fn>
auto bind(std::shared_ptr<const M> m, Fn fn) {
  return [m, fn](auto alpha, auto x, auto beta, auto y) { fn(alpha, *m, x, beta, y); };
}

// The common case: convert, then the reference or the OpenMP kernel.
template <Format F, class V, class I, class Reference, class Parallel>
Built<V> simple(const Csr<V, I>& a, const FormatOptions& layout, const std::string& kernel, Reference ref, Parallel par) {
  using M = typename FormatStorage<F>::template type<V, I>;
  auto m = std::make_shared<const M>(FormatStorage<F>::from_csr(a, layout));
  Built<V> b;
  b.apply = kernel == "reference" ? ApplyFn<V>(bind(m, ref)) : ApplyFn<V>(bind(m, par));
  b.matrix = m;
  b.kernel = kernel;
  b.bytes = FormatStorage<F>::bytes(*m);
  b.stored = FormatStorage<F>::stored(*m);
  return b;
}

// The SIMD width of the kernel that will run: one lane per chunk row.
template <class V>
int default_chunk(const std::string& kernel) {
  if (is_complex_v<V>) return 4;  // the portable kernel; a complex value is two lanes
  const bool avx512 = kernel == "avx512" || (kernel != "avx2" && simd_level() == SimdLevel::avx512);
  return std::is_same_v<V, double> ? (avx512 ? 8 : 4) : (avx512 ? 16 : 8);
}

// Gathers are slow on some CPUs (Intel's 2023 Gather Data Sampling microcode
// makes vgatherdpd several times slower), where the compiler's scalar-load
// kernel wins. "auto" therefore times the intrinsic kernel against the
// portable one on this matrix and keeps the intrinsic one unless the
// portable one is clearly faster: after a warm-up of each, five rounds of
// one product each, the two alternating, medians compared, the portable
// kernel taken only when it needs less than kPortableShare of the time. The
// race is for gathers several times slower; three products each, one
// kernel after the other, flipped between two near-equal kernels on noise:
// the same stencil's plans took the portable kernel once and AVX-512 once
// in one bench run (9.93 against 8.83 ms, 2-core build machine).
// A few SpMVs of setup, once per plan.
constexpr double kPortableShare = 0.8;

template <class V, class I>
openmp::SellKernel faster_sell_kernel(const SellCSigma<V, I>& m, openmp::SellKernel simd) {
  std::vector<V> x(static_cast<std::size_t>(m.cols), V(1)), y(static_cast<std::size_t>(m.rows));
  auto once = [&](openmp::SellKernel k) { return time_repeated([&] { openmp::sell_spmv<V, I>(V(1), m, x, V(0), y, k); }, 1, 0).median_s; };
  once(simd);
  once(openmp::SellKernel::portable);
  std::vector<double> simd_s, portable_s;
  for (int round = 0; round < 5; ++round) {
    simd_s.push_back(once(simd));
    portable_s.push_back(once(openmp::SellKernel::portable));
  }
  const double portable = summarize_times(std::move(portable_s)).median_s, intrinsic = summarize_times(std::move(simd_s)).median_s;
  return portable < kPortableShare * intrinsic ? openmp::SellKernel::portable : simd;
}

template <class V, class I>
Built<V> build_csr(const Csr<V, I>& a, const std::string& kernel) {
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

template <class V, class I>
Built<V> build_sell(const Csr<V, I>& a, FormatOptions layout, const std::string& kernel) {
  if (layout.chunk <= 0) layout.chunk = default_chunk<V>(kernel);
  if (layout.sigma <= 0) layout.sigma = 256;
  auto m = std::make_shared<const SellCSigma<V, I>>(FormatStorage<Format::sell>::from_csr(a, layout));
  Built<V> b;
  b.matrix = m;
  b.bytes = FormatStorage<Format::sell>::bytes(*m);
  b.stored = FormatStorage<Format::sell>::stored(*m);
  b.shape = "-" + std::to_string(layout.chunk) + "-" + std::to_string(m->sigma);
  // SpMM (kernels/block_format_spmm.hpp): the chunks read once per 32 columns.
  b.apply_block = [m, reference = kernel == "reference"](V al, const ConstDenseView<V>& x, V be, const DenseView<V>& y) {
    if (reference) reference::sell_spmm<V, I>(al, *m, x, be, y);
    else openmp::sell_spmm<V, I>(al, *m, x, be, y);
  };
  if (kernel == "reference") {
    b.apply = bind(m, reference::sell_spmv<V, I>);
    b.kernel = kernel;
    return b;
  }
  auto k = kernel == "avx512" ? openmp::SellKernel::avx512 : kernel == "avx2" ? openmp::SellKernel::avx2
           : kernel == "portable" ? openmp::SellKernel::portable : openmp::best_sell_kernel(*m);
  openmp::require_sell_kernel(*m, k);  // fail now, not at the first product
  if (kernel == "auto" && k != openmp::SellKernel::portable) k = faster_sell_kernel(*m, k);
  const auto schedule = openmp::choose_sell_schedule(*m);
  b.apply = [m, k, schedule](V al, std::span<const V> xx, V be, std::span<V> yy) { openmp::sell_spmv<V, I>(al, *m, xx, be, yy, k, schedule); };
  b.kernel = std::string(openmp::to_string(k)) + (kernel == "auto" ? "(auto)" : "");
  return b;
}

template <class V, class I>
Built<V> build(const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
  const FormatOptions& layout = o.layout;
  switch (*o.format) {
    case Format::csr: return build_csr(a, kernel);
    case Format::coo: return simple<Format::coo>(a, layout, kernel, reference::coo_spmv<V, I>, openmp::coo_spmv<V, I>);
    case Format::ell: {
      auto b = simple<Format::ell>(a, layout, kernel, reference::ell_spmv<V, I>, openmp::ell_spmv<V, I>);
      b.shape = "-" + std::to_string(static_cast<const Ell<V, I>*>(b.matrix.get())->width);
      return b;
    }
    case Format::hyb: {
      auto b = simple<Format::hyb>(a, layout, kernel, reference::hyb_spmv<V, I>, openmp::hyb_spmv<V, I>);
      b.shape = "-" + std::to_string(static_cast<const Hyb<V, I>*>(b.matrix.get())->ell.width);
      return b;
    }
    case Format::dia: {
      auto b = simple<Format::dia>(a, layout, kernel, reference::dia_spmv<V, I>, openmp::dia_spmv<V, I>);
      b.shape = "-" + std::to_string(static_cast<const Dia<V, I>*>(b.matrix.get())->offsets.size());
      return b;
    }
    case Format::bcsr: {
      auto b = simple<Format::bcsr>(a, layout, kernel, reference::bcsr_spmv<V, I>, openmp::bcsr_spmv<V, I>);
      // SpMM (kernels/block_format_spmm.hpp): the blocks read once per 32 columns.
      b.apply_block = [m = std::static_pointer_cast<const Bcsr<V, I>>(b.matrix), reference = kernel == "reference"](
                          V al, const ConstDenseView<V>& x, V be, const DenseView<V>& y) {
        if (reference) reference::bcsr_spmm<V, I>(al, *m, x, be, y);
        else openmp::bcsr_spmm<V, I>(al, *m, x, be, y);
      };
      b.shape = "-" + std::to_string(static_cast<const Bcsr<V, I>*>(b.matrix.get())->block) + (layout.align_blocks ? "-aligned" : "");
      return b;
    }
    case Format::sell: return build_sell(a, layout, kernel);
    case Format::csr16: {
      auto b = simple<Format::csr16>(a, layout, kernel, reference::csr16_spmv<V, V, I>, openmp::csr16_spmv<V, V, I>);
      if (static_cast<const Csr16<V, I>*>(b.matrix.get())->has_wide()) b.shape = "-wide";
      return b;
    }
    case Format::csr16_single: {
      using S = single_t<V>;
      auto b = simple<Format::csr16_single>(a, layout, kernel, reference::csr16_spmv<V, S, I>, openmp::csr16_spmv<V, S, I>);
      if (static_cast<const Csr16<S, I>*>(b.matrix.get())->has_wide()) b.shape = "-wide";
      return b;
    }
  }
  throw Error(ErrorCode::internal, "the CPU plan has no builder for format " + std::to_string(static_cast<int>(*o.format)));
}

}  // namespace

template <class V, class I>
SpmvParts<V> build_spmv_plan(const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
  Built<V> b = build(a, o, kernel);
  SpmvParts<V> parts;
  // The kernels take spans: the plan's raw-pointer product gives them the matrix's sizes.
  const auto rows = static_cast<std::size_t>(a.rows), cols = static_cast<std::size_t>(a.cols);
  parts.apply = [fn = std::move(b.apply), rows, cols](V al, const V* x, V be, V* y) {
    fn(al, std::span<const V>(x, cols), be, std::span<V>(y, rows));
  };
  parts.apply_block = std::move(b.apply_block);
  parts.storage = std::move(b.matrix);
  parts.bytes = b.bytes;
  parts.stored = b.stored;
  parts.description = std::string(to_string(*o.format)) + b.shape + "/" + b.kernel;
  return parts;
}

#define HSPARSE_INSTANTIATE(V, I) \
  template SpmvParts<V> build_spmv_plan(const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
