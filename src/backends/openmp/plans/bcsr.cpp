// BCSR on the CPU: its registration and builder (kernels/spmv_registry.hpp).
// The model's efficiencies are ratios to CSR static's fraction in the same
// run (the build machine's absolute fractions move by up to 38% between
// runs; docs/results/2026-11-26-bcsr-lanes-csr-panels-h100), times CSR's
// 0.95: bs = 6 1.00-1.01, bs = 3 0.84-1.00, bs = 2 0.85-0.88, bs = 1
// 0.98-1.00. With lower fractions FEM bs = 3's BCSR, 1.4x SELL's speed on
// 30% fewer bytes, was ranked 3% behind SELL.
#include "format_plan.hpp"

#include "hsparse/kernels/block_format_spmm.hpp"
#include "hsparse/kernels/format_spmv.hpp"

namespace hsparse::openmp {

BackendFormat registration_bcsr() {
  return {{{"openmp", "block rows over threads, compile-time block sizes 1-8"}, reference_kernel()},
          {[](int b) { return b >= 6 ? 0.95 : b >= 3 ? 0.87 : b == 2 ? 0.82 : 0.93; }, rows, kConversion, 0}};
}

template <class V, class I>
Built<V> build_bcsr(const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
  auto b = simple<Format::bcsr>(a, o.layout, kernel, reference::bcsr_spmv<V, I>, openmp::bcsr_spmv<V, I>);
  // SpMM (kernels/block_format_spmm.hpp): the blocks read once per 32 columns.
  b.apply_block = [m = std::static_pointer_cast<const Bcsr<V, I>>(b.matrix), reference = kernel == "reference"](
                      V al, const ConstDenseView<V>& x, V be, const DenseView<V>& y) {
    if (reference) reference::bcsr_spmm<V, I>(al, *m, x, be, y);
    else openmp::bcsr_spmm<V, I>(al, *m, x, be, y);
  };
  b.shape = "-" + std::to_string(static_cast<const Bcsr<V, I>*>(b.matrix.get())->block) + (o.layout.align_blocks ? "-aligned" : "");
  return b;
}

#define HSPARSE_INSTANTIATE(V, I) template Built<V> build_bcsr(const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
