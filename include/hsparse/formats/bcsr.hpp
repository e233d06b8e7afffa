#pragma once
/// @file
/// Block CSR (BCSR, "BSR"): square block x block dense blocks in CSR order
/// (Eberhardt and Hoemmen, "Storage format: Block CSR"). Blocks are stored
/// column-major inside, as in the seed's kernel (val[block][col][row]):
///
///   entry (i, j) of block b:  values[b * block_stride + j * block + i]
///
/// block_stride = block*block, or rounded up to 64 bytes for the seed's
/// "padded/aligned" variant. Rows and columns that do not fill the last
/// block row/column are padded with zeros (recorded in zero_fill).
#include <vector>

#include "hsparse/core/aligned_vector.hpp"
#include "hsparse/formats/csr.hpp"

namespace hsparse {

template <class V, class I>
/// A block CSR matrix (BSR): square blocks of `block` x `block` values,
/// column-major inside a block (see above), addressed by block row and block column.
struct Bcsr {
  I rows = 0;  ///< rows of the matrix
  I cols = 0;  ///< columns of the matrix
  int block = 1;  ///< block size (1..32)
  I block_rows = 0;  ///< rows of blocks: ceil(rows / block)
  I block_cols = 0;  ///< columns of blocks: ceil(cols / block)
  std::size_t block_stride = 1;  ///< values between consecutive blocks
  std::size_t nnz = 0;           ///< entries of the source matrix
  std::vector<I> row_ptr;        ///< block_rows + 1
  std::vector<I> col_idx;        ///< block column of each block
  AlignedVector<V> values;       ///< 64-byte aligned

  /// Number of stored blocks.
  std::size_t blocks() const { return col_idx.size(); }
  /// Zeros stored to fill the blocks.
  std::size_t zero_fill() const { return blocks() * static_cast<std::size_t>(block) * block - nnz; }
  /// Bytes of the stored arrays (values, block columns, block row offsets).
  std::size_t bytes() const {
    return values.size() * sizeof(V) + (col_idx.size() + row_ptr.size()) * sizeof(I);
  }
  /// Error(invalid_matrix) naming the first inconsistency of the arrays.
  void validate() const;
};

/// Refuses (Error(invalid_argument), naming the block count and fill) when
/// the stored block entries exceed max_fill * nnz and 10^6: a scattered matrix
/// in 32x32 blocks would store a thousand zeros per nonzero.
template <class V, class I>
Bcsr<V, I> bcsr_from_csr(const Csr<V, I>& a, int block, bool align_blocks_64 = false, double max_fill = 16.0);
/// bcsr_from_csr's blocks without their values (values left empty): the
/// block row offsets, the sorted block columns and the same refusal beyond
/// max_fill. The GPU scatters the values itself (bcsr_from_device_csr).
template <class V, class I>
Bcsr<V, I> bcsr_pattern(const Csr<V, I>& a, int block, bool align_blocks_64 = false, double max_fill = 16.0);
/// Stored zeros inside blocks that were not entries are dropped, so the round
/// trip is exact for matrices without explicit zeros.
template <class V, class I>
Csr<V, I> bcsr_to_csr(const Bcsr<V, I>& b);

}  // namespace hsparse
