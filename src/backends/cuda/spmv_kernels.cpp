// The CUDA backend's kernels per format (kernels/spmv_registry.hpp), compiled
// in every build so `hsparse info --formats` lists them without a GPU.
// Each kernel family's speed, as fractions of the read bandwidth under the
// model's own traffic (measured GFLOP/s over the model's roofline, hsparse
// bench's model_gflops column), has three parts:
//  - efficiency: where memory limits it, measured on the H100 (3.07 TB/s,
//    the regular matrices of the default suite,
//    docs/results/2026-11-26-l2-window-setups-h100): CSR adaptive 0.95-0.99,
//    ELL 0.93-1.00, DIA 0.87-0.95, SELL 0.81-0.96, COO 0.84-0.98, BCSR
//    0.87-0.89 at bs = 3 with by-column's groups of lanes (FEM, bcsstk16;
//    scripts/experiments/bcsr-lanes.sh), so 0.87 at bs 2-5, and 0.96 at
//    bs = 6, CSR16 0.72-0.88, csr16-single 0.63-0.93;
//  - sm_bound: the bytes per multiprocessor cycle it cannot pass, from the
//    H200 (4.53 TB/s, same 132 SMs at 1.98 GHz), where the same kernels
//    reach fewer of the bytes offered (docs/results/2026-11-27-dia-tiles-bcsr-unroll-h200):
//    DIA 0.88 (its loads issued ahead of its products; the tiled kernel's
//    measured over modelled GFLOP/s, 0.93-1.00 on the stencil, banded and
//    FEM, match ELL's and SELL's), SELL 0.83, BCSR 0.90 at bs = 6, 0.85 at
//    bs = 3 (two block columns a lane a step: FEM and bcsstk16 at 0.867 and
//    0.834 of 4.526 TB/s), 0.80 at bs = 4 and 5 (not measured: bs = 3's
//    rate with one block column a lane a step) and 0.67 at bs = 2, CSR
//    adaptive 0.83, COO 0.72 (a lane per 8 entries), CSR16 and
//    csr16-single below. ELL and HYB run at 0.90-0.98 on both cards: no
//    bound;
//  - gather_efficiency: x's traffic beyond one read, from the random matrix
//    (random:per_row=10,rows=1e7, 80% of its modelled bytes such gathers),
//    its time less the rest's at the rates above, mean of the two cards
//    (H100 / H200): ELL 0.97 / 0.90, SELL 0.97 / 0.91, CSR adaptive 0.89 /
//    0.85, COO 0.92 / 0.84, CSR16 0.91 / 0.85, csr16-single 0.92 / 0.84.
//    Thread-per-row kernels keep more gathers in flight; without this term
//    the H100's stream fractions ranked CSR adaptive ahead of ELL there, and
//    ELL is 7% faster on both cards.
// With the H200's fractions alone the advisor ranked ELL first on FEM on the
// H100, where DIA and CSR adaptive were 13-16% faster and ELL's total 91% of
// the best (issue 37). HYB's COO tail, where it is the overflow of rows
// that are not long (rhs_reuse's long rows), stays at 0.53 of the bandwidth
// with the matrix's mean x traffic: at 0.72 the advisor chose HYB on the
// circuit matrix where it ran at 0.86x CSR adaptive
// (docs/results/2026-11-24-coo-kernel-limiters-h200), and at COO's own rates it
// ranked HYB 4% ahead of CSR adaptive on the power laws (2 M and 4 M rows),
// where it ran at 0.76-0.77x (the model puts CSR adaptive 16-25%
// slow there, HYB 8-16% fast, and the tail's x traffic on mid-length
// rows is not measured apart). The long rows' part of the tail is modelled
// as COO's kernel, which runs it (advisor.cpp): on circuit n = 1e7 Nsight
// Compute timed the tail at 126.7 us (H200,
// docs/results/2026-11-27-hyb-carries-h200-h100), where COO's stream
// bound and gather efficiency give 124 us for the model's 122 MB of
// entries and 352 MB of the hub rows' x lines.
// Conversions, seconds per byte of the converted matrix: the setup (upload
// plus conversion) the bench measured on the H200 and its 16-core host
// minus CSR's own upload, median over the default suite (circuit
// left out: it had no plain CSR row to subtract;
// docs/results/2026-11-26-bcsr-bs3-kernels-h100, "conversion costs").
//  - on the device (COO, ELL, HYB): within the noise (+-20 ms) of CSR's
//    upload, -0.02..+0.03 ns per byte; 0.004 (about 1 ms per GB, a read and
//    a write at the device's bandwidth). At 0.02 the advisor charged ELL
//    39 ms on FEM bs = 6 and kept CSR adaptive at N = 1000, 94% of the
//    best measured total.
//  - on the host, then uploaded: CSR16 1.2 ns (0.63-1.27), csr16-single
//    2.1 (1.34-2.36), where wide rows keep them off the device. DIA, BCSR
//    and SELL convert on the device (below; on the host they cost 0.57,
//    0.41 and 0.12).
#include "hsparse/kernels/spmv_registry.hpp"

