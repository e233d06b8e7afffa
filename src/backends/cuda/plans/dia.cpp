// DIA on the GPU: its registration and builder (kernels/spmv_registry.hpp).
// Model: 0.87-0.95 of the read bandwidth on the H100 (0.89); bound at 0.88
// of the H200's (its loads issued ahead of its products; the tiled
// kernel's measured over modelled GFLOP/s, 0.93-1.00 on the stencil, banded
// and FEM, match ELL's and SELL's).
#include "format_plan.hpp"

#ifdef HSPARSE_HAVE_CUDA
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "hsparse/backends/cuda/device_conversions.hpp"
#include "hsparse/backends/cuda/format_spmv.hpp"
#endif

namespace hsparse::cuda {

namespace {
// DIA on the device, tiles included: the host's diagonal pass, the scatter
// on the GPU. Setup minus CSR vector's (no preprocessing), per DIA byte, on
// the H200 and its host: 0.009-0.023 ns, median 0.0165 over 14 matrix runs
// (stencil, banded, FEM bs = 3 and 6). At 0.03 the advisor put CSR16 vector
// ahead of DIA on FEM bs = 3 from 4.59 TB/s (n = 48) and 4.65 (n = 74),
// where DIA's total at N = 1000 measured 5% and 12% ahead
// (docs/results/2026-11-27-dia-tiles-bcsr-unroll-h200). Not measured on the
// H100's host. On the host it cost 0.57.
constexpr double kDiaOnDevice = 0.017e-9;
}  // namespace

BackendFormat registration_dia() {
  return {{{"thread", "one thread per row"}, {"staged", "one thread per row, x read from shared-memory windows per run of nearby diagonals"}},
          {[](int) { return 0.89; }, rows, kDiaOnDevice, 0, [](int) { return h200_bound(0.88); }}};
}

#ifdef HSPARSE_HAVE_CUDA

template <class V, class I>
Built<V> build_dia(const Executor& ex, const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
  struct Storage {
    std::optional<DeviceDia<V, I>> dia;
    DiaWindows x_windows;  // "staged": x's windows per block
  };
  auto s = std::make_shared<Storage>();
  const FormatOptions& layout = o.layout;
  // On the device where the staged CSR, the diagonal index (rows + cols)
  // and the tiled DIA fit in half the free memory together, as SELL and
  // CSR16. The DIA's slots are bounded without a pass over the entries:
  // at most the fill limit times the entries (dia_offsets refuses more)
  // and at most every diagonal, plus the last tile's padding.
  const auto dia_device_peak = [&] {
    const double rows = static_cast<double>(a.rows), cols = static_cast<double>(a.cols);
    const double diagonals = std::min(fill_limit(Format::dia, layout) * static_cast<double>(a.nnz()) / std::max(rows, 1.0),
                                      std::max(0.0, rows + cols - 1));
    const double slots = std::ceil(diagonals) * static_cast<double>(dia_tiled_rows(a.rows));
    return static_cast<double>(a.nnz()) * (sizeof(I) + sizeof(V)) + (rows + 1) * sizeof(I) + (rows + cols) * sizeof(I) + slots * sizeof(V);
  };
  if (convert_on_device(o) && device_conversion_fits(dia_device_peak())) {
    const auto staged = DeviceCsr<V, I>::upload(a);
    s->dia.emplace(dia_from_device_csr(ex, a, staged, fill_limit(Format::dia, layout)));
  } else {
    s->dia.emplace(DeviceDia<V, I>::upload(FormatStorage<Format::dia>::from_csr(a, layout)));
  }
  const DeviceDia<V, I>* m = &*s->dia;
  Built<V> b;
  // The slots of the rows, as the host's Dia counts them: the last tile's
  // padding (formats/dia_tiles.hpp) is never read.
  b.stored = m->offsets.size() * static_cast<std::size_t>(a.rows);
  b.bytes = array_bytes(m->offsets) + b.stored * sizeof(V);
  const Executor* e = &ex;
  if (kernel == "staged") {
    const std::vector<I> offsets = m->offsets.download();
    s->x_windows = dia_windows(std::span<const I>(offsets), sizeof(V));
    const DiaWindows* w = &s->x_windows;
    b.apply = [e, m, w](V al, const V* x, V be, V* y) { dia_spmv_staged(*e, al, *m, *w, x, be, y); };
  } else {
    b.apply = [e, m](V al, const V* x, V be, V* y) { dia_spmv(*e, al, *m, x, be, y); };
  }
  b.storage = s;
  return b;
}

#define HSPARSE_INSTANTIATE(V, I) template Built<V> build_dia(const Executor&, const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

#endif  // HSPARSE_HAVE_CUDA

}  // namespace hsparse::cuda
