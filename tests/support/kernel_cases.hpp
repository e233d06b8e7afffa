#pragma once
// Every CPU SpMV kernel of every format, built from one CSR matrix, behind
// one callable y = alpha*A*x + beta*y in the original ordering. Tests run
// each against the serial double-precision CSR reference. Formats that
// refuse a matrix (DIA or ELL fill limits) are reported as skipped, with
// the reason, rather than silently dropped.
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "hsparse/formats/csr.hpp"

namespace hsparse::test {

template <class V>
struct KernelCase {
  std::string name;
  std::function<void(V alpha, std::span<const V> x, V beta, std::span<V> y)> run;
};

template <class V, class I>
struct KernelCases {
  std::vector<KernelCase<V>> cases;
  std::vector<std::string> refused;  // "format: reason"
};

// Every format for every value type (BCSR block sizes 1..8, 11, 32 with and without 64-byte alignment;
// SELL C in {1, 4, 8, 16, 32} x sigma in {1, 64, everything}, permuted or not,
// every SIMD kernel this CPU has).
template <class V, class I>
KernelCases<V, I> all_cpu_kernels(const Csr<V, I>& a);

}  // namespace hsparse::test
