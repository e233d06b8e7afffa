#pragma once
// Every CPU SpMV kernel of every format, built from one CSR matrix, behind
// one callable y = alpha*A*x + beta*y in the original ordering, called
// directly rather than through a plan: the layouts and paths a plan does not
// expose (forced OpenMP schedules, CSR's sorted rows, SELL in the solvers'
// permuted ordering, every BCSR block size and SELL chunk). Each case names
// the registered kernel it exercises (kernels/spmv_registry.hpp), so the
// per-kernel suite (unit/test_spmv_kernels.cpp, SpmvKernel.*/cpu_*) runs a
// kernel's cases in that kernel's test. Tests run each against the serial
// double-precision CSR reference. Formats that refuse a matrix (DIA or ELL
// fill limits) are reported as skipped, with the reason, rather than
// silently dropped.
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hsparse/formats/csr.hpp"
#include "hsparse/formats/format.hpp"

namespace hsparse::test {

template <class V>
struct KernelCase {
  std::string name;    // the case, e.g. "sell/C8-sigma64/openmp-avx512"
  Format format;       // the registered format and kernel it exercises, e.g. sell, "avx512"
  std::string kernel;
  std::function<void(V alpha, std::span<const V> x, V beta, std::span<V> y)> run;
};

template <class V, class I>
struct KernelCases {
  std::vector<KernelCase<V>> cases;
  std::vector<std::string> refused;  // "format: reason", the format as in the case names ("bcsr/b3", "ell")
};

// Every format for every value type (BCSR block sizes 1..8, 11, 32 with and without 64-byte alignment;
// SELL C in {1, 4, 8, 16, 32} x sigma in {1, 64, everything}, permuted or not,
// every SIMD kernel this CPU has); `only`: that format's cases alone.
template <class V, class I>
KernelCases<V, I> all_cpu_kernels(const Csr<V, I>& a, std::optional<Format> only = std::nullopt);

}  // namespace hsparse::test
