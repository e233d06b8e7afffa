// COO on the CPU: its registration and builder (kernels/spmv_registry.hpp).
#include "format_plan.hpp"

#include "hsparse/kernels/format_spmv.hpp"

namespace hsparse::openmp {

BackendFormat registration_coo() {
  return {{{"openmp", "entries split evenly over threads, carries between threads fixed up serially"}, reference_kernel()},
          {[](int) { return 0.6; }, rows, kConversion, 0}};
}

template <class V, class I>
Built<V> build_coo(const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
  return simple<Format::coo>(a, o.layout, kernel, reference::coo_spmv<V, I>, openmp::coo_spmv<V, I>);
}

#define HSPARSE_INSTANTIATE(V, I) template Built<V> build_coo(const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
