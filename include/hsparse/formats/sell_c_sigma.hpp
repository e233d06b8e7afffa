#pragma once
/// @file
/// SELL-C-sigma (Kreutzer, Hager, Wellein, Fehske, Bishop 2014, section 3):
/// rows sorted by length (descending) within windows of sigma rows, cut into
/// chunks of C rows, each chunk padded to its longest row and stored
/// column-major:
///
///   row j (0 <= j < C) of chunk c, entry k:  values[chunk_ptr[c] + k * C + j]
///   chunk_len[c] = (chunk_ptr[c+1] - chunk_ptr[c]) / C
///
/// perm[i] is the original row of sorted row i. row_len[i] is the true length
/// of sorted row i (the GPU's thread-per-row kernel stops there). Padding
/// entries hold value 0 and the row's last column (column 0 for an empty row),
/// so they touch no new x entries (section 4).
///
/// Two ways to use it (section 3.4): with permuted_columns == false, x and y
/// are in the original ordering (the kernel scatters y through perm); with
/// permuted_columns == true the matrix is P A P^T, x and y both live in the
/// sorted ordering (for solvers that stay permuted; see permute/unpermute).
#include <span>
#include <vector>

#include "hsparse/core/aligned_vector.hpp"
#include "hsparse/formats/csr.hpp"

namespace hsparse {

template <class V, class I>
/// SELL-C-sigma (Kreutzer et al.): rows sorted by length within windows of
/// sigma rows, cut into chunks of C rows, each chunk padded to its longest
/// row and stored column-major.
struct SellCSigma {
  I rows = 0;  ///< rows of the matrix
  I cols = 0;  ///< columns of the matrix
  int chunk = 8;          ///< C
  I sigma = 1;            ///< sorting scope
  bool permuted_columns = false;  ///< columns renumbered by the row permutation too (square matrices)
  std::size_t nnz = 0;  ///< entries of the source matrix
  std::vector<I> chunk_ptr;  ///< chunks + 1, in entries
  std::vector<I> chunk_len;  ///< chunks
  std::vector<I> row_len;    ///< chunks * C (padding rows have length 0)
  std::vector<I> perm;       ///< rows: sorted position -> original row
  AlignedVector<I> col_idx;  ///< 64-byte aligned, for SIMD loads
  AlignedVector<V> values;  ///< chunk-major, column-major inside a chunk

  /// Number of chunks.
  std::size_t chunks() const { return chunk_len.size(); }
  /// The paper's beta: nnz / stored slots (1 = no padding).
  double beta() const { return values.empty() ? 1.0 : static_cast<double>(nnz) / static_cast<double>(values.size()); }
  /// Bytes of the stored arrays.
  std::size_t bytes() const {
    return values.size() * (sizeof(V) + sizeof(I)) + (chunk_ptr.size() + chunk_len.size() + perm.size()) * sizeof(I);
  }
  /// Error(invalid_matrix) naming the first inconsistency of the arrays.
  void validate() const;
};

/// The layout of sell_from_csr().
struct SellOptions {
  int chunk = 8;  ///< C, rows per chunk
  long long sigma = 1;  ///< 1 = no sorting; rounded up to a multiple of chunk
  bool permute_columns = false;  ///< also renumber columns by the permutation (square matrices only)
};

template <class V, class I>
/// The SELL-C-sigma form of a; Error(invalid_argument) for a chunk or sigma out of range.
SellCSigma<V, I> sell_from_csr(const Csr<V, I>& a, const SellOptions& options);
/// sell_from_csr()'s layout without its entries: the sizes, perm, row_len,
/// chunk_len and chunk_ptr, with col_idx and values empty (the GPU fills
/// them from an uploaded CSR, backends/cuda/device_conversions.hpp).
template <class V, class I>
SellCSigma<V, I> sell_layout(const Csr<V, I>& a, const SellOptions& options);
/// SELL-C-sigma's row order (section 3.4): within each window of `sigma`
/// rows, rows by length, longest first; equal lengths keep their order, so
/// their x stays local. sigma <= 1: the original order. The conversion
/// sorts by it, and the advisor reads x's locality in it (rhs_reuse_alpha).
template <class V, class I>
std::vector<I> sell_row_order(const Csr<V, I>& a, std::int64_t sigma);
/// Back to the original ordering (exact round trip).
template <class V, class I>
Csr<V, I> sell_to_csr(const SellCSigma<V, I>& s);

/// Between the original ordering and the sorted one: sorted[i] = original[perm[i]].
template <class V, class I>
std::vector<V> sell_permute(const SellCSigma<V, I>& s, std::span<const V> original);
template <class V, class I>
/// The inverse of sell_permute: original[perm[i]] = sorted[i].
std::vector<V> sell_unpermute(const SellCSigma<V, I>& s, std::span<const V> sorted);

}  // namespace hsparse
