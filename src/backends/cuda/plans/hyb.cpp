// HYB on the GPU: its registration and builder (kernels/spmv_registry.hpp).
// Model: ELL's part at 0.90 of the read bandwidth, x's gathers at 0.93.
// The COO tail, where it is the overflow of rows that are not long
// (rhs_reuse's long rows), stays at 0.53 of the bandwidth with the matrix's
// mean x traffic: at 0.72 the advisor chose HYB on the circuit matrix where
// it ran at 0.86x CSR adaptive
// (docs/results/2026-11-24-coo-kernel-limiters-h200), and at COO's own
// rates it ranked HYB 4% ahead of CSR adaptive on the power laws (2 M and 4
// M rows), where it ran at 0.76-0.77x. The long rows' part of the tail is
// modelled as COO's kernel, which runs it (advisor.cpp): on circuit n = 1e7
// Nsight Compute timed the tail at 126.7 us (H200,
// docs/results/2026-11-27-hyb-carries-h200-h100), where COO's stream bound
// and gather efficiency give 124 us for the model's 122 MB of entries and
// 352 MB of the hub rows' x lines.
#include "format_plan.hpp"

#ifdef HSPARSE_HAVE_CUDA
#include <optional>

#include "hsparse/backends/cuda/device_conversions.hpp"
#include "hsparse/backends/cuda/format_spmv.hpp"
#endif

namespace hsparse::cuda {

namespace {
// With a COO tail: setup minus CSR adaptive's or vector's per HYB byte
// 0.036-0.099 ns, median 0.06, on the matrices whose rows overflow the
// width (power law, circuit, random, banded; H200 and H100,
// docs/results/2026-11-27-hyb-carries-h200-h100); without a tail
// 0.004-0.018, as ELL. At 0.004 the advisor charged circuit n = 1e7 3 ms
// for a setup that took 64-83 ms beyond CSR's.
constexpr double kHybTailOnDevice = 0.06e-9;
double hyb_conversion(const FormatFootprint& f) { return f.hyb_coo_entries > 0 ? kHybTailOnDevice : kOnDevice; }
}  // namespace

BackendFormat registration_hyb() {
  return {{{"thread", "one thread per row"}}, {[](int) { return 0.90; }, rows, kOnDevice, 0.53, nullptr, 0.93, hyb_conversion}};
}

#ifdef HSPARSE_HAVE_CUDA

template <class V, class I>
Built<V> build_hyb(const Executor& ex, const Csr<V, I>& a, const SpmvOptions& o, const std::string&) {
  struct Storage {
    std::optional<DeviceHyb<V, I>> hyb;
    DeviceArray<unsigned char> workspace;
  };
  auto s = std::make_shared<Storage>();
  std::optional<I> width;
  if (o.layout.hyb_width) width = static_cast<I>(*o.layout.hyb_width);
  if (convert_on_device(o)) {
    const auto staged = DeviceCsr<V, I>::upload(a);
    s->hyb.emplace(hyb_from_device_csr(ex, a, staged, width, I(o.layout.row_alignment)));
  } else {
    s->hyb.emplace(DeviceHyb<V, I>::upload(FormatStorage<Format::hyb>::from_csr(a, o.layout)));
  }
  s->workspace = DeviceArray<unsigned char>(coo_workspace_bytes(s->hyb->coo.nnz(), sizeof(V)));
  const DeviceHyb<V, I>* m = &*s->hyb;
  Built<V> b;
  b.bytes = array_bytes(m->ell.col_idx) + array_bytes(m->ell.values) + array_bytes(m->coo.row_idx) + array_bytes(m->coo.col_idx) +
            array_bytes(m->coo.values);
  b.stored = m->ell.values.size() + m->coo.values.size();
  void* w = s->workspace.data();
  const Executor* e = &ex;
  b.apply = [e, m, w](V al, const V* x, V be, V* y) { hyb_spmv(*e, al, *m, x, be, y, w); };
  b.description = "-width" + std::to_string(m->ell.width);
  b.storage = s;
  return b;
}

#define HSPARSE_INSTANTIATE(V, I) template Built<V> build_hyb(const Executor&, const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

#endif  // HSPARSE_HAVE_CUDA

}  // namespace hsparse::cuda
