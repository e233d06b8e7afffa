#include "hsparse/tuning/fingerprint.hpp"

#include <cstdio>

#include "hsparse/core/types.hpp"

namespace hsparse {

namespace {

struct Fnv1a {
  std::uint64_t h = 1469598103934665603ULL;
  void add(std::uint64_t v) {
    for (int b = 0; b < 8; ++b) {
      h ^= (v >> (8 * b)) & 0xff;
      h *= 1099511628211ULL;
    }
  }
};

}  // namespace

std::string MatrixFingerprint::key() const {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%lldx%lld nnz %llu i%d %016llx", static_cast<long long>(rows), static_cast<long long>(cols),
                static_cast<unsigned long long>(nnz), index_bytes * 8, static_cast<unsigned long long>(structure_hash));
  return buf;
}

template <class V, class I>
MatrixFingerprint fingerprint(const Csr<V, I>& a) {
  MatrixFingerprint f;
  f.rows = a.rows;
  f.cols = a.cols;
  f.nnz = a.nnz();
  f.row_ptr = a.row_ptr.data();
  f.col_idx = a.col_idx.data();
  f.index_bytes = static_cast<int>(sizeof(I));
  Fnv1a h;
  for (const I p : a.row_ptr) h.add(static_cast<std::uint64_t>(p));
  const std::size_t n = a.col_idx.size(), samples = 65536;
  if (n > 0) {
    for (std::size_t s = 0; s < samples && s < n; ++s) h.add(static_cast<std::uint64_t>(a.col_idx[n <= samples ? s : s * (n / samples)]));
  }
  f.structure_hash = h.h;
  return f;
}

#define HSPARSE_INSTANTIATE(V, I) template MatrixFingerprint fingerprint(const Csr<V, I>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
