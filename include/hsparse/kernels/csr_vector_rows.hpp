#pragma once
// Where the GPU's CSR vector kernel (Reguly and Giles: a group of coop
// threads per row, section 5.4's fixed rule) is the advisor's kernel for
// CSR, CSR16 and csr16-single instead of their adaptive one
// (tuning/advisor.cpp): rows of even length, where its time over the
// products beats adaptive's with adaptive's preprocessing. Backend-neutral, so the rule is tested without a GPU.
//
// Why: CSR adaptive stages each run of rows in shared memory and reduces it
// there; its instructions cap it near 0.83 of the H200's read bandwidth
// (the CSR registration's sm_bound, backends/cuda/plans/csr.cpp). The
// vector kernel reduces in registers and streams at a fixed share of the
// bandwidth on both cards, below adaptive's where the memory binds first.
// Measured (L2 flushed, GFLOP/s, adaptive / vector in the same run; the
// share is of the read bandwidth under the model's bytes):
//  - H200 (4.62 TB/s, docs/results/2026-11-27-vector-dia-sell-kernels-h200): the
//    vector kernel leads on long even rows, FEM bs = 3 (79 a row) 585 / 625
//    (0.85), FEM bs = 6 (156) 589 / 678 (0.91), replicated bcsstk16 (59)
//    574 / 610 (0.83); shorter rows are a tie, stencil (27 a row) 574 / 550
//    (0.78), banded (13) 561 / 558 (0.84), cage10 (13) 524 / 542 (0.81).
//    CSR16's and csr16-single's vector kernels lead their adaptive ones on
//    every even matrix from 13 a row: CSR16 by 8-36% at 0.76-0.88 of the
//    bandwidth, csr16-single by 9-44% at 0.61-0.70 (their adaptive kernels,
//    which also decode each column in the staged loop, reach 0.60-0.77 and
//    0.44-0.61);
//  - H100 (3.08 TB/s, docs/results/2026-11-27-sell-device-dia-tiles-h200-h100): CSR
//    adaptive ahead, FEM bs = 3 458 / 449, bcsstk16 446 / 428, cage10
//    410 / 397, stencil 442 / 402; CSR16's vector kernel leads its adaptive
//    one there too (FEM bs = 3 528 / 455, stencil 483 / 474), and
//    csr16-single's by 6-43%.
// So the vector kernel is weighed on rows of at least kCsrVectorMinMeanRow
// entries on average (the shortest measured: 13) whose lengths vary by at
// most kCsrVectorMaxRowSpread (the coefficient of variation: bcsstk16 0.29,
// FEM 0.18; a power law's 3.4), at its measured share: CSR's by row length
// (below kCsrVectorLongRow the share falls, as the group's lanes hold 1-3
// entries), CSR16's and csr16-single's over every length measured. Where
// rows vary more, a group sized for the mean idles on the short rows and
// serialises the long ones. The advisor weighs it on every GPU and takes
// it where its time, with CSR adaptive's preprocessing counted
// (kCsrAdaptivePreprocessSecondsPerByte), beats adaptive's: CSR adaptive
// streams at 0.95 on the H100 (ahead of the vector kernel's 0.87, so
// adaptive from a few hundred products) and is bound by the
// multiprocessors at 0.83 on the H200 (the registration's sm_bound); CSR16's
// and csr16-single's adaptive kernels are slower than their vector ones on
// both. On short even rows the two CSR kernels are within 4% on the H200,
// and the preprocessing decides up to about a thousand products. That tie
// can fall either way with the measured bandwidth (at most 4% either way).
#include "hsparse/formats/format.hpp"
#include "hsparse/formats/row_statistics.hpp"

namespace hsparse {

inline constexpr double kCsrVectorMinMeanRow = 12;
inline constexpr double kCsrVectorMaxRowSpread = 0.5;
inline constexpr double kCsrVectorLongRow = 32;
inline constexpr double kCsrVectorStreamEfficiency = 0.87;       // CSR, rows of kCsrVectorLongRow or more
inline constexpr double kCsrVectorShortRowEfficiency = 0.81;     // CSR, shorter rows (0.78-0.84)
inline constexpr double kCsr16VectorStreamEfficiency = 0.80;     // CSR16 (0.76-0.88)
inline constexpr double kCsr16SingleVectorStreamEfficiency = 0.64;  // csr16-single (0.61-0.70: L1 and L2 bound by the x gathers)
// CSR adaptive's row blocks, built on the host at setup and uploaded (with
// the sample that decides its evict-first loads): its setup minus CSR
// scalar's, 3-21 ms for 0.3-1.9 GB on the H200's host (the suite's ten
// matrices). The work is per row, not per byte; per byte of the matrix
// (about 0.01 ns) is the model's unit and fits rows of 10-160 entries.
inline constexpr double kCsrAdaptivePreprocessSecondsPerByte = 0.01e-9;

inline bool csr_vector_suits(const RowStatistics& rows) {
  return rows.mean_length >= kCsrVectorMinMeanRow && rows.coefficient_of_variation <= kCsrVectorMaxRowSpread;
}

// The vector kernels' shares of the read bandwidth on rows where they suit
// are the CUDA registrations' vector_rows_efficiency (backends/cuda/plans/
// csr.cpp, csr16.cpp, csr16_single.cpp), from the constants above.

}  // namespace hsparse
