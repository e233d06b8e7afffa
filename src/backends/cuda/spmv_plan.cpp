// The CUDA backend's plan builder (plans/spmv_plan.hpp): the GPU's layout
// defaults, each format's builder (registered with its kernels in
// plans/<format>.cpp, chosen through HSPARSE_FORMATS, so no format is named
// here), and x kept in L2 where asked.
#include "plans/format_plan.hpp"

#include "../common/spmv_plan_builders.hpp"

#include "hsparse/backends/cuda/l2_window.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda {

namespace {

template <class V, class I>
Built<V> build(const Executor& ex, const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
#define HSPARSE_CUDA_BUILD_CASE(f) \
  case Format::f: return build_##f(ex, a, o, kernel);
  switch (*o.format) { HSPARSE_FORMATS(HSPARSE_CUDA_BUILD_CASE) }
#undef HSPARSE_CUDA_BUILD_CASE
  throw Error(ErrorCode::internal, "the CUDA plan has no builder for format " + std::to_string(static_cast<int>(*o.format)));
}

// What the plan keeps: the builder's storage, and the L2 set-aside while x is kept there.
struct PlanStorage {
  std::shared_ptr<const void> built;
  std::unique_ptr<L2SetAside> l2_set_aside;
};

}  // namespace

template <class V, class I>
SpmvParts<V> build_spmv_plan(const Executor& ex, const Csr<V, I>& a, const SpmvOptions& options, const std::string& kernel) {
  SpmvOptions o = options;
  o.layout.row_alignment = 32;  // ELL and HYB: a warp's rows share each slot column
  // SELL on the GPU: C = 32 (a warp per chunk, the SELL-C-sigma paper's C =
  // the SIMD width) and no sorting unless asked (the handle tunes sigma).
  if (o.layout.chunk <= 0) o.layout.chunk = 32;
  if (o.layout.sigma <= 0) o.layout.sigma = 1;
  Built<V> b = build(ex, a, o, kernel);
  auto storage = std::make_shared<PlanStorage>();
  storage->built = std::move(b.storage);
  std::string description = std::string(to_string(*o.format)) + "/" + kernel + b.description;
  std::optional<bool> x_in_l2;
  if (o.params.count("x_in_l2") != 0) x_in_l2 = o.params.at("x_in_l2") != 0;
  if (!b.baseline && b.apply && keep_x_in_l2(x_in_l2)) {
    description += " (x in L2)";
    storage->l2_set_aside = std::make_unique<L2SetAside>();
    const Executor* e = &ex;
    const std::size_t x_bytes = static_cast<std::size_t>(a.cols) * sizeof(V);
    b.apply = [inner = std::move(b.apply), e, x_bytes](V al, const V* x, V be, V* y) {
      const ScopedL2Window window(*e, x, x_bytes);
      inner(al, x, be, y);
    };
  }
  SpmvParts<V> parts;
  parts.apply = std::move(b.apply);
  parts.apply_block = std::move(b.apply_block);
  parts.storage = std::move(storage);
  parts.description = description;
  parts.bytes = b.bytes;
  parts.stored = b.stored;
  return parts;
}

#define HSPARSE_INSTANTIATE(V, I) \
  template SpmvParts<V> build_spmv_plan(const Executor&, const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
