#pragma once
// The builder CSR16 and csr16-single share on the GPU (plans/csr16.cpp,
// plans/csr16_single.cpp): the stored value type is their one difference.
#include "format_plan.hpp"

namespace hsparse::cuda {

// Measured (H200, L2 flushed, the suite's six even matrices): adaptive at
// 0.60-0.77 of the read bandwidth under CSR16's bytes (median 0.65),
// csr16-single's at 0.44-0.61 (0.54): bound by the multiprocessors, which
// also decode each column in the staged loop. Their vector kernels stream
// faster on even rows (kernels/csr_vector_rows.hpp, the advisor's rule). On
// the H100 (3.08 TB/s, FEM bs = 3, bcsstk16 x 344, cage10 x 664, the
// stencil) adaptive reached 0.70-0.79 (CSR16) and 0.53-0.67 (csr16-single)
// of the read bandwidth, under CSR16's bytes: the registrations'
// efficiencies are the medians. x's gathers at 0.91 / 0.85 (H100 / H200),
// 0.92 / 0.84 for csr16-single.
//
// Where converted (csr16_from_device_csr, the builder below): on the
// device where no row is wide, setup within 0.01 s of CSR's for 0.6-1.6 GB
// (stencil, banded, FEM bs = 3 and 6; H200), against 0.24-1.7 s where wide
// rows send the matrix to the host (CSR16 1.2 ns per byte, 0.63-1.27;
// csr16-single 2.1, 1.34-2.36).
constexpr double kCsr16OnDevice = 0.01e-9;
constexpr double kCsr16OnHost = 1.2e-9, kCsr16SingleOnHost = 2.1e-9;

}  // namespace hsparse::cuda

#ifdef HSPARSE_HAVE_CUDA
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "hsparse/backends/cuda/csr_spmv.hpp"
#include "hsparse/backends/cuda/device_conversions.hpp"
#include "hsparse/backends/cuda/format_spmv.hpp"

namespace hsparse::cuda {

// The plan over CSR16 arrays holding values of type Stored (V or single_t<V>).
template <class Stored, class V, class I, class HostConversion>
Built<V> build_csr16_family(const Executor& ex, const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel, HostConversion host_conversion) {
  struct Storage {
    std::optional<DeviceCsr16<Stored, I>> csr16;
    Csr16AdaptiveSchedules adaptive;
    DeviceArray<unsigned char> workspace;
  };
  auto s = std::make_shared<Storage>();
  const Executor* e = &ex;
  Built<V> b;
  std::vector<I> wide_row_ptr;  // the wide part's compacted rows (device_formats.hpp)
  // The kernel over the uploaded matrix, whose narrow part has the row
  // pointers narrow_row_ptr and narrow_nnz entries (`a`'s own when the
  // device converted it: no row is wide then).
  const auto attach = [&](std::span<const I> narrow_row_ptr, long long narrow_nnz, long long wide_nnz) {
    const DeviceCsr16<Stored, I>* m = &*s->csr16;
    if (kernel == "vector") {
      const CsrVectorParams narrow = csr_vector_fixed_rule(a.rows, narrow_nnz, ex.shape());
      const CsrVectorParams wide = csr_vector_fixed_rule(m->wide_row_count(), wide_nnz, ex.shape());
      s->workspace = DeviceArray<unsigned char>(csr16_vector_workspace_bytes(m->wide_row_count(), sizeof(V)));
      void* w = s->workspace.data();
      b.apply = [e, m, narrow, wide, w](V al, const V* x, V be, V* y) { csr16_spmv_vector(*e, al, *m, x, be, y, narrow, wide, w); };
      b.description = "-coop" + std::to_string(narrow.coop);
    } else {
      s->adaptive.narrow = csr_adaptive_schedule(narrow_row_ptr);
      if (m->wide) s->adaptive.wide = csr_adaptive_schedule(std::span<const I>(wide_row_ptr));
      s->adaptive.wide_rows = m->wide_row_count();
      s->workspace = DeviceArray<unsigned char>(s->adaptive.workspace_bytes(sizeof(V)));
      const Csr16AdaptiveSchedules* sched = &s->adaptive;
      void* w = s->workspace.data();
      b.apply = [e, m, sched, w](V al, const V* x, V be, V* y) { csr16_spmv_adaptive(*e, al, *m, x, be, y, *sched, w); };
      const long long split = sched->narrow.long_row_count + sched->wide.long_row_count;
      if (split > 0) b.description = "-split" + std::to_string(split);
    }
    if (m->wide) b.description += "-wide";
  };
  // On the device where it can (csr16_from_device_csr), else on the host.
  // The device path holds the uploaded CSR beside the CSR16 arrays it
  // writes (up to 18 bytes an entry for csr16-single with int32, against
  // the host path's 6), so it is taken only where that fits in half the
  // free memory; it validates `a` as the host conversion does (the
  // offsets of unsorted or out-of-range columns would wrap silently).
  const auto place = [&] {
    const double device_peak = static_cast<double>(a.nnz()) * (2 * sizeof(I) + sizeof(V) + sizeof(std::uint16_t) + sizeof(Stored)) +
                               3.0 * (static_cast<double>(a.rows) + 1) * sizeof(I);
    if (convert_on_device(o) && device_conversion_fits(device_peak)) {
      a.validate();
      if (csr16_wide_row_count(a) == 0) {  // checked here too, so that a matrix with wide rows is not uploaded in vain
        if (auto d = csr16_from_device_csr<Stored>(ex, a, DeviceCsr<V, I>::upload(a))) {  // nullopt: values beyond float's range
          s->csr16.emplace(std::move(*d));
          attach(std::span<const I>(a.row_ptr), static_cast<long long>(a.nnz()), 0);
          return;
        }
      }
    }
    const auto host = host_conversion();
    s->csr16.emplace(DeviceCsr16<Stored, I>::upload(host, &wide_row_ptr));
    attach(std::span<const I>(host.row_ptr), static_cast<long long>(host.values.size()), static_cast<long long>(host.wide.nnz()));
  };
  place();
  const DeviceCsr16<Stored, I>& m = *s->csr16;
  b.bytes = array_bytes(m.row_ptr) + array_bytes(m.base) + array_bytes(m.offset) + array_bytes(m.values);
  // The wide part, and its sums written and read once per product.
  if (m.wide) {
    b.bytes += array_bytes(m.wide->row_ptr) + array_bytes(m.wide->col_idx) + array_bytes(m.wide->values) + array_bytes(m.wide_rows) +
               2 * static_cast<std::size_t>(m.wide_row_count()) * sizeof(V);
  }
  b.stored = a.nnz();
  b.storage = s;
  return b;
}

}  // namespace hsparse::cuda
#endif  // HSPARSE_HAVE_CUDA
