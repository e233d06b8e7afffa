// SpMM on the CPU (kernels/csr_spmm.hpp). Per pass of up to kSpmmColumns
// columns, X's columns are first packed row-major (x_r[c * KC + j] =
// X(c, j0 + j)), so each nonzero's KC products read one contiguous run
// instead of KC values ld apart (the gathers of KC SpMVs); then rows in
// parallel (the CSR kernel's schedule rule), KC sums per row in a fixed-size
// array the compiler keeps in vector registers, A's entries read once.
#include <array>
#include <complex>
#include <vector>

#include "hsparse/core/types.hpp"
#include "hsparse/kernels/csr_spmm.hpp"
#include "hsparse/kernels/csr_spmv.hpp"

namespace hsparse::openmp {

namespace {

constexpr long long kRowChunk = 64;  // rows per task

// Rows [r0, r1) of one pass: KC sums per row, A's entries read once.
template <int KC, class V, class I>
[[gnu::always_inline]] inline void spmm_rows(V alpha, const Csr<V, I>& a, const V* xr, int kc, V beta, V* ys, long long ldy, long long r0, long long r1) {
  for (long long i = r0; i < r1; ++i) {
    std::array<V, KC> acc{};
    for (auto p = a.row_ptr[static_cast<std::size_t>(i)]; p < a.row_ptr[static_cast<std::size_t>(i) + 1]; ++p) {
      const V v = a.values[static_cast<std::size_t>(p)];
      const V* xc = xr + static_cast<long long>(a.col_idx[static_cast<std::size_t>(p)]) * KC;
#pragma omp simd
      for (int j = 0; j < KC; ++j) acc[static_cast<std::size_t>(j)] += v * xc[j];
    }
    for (int j = 0; j < kc; ++j) {
      V& out = ys[i + j * ldy];
      out = beta == V(0) ? alpha * acc[static_cast<std::size_t>(j)] : alpha * acc[static_cast<std::size_t>(j)] + beta * out;
    }
  }
}

// The row loop compiled for AVX-512, AVX2 + FMA and the baseline, chosen by
// the CPU's features (as the GEMM's micro-kernel): the KC-wide updates are
// vector FMAs only where the compiler may use them.
template <int KC, class V, class I>
__attribute__((target("avx512f"))) void rows_avx512(V al, const Csr<V, I>& a, const V* xr, int kc, V be, V* ys, long long ldy, long long r0, long long r1) {
  spmm_rows<KC>(al, a, xr, kc, be, ys, ldy, r0, r1);
}
template <int KC, class V, class I>
__attribute__((target("avx2,fma"))) void rows_avx2(V al, const Csr<V, I>& a, const V* xr, int kc, V be, V* ys, long long ldy, long long r0, long long r1) {
  spmm_rows<KC>(al, a, xr, kc, be, ys, ldy, r0, r1);
}
template <int KC, class V, class I>
void rows_baseline(V al, const Csr<V, I>& a, const V* xr, int kc, V be, V* ys, long long ldy, long long r0, long long r1) {
  spmm_rows<KC>(al, a, xr, kc, be, ys, ldy, r0, r1);
}

template <int KC, class V, class I>
void spmm_pass(V alpha, const Csr<V, I>& a, const V* xr, int kc, V beta, V* ys, long long ldy, bool guided) {
  using Fn = void (*)(V, const Csr<V, I>&, const V*, int, V, V*, long long, long long, long long);
  static const Fn fn = [] {
    if constexpr (is_complex_v<V>) {
      return static_cast<Fn>(rows_baseline<KC, V, I>);
    } else {
      if (__builtin_cpu_supports("avx512f")) return static_cast<Fn>(rows_avx512<KC, V, I>);
      if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return static_cast<Fn>(rows_avx2<KC, V, I>);
      return static_cast<Fn>(rows_baseline<KC, V, I>);
    }
  }();
  const long long chunks = (static_cast<long long>(a.rows) + kRowChunk - 1) / kRowChunk;
  auto chunk = [&](long long c) { fn(alpha, a, xr, kc, beta, ys, ldy, c * kRowChunk, std::min<long long>(a.rows, (c + 1) * kRowChunk)); };
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
  const long long k = x.cols, cols = a.cols;
  const bool guided = choose_schedule(a) == Schedule::guided_rows;
  // The packed X is kept per calling thread and only grows: a fresh buffer
  // per product cost a page fault per 4 KiB (measured: SpMM of 32 columns
  // 5x slower than 32 SpMVs on a 300,000-column matrix, mostly system time).
  thread_local std::vector<V> xr;
  for (long long j0 = 0; j0 < k; j0 += kSpmmColumns) {
    const int kc = static_cast<int>(std::min<long long>(kSpmmColumns, k - j0));
    const int KC = kc <= 1 ? 1 : kc <= 2 ? 2 : kc <= 4 ? 4 : kc <= 8 ? 8 : kc <= 16 ? 16 : 32;
    if (xr.size() < static_cast<std::size_t>(cols * KC)) xr.resize(static_cast<std::size_t>(cols * KC));
    V* const packed = xr.data();
#pragma omp parallel for schedule(static)
    for (long long c = 0; c < cols; ++c) {
      for (int j = 0; j < kc; ++j) packed[c * KC + j] = x(c, j0 + j);
      for (int j = kc; j < KC; ++j) packed[c * KC + j] = V(0);  // padding columns
    }
    V* ys = y.data + j0 * y.ld;
    switch (KC) {
      case 1: spmm_pass<1>(alpha, a, xr.data(), kc, beta, ys, y.ld, guided); break;
      case 2: spmm_pass<2>(alpha, a, xr.data(), kc, beta, ys, y.ld, guided); break;
      case 4: spmm_pass<4>(alpha, a, xr.data(), kc, beta, ys, y.ld, guided); break;
      case 8: spmm_pass<8>(alpha, a, xr.data(), kc, beta, ys, y.ld, guided); break;
      case 16: spmm_pass<16>(alpha, a, xr.data(), kc, beta, ys, y.ld, guided); break;
      default: spmm_pass<32>(alpha, a, xr.data(), kc, beta, ys, y.ld, guided); break;
    }
  }
}

#define HSPARSE_INSTANTIATE(V, I) template void csr_spmm(V, const Csr<V, I>&, const ConstDenseView<V>&, V, const DenseView<V>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
