#pragma once
// What the CUDA backend's registrations share (plans/<format>.cpp, one per
// format: its kernels, model and builder; kernels/spmv_registry.hpp). The
// registrations compile in every build, so `hsparse info --formats` lists
// the GPU kernels without a GPU; the builders only with CUDA.
//
// Each kernel family's speed, as fractions of the read bandwidth under the
// model's own traffic (measured GFLOP/s over the model's roofline, hsparse
// bench's model_gflops column), has three parts, each measured where its
// registration says:
//  - efficiency: where memory limits it, measured on the H100 (3.07 TB/s,
//    the regular matrices of the default suite,
//    docs/results/2026-11-26-l2-window-setups-h100);
//  - sm_bound: the bytes per multiprocessor cycle it cannot pass, from the
//    H200 (4.53 TB/s, same 132 SMs at 1.98 GHz), where the same kernels
//    reach fewer of the bytes offered
//    (docs/results/2026-11-27-dia-tiles-bcsr-unroll-h200); ELL and HYB run
//    at 0.90-0.98 on both cards: no bound;
//  - gather_efficiency: x's traffic beyond one read, from the random matrix
//    (random:per_row=10,rows=1e7, 80% of its modelled bytes such gathers),
//    its time less the rest's at the rates above, mean of the two cards.
//    Thread-per-row kernels keep more gathers in flight; without this term
//    the H100's stream fractions ranked CSR adaptive ahead of ELL there, and
//    ELL is 7% faster on both cards.
// With the H200's fractions alone the advisor ranked ELL first on FEM on the
// H100, where DIA and CSR adaptive were 13-16% faster and ELL's total 91% of
// the best.
// Conversions, seconds per byte of the converted matrix: the setup (upload
// plus conversion) the bench measured on the H200 and its 16-core host
// minus CSR's own upload, median over the default suite
// (docs/results/2026-11-26-bcsr-bs3-kernels-h100, "conversion costs").
#include <functional>
#include <memory>
#include <string>

#include "hsparse/formats/format_storage.hpp"
#include "hsparse/kernels/spmv_options.hpp"
#include "hsparse/kernels/spmv_registry.hpp"

#ifdef HSPARSE_HAVE_CUDA
#include "hsparse/backends/cuda/cusparse_spmv.hpp"
#include "hsparse/backends/cuda/device.hpp"
#endif

namespace hsparse::cuda {

// Parallel units: a thread per row (ELL, DIA, HYB's ELL part, SELL).
inline double rows(const FormatFootprint& f) { return static_cast<double>(f.rows); }
// CSR adaptive balances by nonzeros (CSR and CSR16).
inline double csr_units(const FormatFootprint& f) { return std::max(static_cast<double>(f.nnz) / 8, static_cast<double>(f.rows)); }
// On the device (COO, ELL, HYB without a tail): within the noise (+-20 ms)
// of CSR's upload, -0.02..+0.03 ns per byte; 0.004 (about 1 ms per GB, a
// read and a write at the device's bandwidth). At 0.02 the advisor charged
// ELL 39 ms on FEM bs = 6 and kept CSR adaptive at N = 1000, 94% of the
// best measured total.
constexpr double kOnDevice = 0.004e-9;
// An H200 fraction as bytes per multiprocessor cycle: x 4.53 TB/s / (132 SMs x 1.98 GHz).
constexpr double h200_bound(double fraction) { return fraction * 4.526e12 / (132 * 1.98e9); }

// The kernel parameter convert_on_device (added to every kernel of a format
// the GPU converts, kernels/spmv_registry.cpp): on unless set to 0.
inline bool convert_on_device(const SpmvOptions& o) { return kernel_param(o, "convert_on_device", 1) != 0; }

#ifdef HSPARSE_HAVE_CUDA

// What a builder returns: the product, what it keeps alive, and what the plan reports.
template <class V>
struct Built {
  std::function<void(V, const V*, V, V*)> apply;
  std::function<void(V, const ConstDenseView<V>&, V, const DenseView<V>&)> apply_block;  // SpMM; empty: column by column
  std::shared_ptr<const void> storage;
  std::string description;  // after "format/kernel": the layout and launch shape, e.g. "-b3-lanes8"
  std::size_t bytes = 0, stored = 0;
  bool baseline = false;    // cuSPARSE: run as its users run it (no L2 window)
};

// Each format's builder, defined with its registration in plans/<format>.cpp
// (explicitly instantiated for every value and index type) and chosen by
// build_spmv_plan (spmv_plan.cpp) through HSPARSE_FORMATS. The options'
// layout holds the GPU's defaults (spmv_plan.cpp).
#define HSPARSE_DECLARE_CUDA_BUILDER(f) \
  template <class V, class I>           \
  Built<V> build_##f(const Executor& ex, const Csr<V, I>& a, const SpmvOptions& o, const std::string& kernel);
HSPARSE_FORMATS(HSPARSE_DECLARE_CUDA_BUILDER)
#undef HSPARSE_DECLARE_CUDA_BUILDER

// Whether a conversion on the device, peaking at peak_bytes (the staged CSR
// and the converted arrays together), is taken: where it fits in half the
// free memory, so the plan's other arrays and the caller's vectors still
// fit; else the host converts and uploads only the result (SELL, DIA, CSR16).
inline bool device_conversion_fits(double peak_bytes) { return peak_bytes < 0.5 * static_cast<double>(free_device_memory()); }

// Bytes of a device array.
template <class A>
std::size_t array_bytes(const A& array) { return array.size() * sizeof(*array.data()); }

// The cuSPARSE baseline over a matrix the plan keeps (`keep`, which it reads).
template <class V, class I>
void use_cusparse(Built<V>& b, std::shared_ptr<const void> keep, std::unique_ptr<CusparseSpmv<V, I>> baseline) {
  std::shared_ptr<const CusparseSpmv<V, I>> c(std::move(baseline));
  b.apply = [c](V al, const V* x, V be, V* y) { c->apply(al, x, be, y); };
  b.storage = std::make_shared<std::pair<std::shared_ptr<const void>, std::shared_ptr<const CusparseSpmv<V, I>>>>(std::move(keep), c);
  b.baseline = true;
}

#endif  // HSPARSE_HAVE_CUDA

}  // namespace hsparse::cuda
