// SpMM on the CPU (kernels/csr_spmm.hpp). Per pass of up to kSpmmColumns
// columns, X's columns are first packed row-major (packed_passes.hpp), so
// each nonzero's KC products read one contiguous run instead of KC values
// ld apart (the gathers of KC SpMVs); then rows in
// parallel (the CSR kernel's schedule rule), KC sums per row in a fixed-size
// array the compiler keeps in vector registers, A's entries read once.
#include <array>
#include <complex>
#include <vector>

#include "hsparse/core/host_system.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/kernels/csr_spmm.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "packed_passes.hpp"
#include "simd_dispatch.hpp"
#include "simd_vector.hpp"

namespace hsparse::openmp {

namespace {

constexpr long long kRowChunk = 64;  // rows per task

// Rows [r0, r1) of one pass: KC sums per row, A's entries read once. Real
// types with KC values of 16 to 64 bytes: the sums are a vector
// (simd_vector.hpp), each nonzero one broadcast and one vector FMA with
// X's packed row, two vectors of sums (even and odd entries) so that a
// row's FMAs are two chains, not one (2-core Zen 4, one thread, 27-point
// stencil of 64,000 rows, k = 2 / 4 / 8: 1.09 / 2.04 / 2.89 ms against
// 3.04 / 3.88 / 4.71 with the loop below). Otherwise a loop per
// value, which the compiler vectorises well enough at 128 and 256 bytes
// (k = 16 / 32 in double: 8.8 / 21.2 ms, against 9.7 / 22.6 for vectors).
template <int KC, class V, class I>
[[gnu::always_inline]] inline void spmm_rows(V alpha, const Csr<V, I>& a, const V* xr, int kc, V beta, V* ys, long long ldy, long long r0, long long r1) {
  constexpr int kBytes = KC * static_cast<int>(sizeof(V));
  for (long long i = r0; i < r1; ++i) {
    std::array<V, KC> acc{};
    const auto begin = a.row_ptr[static_cast<std::size_t>(i)], end = a.row_ptr[static_cast<std::size_t>(i) + 1];
    if constexpr (!is_complex_v<V> && kBytes >= 16 && kBytes <= 64) {
      using Row = detail::Vec<V, kBytes>;
      const auto at = [&](auto p) __attribute__((always_inline)) {  // entry p times X's packed row of its column
        return a.values[static_cast<std::size_t>(p)] * detail::load_vec<V, kBytes>(xr + static_cast<long long>(a.col_idx[static_cast<std::size_t>(p)]) * KC);
      };
      Row even{}, odd{};
      auto p = begin;
      for (; p + 1 < end; p += 2) even += at(p), odd += at(p + 1);
      if (p < end) even += at(p);
      detail::store_vec<V, kBytes>(acc.data(), even + odd);
    } else {
      for (auto p = begin; p < end; ++p) {
        const V v = a.values[static_cast<std::size_t>(p)];
        const V* xc = xr + static_cast<long long>(a.col_idx[static_cast<std::size_t>(p)]) * KC;
        for (int j = 0; j < KC; ++j) acc[static_cast<std::size_t>(j)] += v * xc[j];
      }
    }
    for (int j = 0; j < kc; ++j) {
      V& out = ys[i + j * ldy];
      out = beta == V(0) ? alpha * acc[static_cast<std::size_t>(j)] : alpha * acc[static_cast<std::size_t>(j)] + beta * out;
    }
  }
}

// The rows compiled for the SIMD level (simd_dispatch.hpp; complex types:
// the baseline): the KC-wide updates are vector FMAs only where the
// compiler may use them.
template <int KC, class V, class I>
void spmm_pass(V alpha, const Csr<V, I>& a, const V* xr, int kc, V beta, V* ys, long long ldy, bool guided) {
  const SimdLevel level = is_complex_v<V> ? SimdLevel::baseline : simd_level();
  const long long chunks = (static_cast<long long>(a.rows) + kRowChunk - 1) / kRowChunk;
  auto chunk = [&](long long c) {
    detail::with_simd_level(level, [&](auto) __attribute__((always_inline)) {
      spmm_rows<KC>(alpha, a, xr, kc, beta, ys, ldy, c * kRowChunk, std::min<long long>(a.rows, (c + 1) * kRowChunk));
    });
  };
  if (guided) {
#pragma omp parallel for schedule(guided, 1)
    for (long long c = 0; c < chunks; ++c) chunk(c);
  } else {
#pragma omp parallel for schedule(static)
    for (long long c = 0; c < chunks; ++c) chunk(c);
  }
}

}  // namespace

template <class V, class I>
void csr_spmm(V alpha, const Csr<V, I>& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y) {
  check_spmm_shapes<V, I>(a, x, y);
  const bool guided = choose_schedule(a) == Schedule::guided_rows;
  detail::for_each_packed_pass(x, [&](auto width, const V* packed, int kc, long long j0) {
    spmm_pass<decltype(width)::value>(alpha, a, packed, kc, beta, y.data + j0 * y.ld, y.ld, guided);
  });
}

#define HSPARSE_INSTANTIATE(V, I) template void csr_spmm(V, const Csr<V, I>&, const ConstDenseView<V>&, V, const DenseView<V>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
