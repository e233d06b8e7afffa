#pragma once
// Where the GPU's CSR vector kernel (Reguly and Giles: a group of coop
// threads per row, section 5.4's fixed rule) is the advisor's CSR kernel
// instead of CSR adaptive (tuning/advisor.cpp): long rows of even length,
// on a card where CSR adaptive is bound by its multiprocessors, not by the
// memory. Backend-neutral, so the rule is tested without a GPU.
//
// Why: CSR adaptive stages each run of rows in shared memory and reduces it
// there; its instructions cap it near 0.83 of the H200's read bandwidth
// (the CSR registration's sm_bound, backends/cuda/spmv_kernels.cpp). The
// vector kernel reduces in registers and streams at a fixed share of the
// bandwidth on both cards, below adaptive's where the memory binds first.
// Measured (L2 flushed, GFLOP/s, adaptive / vector, same run; the share
// is of the read bandwidth, the model's bytes):
//  - H200 (4.62 TB/s), c4bb416, 2026-11-27 (docs/results/2026-11-27-issue37-h200-bcsr32):
//    FEM bs = 3 (79 a row) 583 / 641 (0.85), FEM bs = 6 (156) 590 / 690
//    (0.90), replicated bcsstk16 (59) 580 / 609 (0.81), banded with 33,
//    65 and 129 a row 540 / 599, 594 / 628, 612 / 678; the shorter rows
//    stay with adaptive: stencil (25-27 a row) 577 / 510, banded (13)
//    565 / 533, cage10 (13) 525 / 516;
//  - H100 (3.08 TB/s), 5510605, 2026-11-27 (docs/results/2026-11-27-issue37-h100-head):
//    adaptive ahead everywhere, FEM bs = 3 473 / 447 (0.89), FEM bs = 6
//    492 / 460 (0.91), bcsstk16 469 / 433 (0.87).
// So kCsrVectorStreamEfficiency is the vector kernel's share on both cards,
// and it applies to rows of at least kCsrVectorMinMeanRow entries on
// average whose lengths vary by at most kCsrVectorMaxRowSpread (the
// coefficient of variation: bcsstk16 0.29, FEM 0.18; a power law's 3.4).
// Where rows vary more, a group sized for the mean idles on the short rows
// and serialises the long ones.
#include "hsparse/formats/row_statistics.hpp"

namespace hsparse {

inline constexpr double kCsrVectorMinMeanRow = 32;
inline constexpr double kCsrVectorMaxRowSpread = 0.5;
inline constexpr double kCsrVectorStreamEfficiency = 0.87;

inline bool csr_vector_suits(const RowStatistics& rows) {
  return rows.mean_length >= kCsrVectorMinMeanRow && rows.coefficient_of_variation <= kCsrVectorMaxRowSpread;
}

}  // namespace hsparse
