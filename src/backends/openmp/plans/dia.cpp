// DIA on the CPU: its registration and builder (kernels/spmv_registry.hpp).
#include "format_plan.hpp"

#include "hsparse/kernels/format_spmv.hpp"

namespace hsparse::openmp {

BackendFormat registration_dia() {
  return {{{"openmp", "rows split over OpenMP threads"}, reference_kernel()}, {[](int) { return 0.6; }, rows, kConversion, 0}};
}

template <class V, class I>
Built<V> build_dia(const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
  auto b = simple<Format::dia>(a, o.layout, kernel, reference::dia_spmv<V, I>, openmp::dia_spmv<V, I>);
  b.shape = "-" + std::to_string(static_cast<const Dia<V, I>*>(b.matrix.get())->offsets.size());
  return b;
}

#define HSPARSE_INSTANTIATE(V, I) template Built<V> build_dia(const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
