#pragma once
// SpMV kernels of the non-CSR formats, y = alpha*A*x + beta*y, one
// declaration each, implemented per backend (see csr_spmv.hpp for the CSR
// kernels and the conventions: beta == 0 leaves y unread; sizes are checked).
//
//   reference::  serial, written straight from the format's layout (the oracle)
//   openmp::     parallel CPU kernels
//
// Padded formats (ELL, HYB's ELL part, SELL-C-sigma) multiply padding zeros
// by x at the row's own last column: with non-finite x entries a padded
// empty row may give NaN, as in cuSPARSE's padded formats.
#include <optional>
#include <span>

#include "hsparse/kernels/csr_spmv.hpp"

#include "hsparse/formats/bcsr.hpp"
#include "hsparse/formats/coo.hpp"
#include "hsparse/formats/csr16.hpp"
#include "hsparse/formats/dia.hpp"
#include "hsparse/formats/ell.hpp"
#include "hsparse/formats/hyb.hpp"
#include "hsparse/formats/sell_c_sigma.hpp"

namespace hsparse {

namespace reference {
template <class V, class I> void coo_spmv(V alpha, const Coo<V, I>& a, std::span<const V> x, V beta, std::span<V> y);
template <class V, class I> void ell_spmv(V alpha, const Ell<V, I>& a, std::span<const V> x, V beta, std::span<V> y);
template <class V, class I> void hyb_spmv(V alpha, const Hyb<V, I>& a, std::span<const V> x, V beta, std::span<V> y);
template <class V, class I> void dia_spmv(V alpha, const Dia<V, I>& a, std::span<const V> x, V beta, std::span<V> y);
template <class V, class I> void bcsr_spmv(V alpha, const Bcsr<V, I>& a, std::span<const V> x, V beta, std::span<V> y);
// x and y in the original ordering, or both in the sorted one when a.permuted_columns.
template <class V, class I> void sell_spmv(V alpha, const SellCSigma<V, I>& a, std::span<const V> x, V beta, std::span<V> y);
// S: the stored values' type, V (csr16) or single_t<V> (csr16-single, products in V).
template <class V, class S, class I> void csr16_spmv(V alpha, const Csr16<S, I>& a, std::span<const V> x, V beta, std::span<V> y);
}  // namespace reference

namespace openmp {
// Entries split evenly among threads (rows may be shared: their partial sums
// are combined after the parallel loop, deterministically). Needs entries
// sorted by row (csr_to_coo and the reader's canonical form are); an
// unsorted COO is detected and reported as Error(invalid_argument).
template <class V, class I> void coo_spmv(V alpha, const Coo<V, I>& a, std::span<const V> x, V beta, std::span<V> y);
template <class V, class I> void ell_spmv(V alpha, const Ell<V, I>& a, std::span<const V> x, V beta, std::span<V> y);
template <class V, class I> void hyb_spmv(V alpha, const Hyb<V, I>& a, std::span<const V> x, V beta, std::span<V> y);
template <class V, class I> void dia_spmv(V alpha, const Dia<V, I>& a, std::span<const V> x, V beta, std::span<V> y);
// The seed's block-row algorithm; block sizes 1 to 8 are compile-time
// specialisations, larger ones take a run-time loop.
template <class V, class I> void bcsr_spmv(V alpha, const Bcsr<V, I>& a, std::span<const V> x, V beta, std::span<V> y);
// Row-parallel like CSR; a row's sum covers its narrow entries and, in the
// same pass, its wide-part entries (a row is in one part only). S as the reference's.
template <class V, class S, class I> void csr16_spmv(V alpha, const Csr16<S, I>& a, std::span<const V> x, V beta, std::span<V> y);

enum class SellKernel { automatic, portable, avx2, avx512 };
const char* to_string(SellKernel);
// The SIMD kernel `automatic` picks for this CPU, value type, index type and C.
template <class V, class I> SellKernel best_sell_kernel(const SellCSigma<V, I>& a);
// Throws Error(unsupported) when the requested SIMD kernel does not match the
// CPU (AVX2+FMA, AVX-512F), the chunk height (AVX2: C = 4 double, 8 float;
// AVX-512: C = 8 double, 16 float) or the index type (int32 only).
// The OpenMP schedule of eq. (15) applied to chunk work (chunk-length
// variation); sell_spmv computes it when not given (one pass over the chunks).
template <class V, class I> Schedule choose_sell_schedule(const SellCSigma<V, I>& a);
template <class V, class I>
void sell_spmv(V alpha, const SellCSigma<V, I>& a, std::span<const V> x, V beta, std::span<V> y,
               SellKernel kernel = SellKernel::automatic, std::optional<Schedule> schedule = std::nullopt);
// The check sell_spmv makes, on its own (for plans that choose once).
template <class V, class I> void require_sell_kernel(const SellCSigma<V, I>& a, SellKernel kernel);
}  // namespace openmp

}  // namespace hsparse
