#pragma once
/// @file
/// The format advisor: from cheap statistics (row lengths, diagonals, block
/// fill, SELL occupancy: analyze_matrix) and the machine's measured read
/// bandwidth, predict each format's SpMV time with the roofline of the
/// SELL-C-sigma paper (eq. (10): P = b / B_c(alpha)), add its conversion
/// cost from CSR, and pick the format with the least total time over N
/// products (Reguly section 7's question: is converting worth it?), unless
/// that gains less than kGpuConversionMargin over CSR on the GPU, where CSR then stays (advisor.cpp says why).
///
/// Model inputs and where they come from:
///  - bytes of each format: analyze_matrix (padding, fill and indices counted);
///  - alpha, the x traffic per nonzero in units of sizeof V: estimated here
///    from the column pattern (rhs_reuse): x lines a row touches that
///    the previous rows did not, times the line's values per entry, sampled
///    over stretches of rows, and every distinct line of each long row;
///    1/N_nzc when x fits in a quarter of the cache;
///  - how close each kernel family gets to the bandwidth it is offered
///    (kernel_efficiency): measured by hsparse bench on the H100, the H200
///    and the build machine (each backend's plans/FORMAT.cpp says
///    where), not guessed; on the GPU the lesser of the memory-bound
///    fraction and the kernel's bytes per SM cycle over the bandwidth;
///  - conversion cost: measured setup rates of the same runs.
#include <string>
#include <vector>

#include "hsparse/formats/csr.hpp"
#include "hsparse/plans/spmv_plan.hpp"

