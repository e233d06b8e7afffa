// csr16-single on the GPU: its registration and builder (kernels/spmv_registry.hpp);
// the builder and the measurements behind the model are CSR16's
// (plans/csr16_plan.hpp).
#include "csr16_plan.hpp"

#include "hsparse/kernels/csr_vector_rows.hpp"

namespace hsparse::cuda {

BackendFormat registration_csr16_single() {
  // Complex values are rounded to complex<float> on the host (csr16_from_device_csr).
  return {{{"adaptive", "CSR16's adaptive kernel, single values widened to the product's precision"},
           {"vector", "CSR16's vector kernel, single values widened to the product's precision"}},
          {[](int) { return 0.59; }, csr_units, kCsr16SingleOnHost, 0, [](int) { return h200_bound(0.54); }, 0.87,
           [](const FormatFootprint& f) { return f.csr16_wide_rows > 0 || f.complex_values ? kCsr16SingleOnHost : kCsr16OnDevice; },
           [](double) { return kCsr16SingleVectorStreamEfficiency; }}};
}

#ifdef HSPARSE_HAVE_CUDA

template <class V, class I>
Built<V> build_csr16_single(const Executor& ex, const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
  return build_csr16_family<single_t<V>>(ex, a, o, kernel, [&] { return FormatStorage<Format::csr16_single>::from_csr(a, o.layout); });
}

#define HSPARSE_INSTANTIATE(V, I) template Built<V> build_csr16_single(const Executor&, const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

#endif  // HSPARSE_HAVE_CUDA

}  // namespace hsparse::cuda
