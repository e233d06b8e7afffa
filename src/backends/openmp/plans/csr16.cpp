// CSR16 on the CPU: its registration and builder (kernels/spmv_registry.hpp). Provisional model (not measured yet): below
// CSR's 0.95, so the advisor does not prefer an unmeasured kernel to
// measured ones.
#include "format_plan.hpp"

#include "hsparse/kernels/format_spmv.hpp"

namespace hsparse::openmp {

BackendFormat registration_csr16() {
  return {{{"openmp", "row-parallel, static schedule; base + 16-bit offset per entry"}, reference_kernel()},
          {[](int) { return 0.8; }, rows, kConversion, 0}};
}

template <class V, class I>
Built<V> build_csr16(const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
  auto b = simple<Format::csr16>(a, o.layout, kernel, reference::csr16_spmv<V, V, I>, openmp::csr16_spmv<V, V, I>);
  if (static_cast<const Csr16<V, I>*>(b.matrix.get())->has_wide()) b.shape = "-wide";
  return b;
}

#define HSPARSE_INSTANTIATE(V, I) template Built<V> build_csr16(const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