namespace hsparse {

/// On the GPU a conversion must be predicted to gain more than this share
/// of the total over CSR, or CSR stays (advisor.cpp says why).
inline constexpr double kGpuConversionMargin = 0.03;

/// What the advisor knows of a machine (measured_machine() measures it).
struct MachineModel {
  std::string backend = "cuda";     ///< cuda or cpu
  double read_bytes_per_s = 4.5e12; ///< measured read bandwidth
  double cache_bytes = 60.0 * (1 << 20);  ///< last-level cache (the GPU's L2)
  /// Threads the machine keeps in flight (H200: 132 SMs x 2,048): a kernel
  /// with fewer parallel units (a thread per row on 10,000 rows) cannot hide
  /// memory latency, and its efficiency is scaled down in proportion.
  double resident_threads = 132.0 * 2048;
  /// Multiprocessors x their clock (H200 and H100: 132 x 1.98 GHz): what
  /// bounds the kernels whose instructions, not the memory, limit them
  /// (SpmvKernelModel::sm_bound). 0: no such bound (the CPU).
  double sm_cycles_per_s = 132 * 1.98e9;
  /// SELL-C-sigma's C for this machine, its SIMD width (the paper's choice):
  /// a warp on the GPU, AVX-512's doubles on the CPU.
  int simd_width = 32;
};

/// The model's prediction for one format.
struct FormatPrediction {
  Format format = Format::csr;  ///< the format
  std::string kernel;             ///< the kernel the plan should use
  int block = 0;                  ///< BCSR block size
  /// SELL: the sorting scope the byte model assumed (the narrowest of 1,
  /// 256, 4096 and all rows within 1% of the fewest bytes); the plan must
  /// use it, not its default.
  std::int64_t sigma = 0;
  bool possible = true;           ///< false: the format refuses the matrix (fill limits)
  std::string why;                ///< the refusal, or the model's note
  double matrix_bytes = 0;  ///< bytes the format stores
  double alpha = 0;  ///< x traffic per nonzero, in values
  double efficiency = 1;          ///< fraction of the bandwidth the kernel family reaches
  double predicted_gflops = 0;  ///< predicted rate of one product
  double spmv_seconds = 0;  ///< predicted time of one product
  double conversion_seconds = 0;  ///< beyond what CSR itself needs
  double total_seconds = 0;       ///< spmv_count products plus conversion
};

/// The advisor's ranking for a matrix and a product count.
struct Advice {
  /// The choice first, then the other possible formats by total time, then
  /// the refused. The choice is the least total, or on the GPU CSR when no
  /// conversion is predicted to gain more than kGpuConversionMargin on it (its `why` says so).
  std::vector<FormatPrediction> ranked;
  long long spmv_count = 1;  ///< the products weighed
  double alpha = 0;  ///< the matrix's x traffic per nonzero (rhs_reuse_alpha)
  /// The chosen format (the first of `ranked`).
  const FormatPrediction& choice() const { return ranked.front(); }
};

/// This machine's model: the GPU's measured read bandwidth and L2 (backend
/// "cuda"; with no device, the H200's measured 4.5 TB/s and 60 MiB, said in
/// `note`), or the CPU's measured read bandwidth and last-level cache.
MachineModel measured_machine(const std::string& backend, std::string* note = nullptr);
/// Offers the model of `backend` a read bandwidth measured now (the bench
/// measures one at its start): the model keeps the highest figure seen, in
/// this process and in the tuning cache, since a lower one is other work on
/// the machine. `cache_bytes` goes with it where the cache has no entry yet.
void remember_read_bandwidth(const std::string& backend, double read_bytes_per_s, double cache_bytes);

/// What is known of the machine without a measurement: the backend, its
/// SIMD width, and the GPU's multiprocessors x clock (queried from the
/// device; the H200's without one; 0 for the CPU). The bandwidth and cache
/// are the defaults' until the caller sets its own measured ones (the bench).
MachineModel machine_shape(const std::string& backend);

/// x traffic of a matrix in units of sizeof V, for a cache of cache_bytes
/// and 64-byte lines: GHOST's alpha over all entries, and the part of it
/// that the long rows (counted whole, not sampled) read.
struct RhsReuse {
  double alpha = 0;         ///< x values read per nonzero
  double long_entries = 0;  ///< entries in rows longer than kLongRowMeanMultiple x the mean
  double long_values = 0;   ///< x values those rows touch (their distinct lines x values per line), from the cache or not
};
/// The x traffic of `a` for a cache of cache_bytes (RhsReuse): the rows
/// sampled in stretches, the long rows counted whole.
template <class V, class I>
RhsReuse rhs_reuse(const Csr<V, I>& a, double cache_bytes);
/// rhs_reuse(a, cache_bytes).alpha
template <class V, class I>
double rhs_reuse_alpha(const Csr<V, I>& a, double cache_bytes);

/// Fraction of machine `m`'s read bandwidth a kernel family reaches when the
/// model's traffic is right (measured, see the file comment): the
/// memory-bound fraction, capped on the GPU by the kernel's bytes per SM
/// cycle (SpmvKernelModel::sm_bound).
double kernel_efficiency(const MachineModel& m, Format format, int block);

/// value_tolerance: the relative rounding of stored values the caller
/// accepts (FormatTraits::value_rounding); 0, the default, keeps the lossy
/// formats (csr16-single) out: they are ranked as impossible, with the reason.
template <class V, class I>
Advice advise(const Csr<V, I>& a, const MachineModel& machine, long long spmv_count, double value_tolerance = 0);

/// The plan options that run a prediction as modelled: its format, kernel,
/// BCSR block and SELL sigma.
SpmvOptions prediction_options(const FormatPrediction& p);

/// format=auto, resolved here and nowhere else: the plan options the
/// advisor chooses for spmv_count products on `machine` (format, kernel,
/// BCSR block); `choice`, when given, receives its prediction. Complex
/// matrices are advised like real ones, their values' bytes in the model
/// (every format has complex kernels on both backends; before 0.2.0 they
/// always got CSR). value_tolerance: as advise()'s.
template <class V, class I>
SpmvOptions advised_options(const Csr<V, I>& a, const MachineModel& machine, long long spmv_count, FormatPrediction* choice = nullptr,
                            double value_tolerance = 0);

}  // namespace hsparse
