// SELL-C-sigma on the GPU: its registration and builder
// (kernels/spmv_registry.hpp). Model: 0.81-0.96 of the read bandwidth on
// the H100 (0.89), bound at 0.83 of the H200's, x's gathers at 0.97 / 0.91
// (H100 / H200).
#include "format_plan.hpp"

#ifdef HSPARSE_HAVE_CUDA
#include <optional>

#include "hsparse/backends/cuda/device_conversions.hpp"
#include "hsparse/backends/cuda/format_spmv.hpp"
#endif

namespace hsparse::cuda {

namespace {
// On the device (sell_from_device_csr): the layout (row order, chunk
// widths) from the host's O(rows) pass, the entries and padding written by
// the GPU from the uploaded CSR. Set up minus CSR vector's, per byte of the
// SELL (H200, C = 32, sigma 1 and 256): cage10 x 664 0.09-0.10 s for 1.36
// GB, FEM bs = 3 0.03-0.07 s for 1.17 GB, the stencil 0.0-0.06 s for 1.21
// GB (CSR's own setup varied 0.05-0.12 s there): about 0.06 ns per byte.
// The host conversion it replaces was 0.12.
constexpr double kSellOnDevice = 0.06e-9;
}  // namespace

BackendFormat registration_sell() {
  return {{{"thread", "one thread per row, a warp per chunk at C = 32 (Kreutzer et al.)", {"", "sigma=256"}},
           {"threads", "T threads per row (Sliced ELLR-T)", {""}, {{"threads", "T, threads per row (default 4)", {1, 2, 4, 8, 16, 32}}}},
           {"cusparse", "cuSPARSE SELL (baseline)"}},
          {[](int) { return 0.89; }, rows, kSellOnDevice, 0, [](int) { return h200_bound(0.83); }, 0.94}};
}

#ifdef HSPARSE_HAVE_CUDA

template <class V, class I>
Built<V> build_sell(const Executor& ex, const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
  struct Storage {
    std::optional<DeviceSell<V, I>> sell;
    SpmmWorkspace spmm;
  };
  auto s = std::make_shared<Storage>();
  const FormatOptions& layout = o.layout;
  // On the device where the staged CSR and the padded SELL fit in half the
  // free memory together, else converted on the host (its layout is the
  // same: sell_layout).
  std::optional<SellCSigma<V, I>> sell_shape;
  if (convert_on_device(o)) sell_shape = sell_layout(a, SellOptions{layout.chunk, layout.sigma, false});
  const auto device_peak = [&] {
    return static_cast<double>(a.nnz()) * (sizeof(I) + sizeof(V)) + static_cast<double>(a.rows + 1) * sizeof(I) +
           static_cast<double>(sell_shape->chunk_ptr.back()) * (sizeof(I) + sizeof(V)) +
           static_cast<double>(sell_shape->perm.size() + sell_shape->row_len.size() + 2 * sell_shape->chunk_len.size() + 1) * sizeof(I);
  };
  if (sell_shape && device_conversion_fits(device_peak())) {
    s->sell.emplace(sell_from_device_csr(ex, std::move(*sell_shape), DeviceCsr<V, I>::upload(a)));
  } else {
    s->sell.emplace(DeviceSell<V, I>::upload(FormatStorage<Format::sell>::from_csr(a, layout)));
  }
  const DeviceSell<V, I>* m = &*s->sell;
  Built<V> b;
  b.bytes = array_bytes(m->chunk_ptr) + array_bytes(m->chunk_len) + array_bytes(m->row_len) + array_bytes(m->col_idx) +
            array_bytes(m->values) + (m->identity_order ? 0 : array_bytes(m->perm));
  b.stored = m->values.size();
  const std::string shape = "-C" + std::to_string(layout.chunk) + "-sigma" + std::to_string(layout.sigma);
  if (kernel == "cusparse") {
    use_cusparse(b, s, std::make_unique<CusparseSpmv<V, I>>(ex, *m));
    b.description = shape;
    return b;
  }
  const Executor* e = &ex;
  SpmmWorkspace* w = &s->spmm;  // our SpMM for both of our kernels (cuSPARSE's baseline goes column by column)
  b.apply_block = [e, m, w](V al, const ConstDenseView<V>& x, V be, const DenseView<V>& y) { sell_spmm(*e, al, *m, *w, x, be, y); };
  if (kernel == "threads") {
    const int T = static_cast<int>(kernel_param(o, "threads", kSellDefaultThreadsPerRow));
    b.apply = [e, m, T](V al, const V* x, V be, V* y) { sell_spmv_threads_per_row(*e, al, *m, x, be, y, T); };
    b.description = "-T" + std::to_string(T);
  } else {
    b.apply = [e, m](V al, const V* x, V be, V* y) { sell_spmv_thread_per_row(*e, al, *m, x, be, y); };
  }
  b.description += shape;
  b.storage = s;
  return b;
}

#define HSPARSE_INSTANTIATE(V, I) template Built<V> build_sell(const Executor&, const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

#endif  // HSPARSE_HAVE_CUDA

}  // namespace hsparse::cuda
