#pragma once
// Where a CSR-like row's columns come from, for the kernels CSR and CSR16
// share (csr_spmv_vector.cu, csr_spmv_adaptive.cu): CSR's stored indices
// (base 0, folded away), or CSR16's row base + 16-bit offset
// (formats/csr16.hpp, issue 18's lossless index compression).
#include <cstdint>

namespace hsparse::cuda::detail {

template <class I>
struct StoredColumns {
  static constexpr bool row_base = false;
  using Stored = I;
  const I* __restrict__ col_idx;
  __device__ I base(long long) const { return 0; }
  __device__ I at(long long k) const { return col_idx[k]; }
  __device__ const Stored* stored() const { return col_idx; }
};

template <class I>
struct OffsetColumns {
  static constexpr bool row_base = true;  // a column needs its row's base: the entry alone does not name it
  using Stored = std::uint16_t;
  const I* __restrict__ row_base_of;
  const std::uint16_t* __restrict__ offset;
  __device__ I base(long long row) const { return row_base_of[row]; }
  __device__ I at(long long k) const { return offset[k]; }
  __device__ const Stored* stored() const { return offset; }
};

}  // namespace hsparse::cuda::detail
