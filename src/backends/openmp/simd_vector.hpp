#pragma once
// GCC's generic vectors for the CPU kernels compiled per instruction set
// (private to the OpenMP backend): Vec<T, BYTES> is BYTES of T. In a
// function compiled for AVX-512 a 64-byte vector is one zmm register, for
// AVX2 two ymm, for the baseline four xmm; a vector wider than the set's
// registers splits, and too many of them spill (V S with 64-byte vectors in
// the AVX2 copy took 40x as long). Kernels written with them
// instead of loops for the auto-vectoriser, which assembled loads from
// scalar pieces and spilled sums in the tall-skinny products and in CSR
// SpMM (a 27-point stencil at k = 8: one zmm FMA per nonzero became ~20
// scalar and 256-bit instructions).
#include <cstring>

// Vec values only pass between inlined helpers: no ABI is involved.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace hsparse::openmp::detail {

template <class T, int BYTES> struct SimdVector;
template <> struct SimdVector<double, 16> { typedef double type __attribute__((vector_size(16))); };
template <> struct SimdVector<double, 32> { typedef double type __attribute__((vector_size(32))); };
template <> struct SimdVector<double, 64> { typedef double type __attribute__((vector_size(64))); };
template <> struct SimdVector<double, 128> { typedef double type __attribute__((vector_size(128))); };
template <> struct SimdVector<double, 256> { typedef double type __attribute__((vector_size(256))); };
template <> struct SimdVector<float, 8> { typedef float type __attribute__((vector_size(8))); };
template <> struct SimdVector<float, 16> { typedef float type __attribute__((vector_size(16))); };
template <> struct SimdVector<float, 32> { typedef float type __attribute__((vector_size(32))); };
template <> struct SimdVector<float, 64> { typedef float type __attribute__((vector_size(64))); };
template <> struct SimdVector<float, 128> { typedef float type __attribute__((vector_size(128))); };
template <class T, int BYTES> using Vec = typename SimdVector<T, BYTES>::type;

// BYTES / sizeof(T) values from p, any alignment.
template <class T, int BYTES>
[[gnu::always_inline]] inline Vec<T, BYTES> load_vec(const T* p) {
  Vec<T, BYTES> r;
  std::memcpy(&r, p, sizeof r);
  return r;
}
template <class T, int BYTES>
[[gnu::always_inline]] inline void store_vec(T* p, const Vec<T, BYTES>& x) { std::memcpy(p, &x, sizeof x); }

}  // namespace hsparse::openmp::detail
