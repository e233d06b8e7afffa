#pragma once
/// @file
/// dst[i] = src[indices[i]] (gather): how a rank packs the entries of x
/// that its neighbours need into one contiguous send buffer before the halo
/// exchange (distributed/distributed_spmv.hpp). Any value type; a plain
/// copy, so the result is exact.
///
/// dst[indices[i]] += src[i] (scatter_add): how the remote part's products,
/// computed for its non-empty rows only, are added to y. The indices are
/// distinct, so no two threads add to one entry.
///
/// One declaration, one implementation per backend:
///   hsparse::reference::{gather, scatter_add}  here, serial, the definition
///   hsparse::openmp::{gather, scatter_add}     here, OpenMP
///   hsparse::cuda::{gather, scatter_add}       backends/cuda/gather.hpp, on device data
/// The indices are not checked here; their maker (the halo pattern) checked
/// them against the rank's owned range.
#include <cstdint>
#include <span>
#include <string>

#include "hsparse/core/error.hpp"

namespace hsparse {

namespace detail {
// The one length check of gather and scatter_add, both backends.
inline void require_gather_lengths(std::size_t values, std::size_t indices, const char* what) {
  if (values != indices) throw Error(ErrorCode::invalid_argument, std::string(what) + ": the values and the index list differ in length");
}
}  // namespace detail

namespace reference {
/// dst[i] = src[indices[i]] for i < indices.size(); dst has indices.size() entries (checked).
template <class V>
void gather(std::span<const V> src, std::span<const std::int64_t> indices, std::span<V> dst) {
  detail::require_gather_lengths(dst.size(), indices.size(), "gather");
  for (std::size_t i = 0; i < indices.size(); ++i) dst[i] = src[static_cast<std::size_t>(indices[i])];
}
/// dst[indices[i]] += src[i] for i < indices.size(); src has indices.size() entries (checked).
template <class V>
void scatter_add(std::span<const V> src, std::span<const std::int64_t> indices, std::span<V> dst) {
  detail::require_gather_lengths(src.size(), indices.size(), "scatter_add");
  for (std::size_t i = 0; i < indices.size(); ++i) dst[static_cast<std::size_t>(indices[i])] += src[i];
}
}  // namespace reference

namespace openmp {
/// The reference's result, by OpenMP threads.
template <class V>
void gather(std::span<const V> src, std::span<const std::int64_t> indices, std::span<V> dst) {
  detail::require_gather_lengths(dst.size(), indices.size(), "gather");
  const auto n = static_cast<long long>(indices.size());
  const V* s = src.data();
  const std::int64_t* idx = indices.data();
  V* d = dst.data();
#pragma omp parallel for schedule(static) if (n > 16384)
  for (long long i = 0; i < n; ++i) d[i] = s[idx[i]];
}
/// The reference's result, by OpenMP threads (the indices are distinct).
template <class V>
void scatter_add(std::span<const V> src, std::span<const std::int64_t> indices, std::span<V> dst) {
  detail::require_gather_lengths(src.size(), indices.size(), "scatter_add");
  const auto n = static_cast<long long>(indices.size());
  const V* s = src.data();
  const std::int64_t* idx = indices.data();
  V* d = dst.data();
#pragma omp parallel for schedule(static) if (n > 16384)
  for (long long i = 0; i < n; ++i) d[idx[i]] += s[i];
}
}  // namespace openmp

}  // namespace hsparse
