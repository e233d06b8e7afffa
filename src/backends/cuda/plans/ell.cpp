// ELL on the GPU: its registration and builder (kernels/spmv_registry.hpp).
// Model: 0.93-1.00 of the read bandwidth on the H100 (0.92), no
// multiprocessor bound, x's gathers at 0.97 / 0.90 (H100 / H200).
#include "format_plan.hpp"

#ifdef HSPARSE_HAVE_CUDA
#include <optional>

#include "hsparse/backends/cuda/device_conversions.hpp"
#include "hsparse/backends/cuda/format_spmv.hpp"
#endif

namespace hsparse::cuda {

BackendFormat registration_ell() {
  return {{{"thread", "one thread per row"}, {"thread2", "two neighbouring rows per thread, vector loads"}},
          {[](int) { return 0.92; }, rows, kOnDevice, 0, nullptr, 0.93}};
}

#ifdef HSPARSE_HAVE_CUDA

template <class V, class I>
Built<V> build_ell(const Executor& ex, const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
  auto s = std::make_shared<std::optional<DeviceEll<V, I>>>();
  if (convert_on_device(o)) {
    const auto staged = DeviceCsr<V, I>::upload(a);
    s->emplace(ell_from_device_csr(ex, a, staged, I(o.layout.row_alignment), fill_limit(Format::ell, o.layout)));
  } else {
    s->emplace(DeviceEll<V, I>::upload(FormatStorage<Format::ell>::from_csr(a, o.layout)));
  }
  const DeviceEll<V, I>* m = &**s;
  Built<V> b;
  b.bytes = array_bytes(m->col_idx) + array_bytes(m->values);
  b.stored = m->values.size();
  const int rows_per_thread = kernel == "thread2" ? 2 : 1;
  const Executor* e = &ex;
  b.apply = [e, m, rows_per_thread](V al, const V* x, V be, V* y) { ell_spmv(*e, al, *m, x, be, y, rows_per_thread); };
  b.storage = s;
  return b;
}

#define HSPARSE_INSTANTIATE(V, I) template Built<V> build_ell(const Executor&, const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

#endif  // HSPARSE_HAVE_CUDA

}  // namespace hsparse::cuda
