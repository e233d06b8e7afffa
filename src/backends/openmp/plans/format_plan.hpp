#pragma once
// What the CPU backend's registrations share (plans/<format>.cpp, one per
// format: its kernels, model and builder; kernels/spmv_registry.hpp). The
// efficiencies in the models are fractions of the read bandwidth under each
// format's own minimum traffic, measured by hsparse bench on the 2-core
// build machine and the 16-core GPU host
// (docs/results/2026-11-22-spmv-suite-h200-cpu): SELL and CSR at about the
// read bandwidth, the rest lower. Conversions cost about 1 ns per byte of
// the result on 2 cores.
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "hsparse/dense/dense_matrix.hpp"
#include "hsparse/formats/format_storage.hpp"
#include "hsparse/kernels/spmv_options.hpp"
#include "hsparse/kernels/spmv_registry.hpp"

namespace hsparse::openmp {

template <class V>
using ApplyFn = std::function<void(V, std::span<const V>, V, std::span<V>)>;

// What a builder returns: the product, the matrix it keeps alive, and the facts the plan reports.
template <class V>
struct Built {
  ApplyFn<V> apply;
  std::function<void(V, const ConstDenseView<V>&, V, const DenseView<V>&)> apply_block;  // SpMM, where the format has one
  std::shared_ptr<const void> matrix;
  std::string shape;     // appended to the format's name, e.g. "-27"
  std::string kernel;    // the kernel as described, e.g. "openmp", "avx512(auto)"
  std::size_t bytes = 0, stored = 0;
};

// Each format's builder, defined with its registration in plans/<format>.cpp
// (explicitly instantiated for every value and index type) and chosen by
// build_spmv_plan (spmv_plan.cpp) through HSPARSE_FORMATS.
#define HSPARSE_DECLARE_OPENMP_BUILDER(f) \
  template <class V, class I>             \
  Built<V> build_##f(const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel);
HSPARSE_FORMATS(HSPARSE_DECLARE_OPENMP_BUILDER)
#undef HSPARSE_DECLARE_OPENMP_BUILDER

// The model's parallel units: a row each (the CPU model does not use them).
inline double rows(const FormatFootprint& f) { return static_cast<double>(f.rows); }
constexpr double kConversion = 1.0e-9;  // seconds per byte of the converted matrix, 2 cores

inline SpmvKernel reference_kernel() { return {"reference", "the serial reference (the definition the tests check against)", {}}; }

template <class M, class Fn>
auto bind(std::shared_ptr<const M> m, Fn fn) {
  return [m, fn](auto alpha, auto x, auto beta, auto y) { fn(alpha, *m, x, beta, y); };
}

// The common case: convert, then the reference or the OpenMP kernel.
template <Format F, class V, class I, class Reference, class Parallel>
Built<V> simple(const Csr<V, I>& a, const FormatOptions& layout, const std::string& kernel, Reference ref, Parallel par) {
  using M = typename FormatStorage<F>::template type<V, I>;
  auto m = std::make_shared<const M>(FormatStorage<F>::from_csr(a, layout));
  Built<V> b;
  b.apply = kernel == "reference" ? ApplyFn<V>(bind(m, ref)) : ApplyFn<V>(bind(m, par));
  b.matrix = m;
  b.kernel = kernel;
  b.bytes = FormatStorage<F>::bytes(*m);
  b.stored = FormatStorage<F>::stored(*m);
  return b;
}

}  // namespace hsparse::openmp
