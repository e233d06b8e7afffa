#pragma once
// Running a kernel compiled for the CPU's SIMD level (private to the
// OpenMP backend): with_simd_level(level, body) calls body(tag) from a
// function compiled for that instruction set (AVX-512, AVX2 + FMA, or the
// baseline), tag being SimdTag<level> so that the body can choose its
// blocking per set at compile time (if constexpr). The body must be an
// always_inline lambda: it is then compiled into each copy, which is what
// makes the copies differ. The one place the kernels' per-set copies are
// made (before: three wrapper functions beside every kernel).
#include <type_traits>

#include "hsparse/core/host_system.hpp"

namespace hsparse::openmp::detail {

template <SimdLevel L>
using SimdTag = std::integral_constant<SimdLevel, L>;

template <class Body>
__attribute__((target("avx512f"))) void run_avx512(const Body& body) {
  body(SimdTag<SimdLevel::avx512>{});
}
template <class Body>
__attribute__((target("avx2,fma"))) void run_avx2(const Body& body) {
  body(SimdTag<SimdLevel::avx2>{});
}
template <class Body>
void run_baseline(const Body& body) {
  body(SimdTag<SimdLevel::baseline>{});
}

template <class Body>
void with_simd_level(SimdLevel level, const Body& body) {
  switch (level) {
    case SimdLevel::avx512: return run_avx512(body);
    case SimdLevel::avx2: return run_avx2(body);
    case SimdLevel::baseline: break;
  }
  run_baseline(body);
}

}  // namespace hsparse::openmp::detail
