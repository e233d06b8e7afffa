// csr16-single on the CPU: its registration and builder
// (kernels/spmv_registry.hpp). Provisional model, as CSR16's (plans/csr16.cpp).
#include "format_plan.hpp"

#include "hsparse/kernels/format_spmv.hpp"

namespace hsparse::openmp {

BackendFormat registration_csr16_single() {
  return {{{"openmp", "row-parallel, static schedule; single values widened to the product's precision"}, reference_kernel()},
          {[](int) { return 0.8; }, rows, kConversion, 0}};
}

template <class V, class I>
Built<V> build_csr16_single(const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
  using S = single_t<V>;
  auto b = simple<Format::csr16_single>(a, o.layout, kernel, reference::csr16_spmv<V, S, I>, openmp::csr16_spmv<V, S, I>);
  if (static_cast<const Csr16<S, I>*>(b.matrix.get())->has_wide()) b.shape = "-wide";
  return b;
}

#define HSPARSE_INSTANTIATE(V, I) template Built<V> build_csr16_single(const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
