#pragma once
// CSR cut into column slabs whose part of x fits in L2, for the GPU's CSR
// "slabs" kernel: cache blocking of x for the last-level cache (Nishtala,
// Vuduc, Demmel and Yelick, "When cache blocking of sparse matrix vector
// multiply works and why", AAECC 2007, section 2; the 64 KB shared-memory
// panels, kernels/csr_panels.hpp, block for L1). Built once on the host and
// backend-neutral, so its invariants are tested without a GPU.
//
// Why: on a matrix whose columns are scattered over an x larger than L2
// (random:per_row=10,rows=1e7, x 80 MB against the H100's 50 MB L2), each
// gather misses L2 and costs a DRAM burst for 8 useful bytes: measured at
// about 8 x values of traffic per nonzero (the bench's alpha column), two
// thirds of the product's time. Cut into slabs of a third of L2, every
// pass gathers from an x slab that stays in L2 while its entries stream
// past; the price is y read and written once per slab and a row pointer per
// slab. Measured on the H100 (random:per_row=10,rows=1e7, L2
// flushed): CSR adaptive 73.4 GFLOP/s, cuSPARSE CSR 76.4, ELL 78.4; CSR
// adaptive per slab: 3 slabs 160.2, 4 slabs 180.3, 5 (the rule) 178.9, 6
// 173.0, 8 156.4. Matrices whose gathers stay near the diagonal lose: the
// circuit matrix (x 80 MB) 133 against 271 in one pass, power law (x 32 MB)
// 217 against 278; the advisor weighs that (tuning/advisor.cpp).
//
// Layout: slab s holds the columns [s * slab_cols, (s + 1) * slab_cols) as
// a CSR of all the rows (columns kept global, so each slab runs the plain
// CSR kernels), entries in their original order within a row.
#include <cstddef>
#include <vector>

#include "hsparse/formats/csr.hpp"

namespace hsparse {

// A slab's x at most a third of L2: the other two thirds hold the streaming
// matrix and y's lines in flight. Measured best between 13 and 20 MB of x
// on the H100's 50 MB (above).
inline constexpr double kSlabCacheShare = 1.0 / 3;
// Explicit slab counts: 1 (one pass, CSR adaptive itself) to kMaxSlabs.
inline constexpr int kMaxSlabs = 64;

// The advisor's figures for the slabs (tuning/advisor.cpp), measured with
// CSR adaptive per slab, evict-first (docs/results/2026-11-27-csr-slabs-h100-h200):
//  - kSlabStreamEfficiency: the fraction of the read bandwidth their
//    streamed bytes reach (entries and row pointers of every slab, y read
//    and written once more per slab after the first, x once): H100, random
//    with 10 M rows, 5 slabs, 2.2 GB in 1.118 ms, 0.64 of 3.07 TB/s;
//  - kSlabSmBytesPerCycle: the bytes per multiprocessor cycle they do not
//    pass (their gathers from L2 bound them, not the memory): H200, the
//    same matrix in 4 slabs, 2.0 GB in 0.923 ms, 0.48 of 4.52 TB/s, 8.3
//    bytes per cycle of 132 SMs at 1.98 GHz (the H100's 0.64 is 7.5);
//  - kSlabMinCacheShare: slabs only where x is larger than this share of
//    L2. Where x fits, CSR adaptive's evict-first loads keep it in L2:
//    random with 3 M rows (x 24 MB, 0.48 of the H100's L2) ran at 188.7
//    GFLOP/s in one pass and 176.4 in two slabs;
//  - kSlabSplitSecondsPerByte: the setup beyond CSR's own upload, per byte
//    of the matrix (the row pointers and the adaptive schedules on the
//    host, the entries copied on the device): 0.31-0.35 s for the 1.24 GB
//    random matrix in 5 slabs on the H100's host, CSR's upload 0.03-0.05.
inline constexpr double kSlabStreamEfficiency = 0.64;
inline constexpr double kSlabSmBytesPerCycle = 8.3;
inline constexpr double kSlabMinCacheShare = 1.0;
inline constexpr double kSlabSplitSecondsPerByte = 0.25e-9;

struct SlabShape {
  long long slab_cols = 0, slabs = 1;  // slabs = max(1, ceil(cols / slab_cols))
};

// requested_slabs 0: x's bytes over kSlabCacheShare of cache_bytes, at
// least 1; 1..kMaxSlabs: that many (fewer where cols is smaller). Throws
// Error(invalid_argument) naming the option and its range otherwise.
SlabShape csr_slab_shape(long long cols, std::size_t value_bytes, double cache_bytes, int requested_slabs);

// Each slab's row pointers (rows + 1 entries each): where every row crosses
// every slab boundary, a binary search over its increasing columns, O(rows
// x slabs x log(row length)) on the host's cores; the entries are then
// copied on either side (csr_slabs here, csr_slabs_from_device_csr on the
// GPU). Throws Error(invalid_argument) for a shape whose slabs do not cover
// the columns.
template <class V, class I>
std::vector<std::vector<I>> csr_slab_row_ptrs(const Csr<V, I>& a, const SlabShape& shape);

// The slabs of `a` on the host; each has a.rows rows and a.cols columns.
template <class V, class I>
std::vector<Csr<V, I>> csr_slabs(const Csr<V, I>& a, const SlabShape& shape);

}  // namespace hsparse
