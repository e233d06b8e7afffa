#pragma once
/// @file
/// Each rank's measured SpMV speed, for a cut weighted by it (GHOST's
/// heterogeneous mode: a CPU rank and GPU ranks sharing one matrix,
/// weighted_rows in row_partition.hpp).
#include <vector>

#include "hsparse/core/communicator.hpp"
#include "hsparse/core/executor.hpp"
#include "hsparse/kernels/spmv_options.hpp"

namespace hsparse::distributed {

/// Collective: every rank's nonzeros per second, in rank order, on every
/// rank. Each rank times `options`' product on its executor, at least 0.2 s,
/// on a 27-point stencil it generates itself, sized past the cache (48^3
/// rows on a CPU, 128^3 on a GPU, whose 50-60 MB L2 would hold the smaller
/// one): the bandwidth-bound regime of the matrices that need several ranks.
std::vector<double> rank_speeds(const Communicator& comm, const ExecutorPtr& ex, const SpmvOptions& options);

}  // namespace hsparse::distributed
