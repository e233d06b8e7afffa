// COO on the GPU: its registration and builder (kernels/spmv_registry.hpp).
// Model: 0.84-0.98 of the read bandwidth on the H100 (0.90), bound at 0.72
// of the H200's (a lane per 8 entries), x's gathers at 0.92 / 0.84 (H100 /
// H200).
#include "format_plan.hpp"

#ifdef HSPARSE_HAVE_CUDA
#include "hsparse/backends/cuda/device_conversions.hpp"
#include "hsparse/backends/cuda/format_spmv.hpp"
#include "hsparse/formats/convert.hpp"
#endif

namespace hsparse::cuda {

BackendFormat registration_coo() {
  // Parallel units: 8 entries per thread.
  return {{{"segmented", "equal shares of entries per thread, segmented carries (deterministic, no atomics)"},
           {"cusparse", "cuSPARSE COO (baseline)"}},
          {[](int) { return 0.90; }, [](const FormatFootprint& f) { return static_cast<double>(f.nnz) / 8; }, kOnDevice, 0,
           [](int) { return h200_bound(0.72); }, 0.88}};
}

#ifdef HSPARSE_HAVE_CUDA

template <class V, class I>
Built<V> build_coo(const Executor& ex, const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
  struct Storage {
    DeviceCoo<V, I> coo;
    DeviceArray<unsigned char> workspace;
  };
  auto s = std::make_shared<Storage>();
  if (convert_on_device(o)) {
    const auto staged = DeviceCsr<V, I>::upload(a);
    s->coo = coo_from_device_csr(ex, staged);
    ex.synchronize();
  } else {
    s->coo = DeviceCoo<V, I>::upload(csr_to_coo(a));
  }
  Built<V> b;
  b.bytes = array_bytes(s->coo.row_idx) + array_bytes(s->coo.col_idx) + array_bytes(s->coo.values);
  b.stored = a.nnz();
  const DeviceCoo<V, I>* m = &s->coo;
  if (kernel == "cusparse") {
    use_cusparse(b, s, std::make_unique<CusparseSpmv<V, I>>(ex, *m));
    return b;
  }
  s->workspace = DeviceArray<unsigned char>(coo_workspace_bytes(a.nnz(), sizeof(V)));
  void* w = s->workspace.data();
  const Executor* e = &ex;
  b.apply = [e, m, w](V al, const V* x, V be, V* y) { coo_spmv_segmented(*e, al, *m, x, be, y, w); };
  b.storage = s;
  return b;
}

#define HSPARSE_INSTANTIATE(V, I) template Built<V> build_coo(const Executor&, const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

#endif  // HSPARSE_HAVE_CUDA

}  // namespace hsparse::cuda
