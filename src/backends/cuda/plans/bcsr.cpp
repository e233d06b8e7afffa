// BCSR on the GPU: its registration and builder (kernels/spmv_registry.hpp).
// Model: 0.87-0.89 of the read bandwidth at bs = 3 with by-column's groups
// of lanes on the H100 (FEM, bcsstk16; scripts/experiments/bcsr-lanes.sh),
// so 0.87 at bs 2-5, and 0.96 at bs = 6. Bound on the H200 at 0.90 at bs =
// 6, 0.85 at bs = 3 (two block columns a lane a step: FEM and bcsstk16 at
// 0.867 and 0.834 of 4.526 TB/s), 0.80 at bs = 4 and 5 (not measured: bs =
// 3's rate with one block column a lane a step) and 0.67 at bs = 2.
#include "format_plan.hpp"

#ifdef HSPARSE_HAVE_CUDA
#include <optional>

#include "hsparse/backends/cuda/device_conversions.hpp"
#include "hsparse/backends/cuda/format_spmv.hpp"
#endif

namespace hsparse::cuda {

namespace {
// On the device: the block pattern from the host's cores, the values
// scattered on the device; setup minus CSR's 0.09-0.14 ns per byte where
// the blocks are 2 or more (FEM bs = 3 / 6, banded, bcsstk16; H100 and its
// 16-core host). On the host it cost 0.41.
constexpr double kBcsrOnDevice = 0.1e-9;
}  // namespace

BackendFormat registration_bcsr() {
  // Parallel units: a warp per block row.
  return {{{"auto", "by-column below block size 16, row-per-thread from 16"},
           {"by-block", "a warp per block row, a thread per block entry (Eberhardt and Hoemmen; b <= 5)"},
           {"by-column", "a thread per block column, 4-32 lanes per block row (Eberhardt and Hoemmen; b in 1-6, 8, 16, 32)", {""},
            {{"lanes", "lanes per block row (default: from the mean block row)", {4, 8, 16, 32}}}},
           {"row-per-thread", "a thread per row of a block row, x in shared memory (Eberhardt and Hoemmen)"},
           {"cusparse", "cuSPARSE BSR, column-major blocks (baseline)"}},
          {[](int b) { return b >= 6 ? 0.95 : b >= 2 ? 0.87 : 0.30; },
           [](const FormatFootprint& f) { return 32.0 * static_cast<double>(f.rows) / std::max(f.bcsr.block, 1); }, kBcsrOnDevice, 0,
           [](int b) { return h200_bound(b >= 6 ? 0.90 : b >= 4 ? 0.80 : b == 3 ? 0.85 : b == 2 ? 0.67 : 0.30); }}};
}

#ifdef HSPARSE_HAVE_CUDA

template <class V, class I>
Built<V> build_bcsr(const Executor& ex, const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
  struct Storage {
    std::optional<DeviceBcsr<V, I>> bcsr;
    SpmmWorkspace spmm;
  };
  auto s = std::make_shared<Storage>();
  FormatOptions layout = o.layout;
  // cuSPARSE's BSR takes block sizes from 2: its default is the fewest-bytes block among 2..8.
  int block = layout.block;
  if (block <= 0) {
    block = best_bcsr_block(a);
    if (kernel == "cusparse" && block < 2) {
      block = 2;
      for (int c = 3; c <= 8; ++c) block = bcsr_fill(a, c).bytes < bcsr_fill(a, block).bytes ? c : block;
    }
  }
  layout.block = block;
  if (convert_on_device(o)) {
    const auto staged = DeviceCsr<V, I>::upload(a);
    s->bcsr.emplace(bcsr_from_device_csr(ex, a, staged, block, layout.align_blocks, fill_limit(Format::bcsr, layout)));
  } else {
    s->bcsr.emplace(DeviceBcsr<V, I>::upload(FormatStorage<Format::bcsr>::from_csr(a, layout)));
  }
  // auto: by-column below block size 16 (measured on the H200, bs = 3: 670
  // GFLOP/s against by-block's 606 and row-per-thread's 152; bs = 1: 196
  // against 217 for by-block, a choice the tuner should avoid anyway), and
  // row-per-thread from 16 up, where Eberhardt and Hoemmen find it best.
  // by-column is compiled for 1-6, 8, 16, 32: other sizes under 16 take row-per-thread.
  const bool by_column_compiled = block <= 6 || block == 8;
  const BcsrAlgorithm algorithm = kernel == "by-block"           ? BcsrAlgorithm::by_block
                                  : kernel == "by-column"        ? BcsrAlgorithm::by_column
                                  : kernel == "row-per-thread"   ? BcsrAlgorithm::row_per_thread
                                  : block < 16 && by_column_compiled ? BcsrAlgorithm::by_column
                                                                     : BcsrAlgorithm::row_per_thread;
  // Refuse here, not at the first product, what the kernels cannot run.
  if (algorithm == BcsrAlgorithm::by_block && block > 5) {
    throw Error(ErrorCode::invalid_argument, "BCSR by-block handles block sizes up to 5 (Eberhardt and Hoemmen), not " + std::to_string(block));
  }
  if (algorithm == BcsrAlgorithm::by_column && !(by_column_compiled || block == 16 || block == 32)) {
    throw Error(ErrorCode::invalid_argument, "BCSR by-column is compiled for block sizes 1-6, 8, 16 and 32, not " + std::to_string(block));
  }
  const DeviceBcsr<V, I>* m = &*s->bcsr;
  Built<V> b;
  b.bytes = array_bytes(m->row_ptr) + array_bytes(m->col_idx) + array_bytes(m->values);
  b.stored = m->values.size();
  b.description = "-b" + std::to_string(block);
  if (kernel == "cusparse") {
    use_cusparse(b, s, std::make_unique<CusparseSpmv<V, I>>(ex, *m));
    return b;
  }
  const long long given_lanes = kernel_param(o, "lanes", 0);
  const int lanes = given_lanes > 0 ? static_cast<int>(given_lanes)
                                    : bcsr_by_column_lanes(static_cast<long long>(m->col_idx.size()), m->block_rows, block);
  if (algorithm == BcsrAlgorithm::by_column && lanes != 32) b.description += "-lanes" + std::to_string(lanes);
  const Executor* e = &ex;
  b.apply = [e, m, algorithm, lanes](V al, const V* x, V be, V* y) { bcsr_spmv(*e, algorithm, al, *m, x, be, y, lanes); };
  SpmmWorkspace* w = &s->spmm;
  b.apply_block = [e, m, w](V al, const ConstDenseView<V>& x, V be, const DenseView<V>& y) { bcsr_spmm(*e, al, *m, *w, x, be, y); };
  b.storage = s;
  return b;
}

#define HSPARSE_INSTANTIATE(V, I) template Built<V> build_bcsr(const Executor&, const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

#endif  // HSPARSE_HAVE_CUDA

}  // namespace hsparse::cuda
