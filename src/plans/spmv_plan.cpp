// The plan (plans/spmv_plan.hpp): the kernel name is resolved by the
// registry, the conversion by the executor's backend; a switch without a
// default makes a new backend a compile error here.
#include "hsparse/plans/spmv_plan.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/kernels/spmv_registry.hpp"
#include "hsparse/tuning/advisor.hpp"
#include "../backends/common/spmv_plan_builders.hpp"

namespace hsparse {

bool ranges_overlap(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) {
  if (a_bytes == 0 || b_bytes == 0) return false;
  // Integers, not pointers: comparing pointers into different objects with < is unspecified.
  const auto ab = reinterpret_cast<std::uintptr_t>(a), bb = reinterpret_cast<std::uintptr_t>(b);
  return ab < bb + b_bytes && bb < ab + a_bytes;
}

void check_spmv_no_overlap(const void* x, std::size_t x_bytes, const void* y, std::size_t y_bytes, const char* who) {
  if (ranges_overlap(x, x_bytes, y, y_bytes)) {
    throw Error(ErrorCode::invalid_argument, std::string(who) + ": x and y overlap in memory (y is written while x is read); pass a copy of x");
  }
}

namespace {
// The bytes a column-major view spans: ld per column but the last.
template <class V>
std::size_t view_bytes(long long rows, long long cols, long long ld) {
  return rows > 0 && cols > 0 ? static_cast<std::size_t>((cols - 1) * ld + rows) * sizeof(V) : 0;
}
}  // namespace

template <class V, class I>
SpmvOptions resolve_spmv_options(Backend backend, const Csr<V, I>& a, const SpmvOptions& given, std::string* note, const MachineModel* machine) {
  if (given.format) return given;
  if (!given.kernel.empty()) {
    throw Error(ErrorCode::invalid_argument, "kernel '" + given.kernel + "' with format auto: a kernel belongs to one format; name the format too, or leave both to the library");
  }
  if (given.spmv_count < 1) throw Error(ErrorCode::invalid_argument, "spmv_count " + std::to_string(given.spmv_count) + ": format auto needs at least 1 product");
  std::string machine_note = "given by the caller";
  FormatPrediction c;
  const MachineModel model = machine ? *machine : measured_machine(to_string(backend), &machine_note);
  SpmvOptions o = advised_options(a, model, given.spmv_count, &c, given.value_tolerance);
  // The advisor sets format, kernel, BCSR's block and SELL's sigma; every
  // other field is the caller's, and a layout field the caller set wins.
  const FormatOptions advised = o.layout;
  const std::string kernel = o.kernel;
  const Format format = *o.format;
  o = given;
  o.format = format;
  o.kernel = kernel;
  if (o.layout.block == 0) o.layout.block = advised.block;
  if (o.layout.sigma == 0) o.layout.sigma = advised.sigma;
  if (note) {
    char line[160];
    std::snprintf(line, sizeof line, "%s/%s predicted %.1f GFLOP/s over %lld products", to_string(format), kernel.c_str(), c.predicted_gflops,
                  given.spmv_count);
    *note = std::string(line) + " (machine model " + machine_note + ")";
  }
  return o;
}

template <class V, class I>
SpmvPlan<V, I>::SpmvPlan(ExecutorPtr ex, const Csr<V, I>& a, const SpmvOptions& given) : ex_(std::move(ex)), rows_(a.rows), cols_(a.cols) {
  if (!ex_) throw Error(ErrorCode::invalid_argument, "an SpMV plan needs an executor (null given)");
  Stopwatch choice_watch;
  const SpmvOptions o = resolve_spmv_options(ex_->backend(), a, given, given.format ? nullptr : &choice_);
  if (!given.format) choice_s_ = choice_watch.seconds();
  format_ = *o.format;
  const std::string kernel = choose_spmv_kernel(ex_->backend(), format_, o.kernel);
  try {
    check_kernel_params(ex_->backend(), format_, kernel, o.params);
  } catch (const Error& e) {
    if (given.format) throw;
    throw Error(e.code(), std::string("format auto chose ") + to_string(format_) + "/" + kernel + ": " + e.what());
  }
  Stopwatch watch;
  Parts parts;
  switch (ex_->backend()) {
    case Backend::cpu: parts = openmp::build_spmv_plan(a, o, kernel); break;
    case Backend::cuda:
      parts = cuda::build_spmv_plan(cuda_executor(*ex_, "a CUDA plan"), a, o, kernel);
      ex_->synchronize();
      break;
  }
  setup_s_ = watch.seconds();
  apply_ = std::move(parts.apply);
  apply_block_ = std::move(parts.apply_block);
  storage_ = std::move(parts.storage);
  description_ = std::move(parts.description);
  bytes_ = parts.bytes;
  stored_ = parts.stored;
}

template <class V, class I>
void SpmvPlan<V, I>::apply(V alpha, const Array<V>& x, V beta, Array<V>& y) const {
  if (!x.executor() || x.executor()->backend() != ex_->backend()) {
    throw Error(ErrorCode::invalid_argument, "SpmvPlan::apply: x is " + (x.executor() ? "on " + x.executor()->description() : std::string("empty")) + ", the plan on " + ex_->description());
  }
  if (!y.executor() || y.executor()->backend() != ex_->backend()) {
    throw Error(ErrorCode::invalid_argument, "SpmvPlan::apply: y is " + (y.executor() ? "on " + y.executor()->description() : std::string("empty")) + ", the plan on " + ex_->description());
  }
  check_spmv_dimensions(static_cast<long long>(rows_), static_cast<long long>(cols_), x.size(), y.size());
  apply(alpha, x.data(), beta, y.data());
}

template <class V, class I>
void SpmvPlan<V, I>::apply(V alpha, const V* x, V beta, V* y) const {
  check_spmv_no_overlap(x, static_cast<std::size_t>(cols_) * sizeof(V), y, static_cast<std::size_t>(rows_) * sizeof(V), "SpmvPlan::apply");
  apply_(alpha, x, beta, y);
}

template <class V, class I>
void SpmvPlan<V, I>::apply(V alpha, std::span<const V> x, V beta, std::span<V> y) const {
  if (ex_->backend() != Backend::cpu) {
    throw Error(ErrorCode::invalid_argument, "SpmvPlan::apply with host spans needs a CPU plan; this one is on " + ex_->description() +
                                                 " (pass Arrays or device pointers)");
  }
  check_spmv_dimensions(static_cast<long long>(rows_), static_cast<long long>(cols_), x.size(), y.size());
  apply(alpha, x.data(), beta, y.data());
}

template <class V, class I>
void SpmvPlan<V, I>::apply(V alpha, const DenseMatrix<V>& x, V beta, DenseMatrix<V>& y) const {
  for (const ExecutorPtr* e : {&x.executor(), &y.executor()}) {
    if (!*e || (*e)->backend() != ex_->backend()) {
      throw Error(ErrorCode::invalid_argument, "SpmvPlan::apply (SpMM): X and Y must be on the plan's executor (" + ex_->description() + ")");
    }
  }
  apply(alpha, x.view(), beta, y.view());
}

template <class V, class I>
void SpmvPlan<V, I>::apply(V alpha, const ConstDenseView<V>& x, V beta, const DenseView<V>& y) const {
  if (x.rows != cols_ || y.rows != rows_ || x.cols != y.cols || x.ld < std::max<long long>(1, x.rows) || y.ld < std::max<long long>(1, y.rows)) {
    throw Error(ErrorCode::invalid_argument, "SpMM shapes do not match: A " + std::to_string(rows_) + " x " + std::to_string(cols_) + ", X " +
                                                 std::to_string(x.rows) + " x " + std::to_string(x.cols) + " (ld " + std::to_string(x.ld) + "), Y " +
                                                 std::to_string(y.rows) + " x " + std::to_string(y.cols) + " (ld " + std::to_string(y.ld) + ")");
  }
  check_spmv_no_overlap(x.data, view_bytes<V>(x.rows, x.cols, x.ld), y.data, view_bytes<V>(y.rows, y.cols, y.ld), "SpmvPlan::apply (SpMM)");
  if (apply_block_ && x.cols > 1) {  // one column: the SpMV kernel is the SpMM
    apply_block_(alpha, x, beta, y);
    return;
  }
  for (long long j = 0; j < x.cols; ++j) apply_(alpha, x.data + j * x.ld, beta, y.data + j * y.ld);
}

#define HSPARSE_INSTANTIATE(V, I) \
  template class SpmvPlan<V, I>;  \
  template SpmvOptions resolve_spmv_options(Backend, const Csr<V, I>&, const SpmvOptions&, std::string*, const MachineModel*);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
