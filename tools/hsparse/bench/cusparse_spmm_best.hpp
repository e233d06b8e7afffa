#pragma once
// The baseline of hsparse's SpMM on the GPU, for `hsparse spmm` and
// `hsparse bench --dense` alike: cuSPARSE's SpMM in every variant it offers
// for CSR (cuda::cusparse_spmm_variants: algorithm x order of X and Y),
// each checked against the reference SpMM, the fastest correct one kept.
// Issue 35 holds our SpMM to "the best cuSPARSE SpMM (any algorithm, either
// layout)"; the default algorithm alone was up to 2x slower than the best
// (H200: 27-point stencil at k = 32, column-major default 630 GFLOP/s,
// row-major ALG2 1238; ../shared/ENVIRONMENT.md).
#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "hsparse/backends/cuda/device_formats.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/dense/dense_matrix.hpp"
#include "hsparse/formats/csr.hpp"

namespace hsparse::bench {

struct SpmmBaseline {
  std::string variant;  // e.g. "ALG2, row-major"
  TimingSummary timing;
};

// Y = A X by each variant; x is X (column-major) with xh its host copy, y a
// scratch Y of the same shape, expect the reference Y (column-major).
// Prints one line per variant (its time, or why it did not run or was not
// taken). None when no variant ran correctly. `stop` (Ctrl-C) ends the
// search early.
template <class V, class I>
std::optional<SpmmBaseline> fastest_cusparse_spmm(const Executor& ex, const cuda::DeviceCsr<V, I>& a_device, const Csr<V, I>& a, const std::vector<V>& xh,
                                                  const DenseMatrix<V>& x, DenseMatrix<V>& y, const std::vector<V>& expect, double min_time_s,
                                                  int min_repetitions, const std::atomic<bool>* stop = nullptr);

}  // namespace hsparse::bench
