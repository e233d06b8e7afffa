// The CPU backend's plan builder (plans/spmv_plan.hpp): each format's
// builder, registered with its kernels in plans/<format>.cpp, chosen through
// HSPARSE_FORMATS (formats/format.hpp), so no format is named here.
#include "plans/format_plan.hpp"

#include "../common/spmv_plan_builders.hpp"

#include "hsparse/core/error.hpp"

namespace hsparse::openmp {

namespace {

template <class V, class I>
Built<V> build(const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
#define HSPARSE_OPENMP_BUILD_CASE(f) \
  case Format::f: return build_##f(a, o, kernel);
  switch (*o.format) { HSPARSE_FORMATS(HSPARSE_OPENMP_BUILD_CASE) }
#undef HSPARSE_OPENMP_BUILD_CASE
  throw Error(ErrorCode::internal, "the CPU plan has no builder for format " + std::to_string(static_cast<int>(*o.format)));
}

}  // namespace

template <class V, class I>
SpmvParts<V> build_spmv_plan(const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel) {
  Built<V> b = build(a, o, kernel);
  SpmvParts<V> parts;
  // The kernels take spans: the plan's raw-pointer product gives them the matrix's sizes.
  const auto rows = static_cast<std::size_t>(a.rows), cols = static_cast<std::size_t>(a.cols);
  parts.apply = [fn = std::move(b.apply), rows, cols](V al, const V* x, V be, V* y) {
    fn(al, std::span<const V>(x, cols), be, std::span<V>(y, rows));
  };
  parts.apply_block = std::move(b.apply_block);
  parts.storage = std::move(b.matrix);
  parts.bytes = b.bytes;
  parts.stored = b.stored;
  parts.description = std::string(to_string(*o.format)) + b.shape + "/" + b.kernel;
  return parts;
}

#define HSPARSE_INSTANTIATE(V, I) \
  template SpmvParts<V> build_spmv_plan(const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
