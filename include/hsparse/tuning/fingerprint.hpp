#pragma once
// A matrix's identity for cached tuning choices (Reguly section 6: "if
// subsequent calls use the same pointers to matrix data and have the same
// amount of rows and non-zeros then the matrix structure is not changing").
// In process the pointers and sizes decide; across processes (the tuning
// cache on disk) a structure hash does: all row pointers and 65,536 evenly
// spaced column indices, FNV-1a, so a 100 M-nonzero matrix hashes in
// milliseconds. Values do not enter: tuning depends on the structure only.
#include <cstdint>
#include <string>

#include "hsparse/formats/csr.hpp"

namespace hsparse {

struct MatrixFingerprint {
  std::int64_t rows = 0, cols = 0;
  std::uint64_t nnz = 0, structure_hash = 0;
  const void* row_ptr = nullptr;  // identity in this process
  const void* col_idx = nullptr;
  int index_bytes = 0;
  // Same structure (sizes and hash); pointers are not compared.
  bool same_structure(const MatrixFingerprint& o) const {
    return rows == o.rows && cols == o.cols && nnz == o.nnz && structure_hash == o.structure_hash && index_bytes == o.index_bytes;
  }
  // Same arrays in this process (the cheap check of every call).
  bool same_arrays(const MatrixFingerprint& o) const {
    return row_ptr == o.row_ptr && col_idx == o.col_idx && rows == o.rows && nnz == o.nnz;
  }
  std::string key() const;  // "rows x cols nnz hash" for the cache on disk
};

template <class V, class I>
MatrixFingerprint fingerprint(const Csr<V, I>& a);

// Reguly's per-call test, without hashing: `a` uses the arrays and sizes the
// fingerprint was taken from.
template <class V, class I>
bool same_arrays(const MatrixFingerprint& f, const Csr<V, I>& a) {
  return f.row_ptr == a.row_ptr.data() && f.col_idx == a.col_idx.data() && f.rows == a.rows &&
         f.nnz == static_cast<std::uint64_t>(a.nnz());
}

}  // namespace hsparse