#include <algorithm>

namespace hsparse::cuda {

namespace {

// Parallel units: a thread per row (ELL, DIA, HYB's ELL part, SELL), a warp
// per block row (BCSR), 8 entries per thread (COO), CSR adaptive balances
// by nonzeros.
double rows(const FormatFootprint& f) { return static_cast<double>(f.rows); }
double coo_units(const FormatFootprint& f) { return static_cast<double>(f.nnz) / 8; }
double csr_units(const FormatFootprint& f) { return std::max(static_cast<double>(f.nnz) / 8, static_cast<double>(f.rows)); }
double bcsr_units(const FormatFootprint& f) { return 32.0 * static_cast<double>(f.rows) / std::max(f.bcsr.block, 1); }
constexpr double kOnDevice = 0.004e-9;
// DIA on the device, tiles included: the host's diagonal pass, the scatter
// on the GPU. Setup minus CSR vector's (no preprocessing), per DIA byte, on
// the H200 and its host: 0.009-0.023 ns, median 0.0165 over 14 matrix runs
// (stencil, banded, FEM bs = 3 and 6). At 0.03 the advisor put CSR16 vector
// ahead of DIA on FEM bs = 3 from 4.59 TB/s (n = 48) and 4.65 (n = 74),
// where DIA's total at N = 1000 measured 5% and 12% ahead
// (docs/results/2026-11-27-dia-tiles-bcsr-unroll-h200). Not measured on the H100's
// host.
constexpr double kDiaOnDevice = 0.017e-9;
// BCSR on the device: the block pattern from the host's
// cores, the values scattered on the device; setup minus CSR's 0.09-0.14 ns
// per byte where the blocks are 2 or more (FEM bs = 3 / 6, banded,
// bcsstk16; H100 and its 16-core host).
constexpr double kBcsrOnDevice = 0.1e-9;
// SELL on the device (sell_from_device_csr): the layout (row order, chunk
// widths) from the host's O(rows) pass, the entries and padding written by
// the GPU from the uploaded CSR. Set up minus CSR vector's, per byte of the
// SELL (H200, C = 32, sigma 1 and 256): cage10 x 664
// 0.09-0.10 s for 1.36 GB, FEM bs = 3 0.03-0.07 s for 1.17 GB, the stencil
// 0.0-0.06 s for 1.21 GB (CSR's own setup varied 0.05-0.12 s there): about
// 0.06 ns per byte. The host conversion it replaces was 0.12.
constexpr double kSellOnDevice = 0.06e-9;
constexpr double kCsr16OnHost = 1.2e-9, kCsr16SingleOnHost = 2.1e-9;
// CSR16 and csr16-single on the device where no row is wide (spmv_plan.cpp):
// setup within 0.01 s of CSR's for 0.6-1.6 GB (stencil, banded, FEM bs = 3
// and 6; H200), against 0.24-1.7 s where wide
// rows send the matrix to the host.
constexpr double kCsr16OnDevice = 0.01e-9;
// HYB with a COO tail: setup minus CSR adaptive's or vector's per HYB byte
// 0.036-0.099 ns, median 0.06, on the matrices whose rows overflow the
// width (power law, circuit, random, banded; H200 and H100,
// docs/results/2026-11-27-hyb-carries-h200-h100); without
// a tail 0.004-0.018, as ELL. At 0.004 the advisor charged circuit n = 1e7
// 3 ms for a setup that took 64-83 ms beyond CSR's.
constexpr double kHybTailOnDevice = 0.06e-9;
double hyb_conversion(const FormatFootprint& f) { return f.hyb_coo_entries > 0 ? kHybTailOnDevice : kOnDevice; }
double csr16_conversion(const FormatFootprint& f) { return f.csr16_wide_rows > 0 ? kCsr16OnHost : kCsr16OnDevice; }
// Complex values are rounded to complex<float> on the host (csr16_from_device_csr).
double csr16_single_conversion(const FormatFootprint& f) { return f.csr16_wide_rows > 0 || f.complex_values ? kCsr16SingleOnHost : kCsr16OnDevice; }

// An H200 fraction as bytes per multiprocessor cycle: x 4.53 TB/s / (132 SMs x 1.98 GHz).
constexpr double h200_bound(double fraction) { return fraction * 4.526e12 / (132 * 1.98e9); }

BackendFormat make(Format format) {
  const SpmvKernel thread{"thread", "one thread per row"};
  switch (format) {
    case Format::coo:
      return {{{"segmented", "equal shares of entries per thread, segmented carries (deterministic, no atomics)"},
               {"cusparse", "cuSPARSE COO (baseline)"}},
              {[](int) { return 0.90; }, coo_units, kOnDevice, 0, [](int) { return h200_bound(0.72); }, 0.88}};
    case Format::csr:
      return {{{"adaptive", "row blocks by nonzeros, long rows split (Greathouse and Daga, CSR-Adaptive)"},
               {"vector", "a group of coop threads per row, repeat rows per group (Reguly and Giles)"},
               {"scalar", "one thread per row"},
               {"merge", "merge-path split (Merrill and Garland)"},
               {"panels", "x in 64 KB column panels staged in shared memory, a block per tile of rows x panel (cache blocking, Nishtala et al.); few, long rows"},
               {"slabs", "x cut into column slabs of a third of L2, CSR adaptive per slab adding into y (cache blocking for L2); gathers over an x larger than L2"},
               {"cusparse-alg1", "cuSPARSE CSR, CUSPARSE_SPMV_CSR_ALG1 (baseline)", {"", "no-preprocess"}},
               {"cusparse-alg2", "cuSPARSE CSR, CUSPARSE_SPMV_CSR_ALG2 (baseline)", {"", "no-preprocess"}}},
              {[](int) { return 0.95; }, csr_units, 0, 0, [](int) { return h200_bound(0.83); }, 0.87}};
    case Format::ell:
      return {{thread, {"thread2", "two neighbouring rows per thread, vector loads"}},
              {[](int) { return 0.92; }, rows, kOnDevice, 0, nullptr, 0.93}};
    case Format::hyb: return {{thread}, {[](int) { return 0.90; }, rows, kOnDevice, 0.53, nullptr, 0.93, hyb_conversion}};
    case Format::dia:
      return {{thread, {"staged", "one thread per row, x read from shared-memory windows per run of nearby diagonals"}},
              {[](int) { return 0.89; }, rows, kDiaOnDevice, 0, [](int) { return h200_bound(0.88); }}};
    case Format::bcsr:
      return {{{"auto", "by-column below block size 16, row-per-thread from 16"},
               {"by-block", "a warp per block row, a thread per block entry (Eberhardt and Hoemmen; b <= 5)"},
               {"by-column", "a thread per block column, 4-32 lanes per block row (Eberhardt and Hoemmen; b in 1-6, 8, 16, 32)"},
               {"row-per-thread", "a thread per row of a block row, x in shared memory (Eberhardt and Hoemmen)"},
               {"cusparse", "cuSPARSE BSR, column-major blocks (baseline)"}},
              {[](int b) { return b >= 6 ? 0.95 : b >= 2 ? 0.87 : 0.30; }, bcsr_units, kBcsrOnDevice, 0,
               [](int b) { return h200_bound(b >= 6 ? 0.90 : b >= 4 ? 0.80 : b == 3 ? 0.85 : b == 2 ? 0.67 : 0.30); }}};
    case Format::sell:
      return {{{"thread", "one thread per row, a warp per chunk at C = 32 (Kreutzer et al.)", {"", "sigma=256"}},
               {"threads", "T threads per row (Sliced ELLR-T)"},
               {"cusparse", "cuSPARSE SELL (baseline)"}},
              {[](int) { return 0.89; }, rows, kSellOnDevice, 0, [](int) { return h200_bound(0.83); }, 0.94}};
    // Measured (H200, L2 flushed, the suite's six even matrices):
    // adaptive at 0.60-0.77 of the read bandwidth under CSR16's bytes
    // (median 0.65), csr16-single's at 0.44-0.61 (0.54): bound by the
    // multiprocessors, which also decode each column in the staged loop.
    // Their vector kernels stream faster on even rows
    // (kernels/csr_vector_rows.hpp, the advisor's rule). On the H100
    // (3.08 TB/s, FEM bs = 3, bcsstk16 x 344, cage10
    // x 664, the stencil) adaptive reached 0.70-0.79 (CSR16) and 0.53-0.67
    // (csr16-single) of the read bandwidth, under CSR16's bytes, where
    // 0.78 and 0.72 were assumed: the efficiencies below are the medians.
    case Format::csr16:
      return {{{"adaptive", "CSR adaptive's row blocks, columns a row base + 16-bit offsets; wide rows by CSR adaptive"},
               {"vector", "CSR vector's kernel, columns a row base + 16-bit offsets (Reguly and Giles); wide rows by CSR vector"}},
              {[](int) { return 0.74; }, csr_units, kCsr16OnHost, 0, [](int) { return h200_bound(0.65); }, 0.87, csr16_conversion}};
    case Format::csr16_single:
      return {{{"adaptive", "CSR16's adaptive kernel, single values widened to the product's precision"},
               {"vector", "CSR16's vector kernel, single values widened to the product's precision"}},
              {[](int) { return 0.59; }, csr_units, kCsr16SingleOnHost, 0, [](int) { return h200_bound(0.54); }, 0.87, csr16_single_conversion}};
  }
  return {};  // unreachable: the switch covers every Format (-Werror=switch)
}

}  // namespace

const BackendFormat& spmv_registration(Format format) { return hsparse::detail::registration_of<make>(format); }

}  // namespace hsparse::cuda
