#pragma once
/// @file
/// dst[i] = src[indices[i]]: how a rank packs the entries of x that its
/// neighbours need into one contiguous send buffer before the halo exchange
/// (distributed/distributed_spmv.hpp). Any value type; a plain copy, so the
/// result is exact.
///
/// One declaration, one implementation per backend:
///   hsparse::reference::gather  here, serial, the definition
///   hsparse::openmp::gather     here, OpenMP
///   hsparse::cuda::gather       backends/cuda/gather.hpp, on device data
/// The indices are not checked here; their maker (the halo pattern) checked
/// them against the rank's owned range.
#include <cstdint>
#include <span>

#include "hsparse/core/error.hpp"

namespace hsparse {

namespace reference {
/// dst[i] = src[indices[i]] for i < indices.size(); dst has indices.size() entries (checked).
template <class V>
void gather(std::span<const V> src, std::span<const std::int64_t> indices, std::span<V> dst) {
  if (dst.size() != indices.size()) throw Error(ErrorCode::invalid_argument, "gather: the output and the index list differ in length");
  for (std::size_t i = 0; i < indices.size(); ++i) dst[i] = src[static_cast<std::size_t>(indices[i])];
}
}  // namespace reference

namespace openmp {
/// The reference's result, by OpenMP threads.
template <class V>
void gather(std::span<const V> src, std::span<const std::int64_t> indices, std::span<V> dst) {
  if (dst.size() != indices.size()) throw Error(ErrorCode::invalid_argument, "gather: the output and the index list differ in length");
  const auto n = static_cast<long long>(indices.size());
  const V* s = src.data();
  const std::int64_t* idx = indices.data();
  V* d = dst.data();
#pragma omp parallel for schedule(static) if (n > 16384)
  for (long long i = 0; i < n; ++i) d[i] = s[idx[i]];
}
}  // namespace openmp

}  // namespace hsparse
