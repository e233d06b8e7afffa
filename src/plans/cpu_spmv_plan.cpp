#include "hsparse/plans/cpu_spmv_plan.hpp"

#include "hsparse/analysis/matrix_analysis.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/kernels/format_spmv.hpp"

namespace hsparse {

const std::vector<Format>& all_formats() {
  static const std::vector<Format> f = {Format::coo, Format::csr, Format::ell, Format::hyb, Format::dia, Format::bcsr, Format::sell};
  return f;
}

const char* to_string(Format f) {
  switch (f) {
    case Format::coo: return "coo";
    case Format::csr: return "csr";
    case Format::ell: return "ell";
    case Format::hyb: return "hyb";
    case Format::dia: return "dia";
    case Format::bcsr: return "bcsr";
    case Format::sell: return "sell";
  }
  return "?";
}

Format parse_format(const std::string& name) {
  for (Format f : all_formats()) {
    if (name == to_string(f)) return f;
  }
  throw Error(ErrorCode::invalid_argument, "unknown format '" + name + "' (known: coo, csr, ell, hyb, dia, bcsr, sell)");
}

const std::vector<std::string>& cpu_kernel_names(Format format) {
  static const std::vector<std::string> csr = {"openmp", "merge", "reference"};
  static const std::vector<std::string> sell = {"auto", "avx512", "avx2", "portable", "reference"};
  static const std::vector<std::string> other = {"openmp", "reference"};
  return format == Format::csr ? csr : format == Format::sell ? sell : other;
}

namespace {

template <class M, class Fn>
auto bind(std::shared_ptr<const M> m, Fn fn) {
  return [m, fn](auto alpha, auto x, auto beta, auto y) { fn(alpha, *m, x, beta, y); };
}

// The SIMD width of the kernel that will run: one lane per chunk row.
int default_chunk(bool is_double, const std::string& kernel) {
  const bool avx512 = kernel == "avx512" || (kernel != "avx2" && __builtin_cpu_supports("avx512f"));
  return is_double ? (avx512 ? 8 : 4) : (avx512 ? 16 : 8);
}

// Gathers are slow on some CPUs (Intel's 2023 Gather Data Sampling microcode
// makes vgatherdpd several times slower), where the compiler's scalar-load
// kernel wins. "auto" therefore times the intrinsic kernel against the
// portable one on this matrix (3 products each, after one warm-up) and keeps
// the faster: a few SpMVs of setup, once per plan.
template <class V, class I>
openmp::SellKernel faster_sell_kernel(const SellCSigma<V, I>& m, openmp::SellKernel simd) {
  std::vector<V> x(static_cast<std::size_t>(m.cols), V(1)), y(static_cast<std::size_t>(m.rows));
  auto median_time = [&](openmp::SellKernel k) {
    return time_repeated([&] { openmp::sell_spmv<V, I>(V(1), m, x, V(0), y, k); }, 3, 1).median_s;
  };
  return median_time(simd) <= median_time(openmp::SellKernel::portable) ? simd : openmp::SellKernel::portable;
}

}  // namespace

template <class V, class I>
CpuSpmvPlan<V, I>::CpuSpmvPlan(const Csr<V, I>& a, const CpuSpmvOptions& o) {
  const auto& names = cpu_kernel_names(o.format);
  const std::string kernel = o.kernel.empty() ? names.front() : o.kernel;
  if (std::find(names.begin(), names.end(), kernel) == names.end()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw Error(ErrorCode::invalid_argument, "unknown CPU kernel '" + kernel + "' for format " + to_string(o.format) + " (known: " + list + ")");
  }
  const bool reference_kernel = kernel == "reference";
  Stopwatch watch;
  std::string desc = to_string(o.format);
  if (o.format == Format::csr) {
    auto m = std::make_shared<const Csr<V, I>>(a);
    bytes_ = m->bytes();
    stored_ = m->nnz();
    if (reference_kernel) apply_ = bind(m, reference::csr_spmv<V, I>);
    else if (kernel == "merge") apply_ = bind(m, openmp::csr_merge_spmv<V, I>);
    else {
      const auto schedule = openmp::choose_schedule(*m);
      apply_ = [m, schedule](V al, std::span<const V> x, V be, std::span<V> y) { openmp::csr_spmv<V, I>(al, *m, x, be, y, schedule); };
      desc += schedule == openmp::Schedule::static_rows ? "/static" : "/guided";
    }
    matrix_ = m;
  } else if (o.format == Format::coo) {
    auto m = std::make_shared<const Coo<V, I>>(csr_to_coo(a));
    bytes_ = m->nnz() * (sizeof(V) + 2 * sizeof(I));
    stored_ = m->nnz();
    apply_ = reference_kernel ? bind(m, reference::coo_spmv<V, I>) : bind(m, openmp::coo_spmv<V, I>);
    matrix_ = m;
  } else if constexpr (is_complex_v<V>) {
    throw Error(ErrorCode::unsupported, std::string("format ") + to_string(o.format) + " has float and double kernels only; complex matrices use csr or coo");
  } else {
    switch (o.format) {
      case Format::ell: {
        auto m = std::make_shared<const Ell<V, I>>(ell_from_csr(a, I(1), o.max_fill > 0 ? o.max_fill : 20.0));
        bytes_ = m->bytes();
        stored_ = m->stored();
        apply_ = reference_kernel ? bind(m, reference::ell_spmv<V, I>) : bind(m, openmp::ell_spmv<V, I>);
        desc += "-" + std::to_string(m->width);
        matrix_ = m;
        break;
      }
      case Format::hyb: {
        std::optional<I> width;
        if (o.hyb_width) width = static_cast<I>(*o.hyb_width);
        auto m = std::make_shared<const Hyb<V, I>>(hyb_from_csr(a, width));
        bytes_ = m->bytes();
        stored_ = m->ell.stored() + m->coo.nnz();
        apply_ = reference_kernel ? bind(m, reference::hyb_spmv<V, I>) : bind(m, openmp::hyb_spmv<V, I>);
        desc += "-" + std::to_string(m->ell.width);
        matrix_ = m;
        break;
      }
      case Format::dia: {
        auto m = std::make_shared<const Dia<V, I>>(dia_from_csr(a, o.max_fill > 0 ? o.max_fill : 3.0));
        bytes_ = m->bytes();
        stored_ = m->values.size();
        apply_ = reference_kernel ? bind(m, reference::dia_spmv<V, I>) : bind(m, openmp::dia_spmv<V, I>);
        desc += "-" + std::to_string(m->offsets.size());
        matrix_ = m;
        break;
      }
      case Format::bcsr: {
        const int block = o.block > 0 ? o.block : best_bcsr_block(a);
        auto m = std::make_shared<const Bcsr<V, I>>(bcsr_from_csr(a, block, o.align_blocks, o.max_fill > 0 ? o.max_fill : 16.0));
        bytes_ = m->bytes();
        stored_ = m->values.size();
        apply_ = reference_kernel ? bind(m, reference::bcsr_spmv<V, I>) : bind(m, openmp::bcsr_spmv<V, I>);
        desc += "-" + std::to_string(block) + (o.align_blocks ? "-aligned" : "");
        matrix_ = m;
        break;
      }
      default: {  // sell
        const int chunk = o.chunk > 0 ? o.chunk : default_chunk(std::is_same_v<V, double>, kernel);
        auto m = std::make_shared<const SellCSigma<V, I>>(sell_from_csr(a, SellOptions{chunk, o.sigma, false}));
        bytes_ = m->bytes();
        stored_ = m->values.size();
        desc += "-" + std::to_string(chunk) + "-" + std::to_string(m->sigma);
        if (reference_kernel) {
          apply_ = bind(m, reference::sell_spmv<V, I>);
        } else {
          auto k = kernel == "avx512" ? openmp::SellKernel::avx512 : kernel == "avx2" ? openmp::SellKernel::avx2
                   : kernel == "portable" ? openmp::SellKernel::portable : openmp::best_sell_kernel(*m);
          openmp::require_sell_kernel(*m, k);  // fail now, not at the first product
          if (kernel == "auto" && k != openmp::SellKernel::portable) k = faster_sell_kernel(*m, k);
          const auto schedule = openmp::choose_sell_schedule(*m);
          apply_ = [m, k, schedule](V al, std::span<const V> xx, V be, std::span<V> yy) {
            openmp::sell_spmv<V, I>(al, *m, xx, be, yy, k, schedule);
          };
          desc += std::string("/") + openmp::to_string(k) + (kernel == "auto" ? "(auto)" : "");
        }
        matrix_ = m;
        break;
      }
    }
  }
  if (reference_kernel) desc += "/reference";
  else if (o.format != Format::sell && o.format != Format::csr) desc += "/openmp";
  else if (o.format == Format::csr && kernel == "merge") desc += "/merge";
  setup_s_ = watch.seconds();
  description_ = desc;
}

#define HSPARSE_INSTANTIATE(V, I) template class CpuSpmvPlan<V, I>;
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
