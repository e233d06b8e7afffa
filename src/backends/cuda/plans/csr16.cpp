// CSR16 on the GPU: its registration and builder (kernels/spmv_registry.hpp);
// the builder and the measurements behind the model are CSR16's
// (plans/csr16_plan.hpp).
#include "csr16_plan.hpp"

#include "hsparse/kernels/csr_vector_rows.hpp"

namespace hsparse::cuda {

BackendFormat registration_csr16() {
  return {{{"adaptive", "CSR adaptive's row blocks, columns a row base + 16-bit offsets; wide rows by CSR adaptive"},
           {"vector", "CSR vector's kernel, columns a row base + 16-bit offsets (Reguly and Giles); wide rows by CSR vector"}},
          {[](int) { return 0.74; }, csr_units, kCsr16OnHost, 0, [](int) { return h200_bound(0.65); }, 0.87,
           [](const FormatFootprint& f) { return f.csr16_wide_rows > 0 ? kCsr16OnHost : kCsr16OnDevice; },
           [](double) { return kCsr16VectorStreamEfficiency; }}};
}

#ifdef HSPARSE_HAVE_CUDA

template <class V, class I>
Built<V> build_csr16(const Executor& ex, const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
  return build_csr16_family<V>(ex, a, o, kernel, [&] { return FormatStorage<Format::csr16>::from_csr(a, o.layout); });
}

#define HSPARSE_INSTANTIATE(V, I) template Built<V> build_csr16(const Executor&, const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

#endif  // HSPARSE_HAVE_CUDA

}  // namespace hsparse::cuda
