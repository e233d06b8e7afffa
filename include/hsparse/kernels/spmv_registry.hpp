#pragma once
// The kernel half of the format registry: what each backend offers for each
// format (formats/format.hpp). Each (backend, format) registers once, in
// src/backends/<backend>/plans/<format>.cpp, beside the builder of its
// plans: the kernels (name, summary, parameters), the model the advisor
// ranks them by, and build(). Plans, handles, the CLI, the bench, the
// advisor, Python and `hsparse info --formats` read it; none of them lists a
// format's kernels on its own. It sits with the kernels, below the plans, so
// that the backends that register include nothing above them.
#include <map>
#include <string>
#include <vector>

#include "hsparse/core/backend.hpp"
#include "hsparse/formats/format.hpp"

namespace hsparse {

// A parameter of one kernel (SpmvOptions::params, by name): what the kernel
// alone knows how to use, such as a launch shape, kept out of the options
// every kernel shares. Absent from the options: the kernel's own rule.
struct KernelParam {
  std::string name;     // "coop"
  std::string meaning;  // one line, with its default rule
  std::vector<long long> choices;  // the values it takes; empty: any in [min, max]
  long long min = 0, max = 0;
};

struct SpmvKernel {
  std::string name;     // --kernel value
  std::string summary;  // one line, with the paper or library it follows
  // What `hsparse bench` runs of it: "" the kernel as it is, or option
  // settings ("sigma=256", "no-preprocess"); empty: not a contender (the
  // serial reference; SIMD kernels that "auto" already weighs).
  std::vector<std::string> bench = {""};
  std::vector<KernelParam> params = {};  // what SpmvOptions::params may set for it
};

// How the advisor (tuning/advisor.hpp) models a backend's kernels of one
// format. The numbers are measured by hsparse bench, not guessed; the
// registration says where.
struct SpmvKernelModel {
  // Fraction of the read bandwidth the kernel family reaches when the
  // model's traffic is right (BCSR depends on the block size).
  double (*efficiency)(int block);
  // Independent work items the kernel launches (a GPU needs ~2048 per SM
  // to hide memory latency; the CPU model ignores it).
  double (*parallel_units)(const FormatFootprint&);
  // Setup beyond CSR's, seconds per byte of the converted matrix.
  double conversion_seconds_per_byte;
  // A COO tail (HYB) runs as a second kernel at this efficiency; 0: none.
  double tail_efficiency;
  // The most bytes of the model's traffic the kernel moves per
  // multiprocessor clock cycle, whatever the bandwidth (its instructions and
  // latencies, not the memory, then limit it); nullptr: no such bound
  // measured. The advisor takes min(efficiency, bound x SM cycles per second
  // / read bandwidth): a kernel at 0.76 of the H200's 4.5 TB/s reaches 0.87
  // of the H100's 3.1 TB/s with the same 132 SMs at the same clock.
  double (*sm_bound)(int block) = nullptr;
  // Fraction of the read bandwidth at which the kernel moves x's traffic
  // beyond one read of x (the model's alpha above 1/N_nzc: gathers of lines
  // the cache no longer holds), measured on a random matrix, where it is
  // nearly all of the traffic; 0: at the efficiency above, as the rest.
  double gather_efficiency = 0;
  // Where the setup depends on the matrix (CSR16 on the GPU: converted on
  // the device unless a row is wide), its seconds per byte of the converted
  // matrix; nullptr: conversion_seconds_per_byte for every matrix.
  double (*conversion_seconds_per_byte_for)(const FormatFootprint&) = nullptr;
  // The CSR family on the GPU: where the default kernel is "adaptive" and
  // the rows are even (kernels/csr_vector_rows.hpp, csr_vector_suits), the
  // share of the read bandwidth its "vector" kernel streams at, given the
  // mean row length; the advisor takes "vector" where it beats adaptive
  // with its row blocks' setup. nullptr: no such alternative.
  double (*vector_rows_efficiency)(double mean_row_length) = nullptr;
};

struct BackendFormat {
  std::vector<SpmvKernel> kernels;  // the default first
  SpmvKernelModel model;
};

// Each backend's registration of each format, defined in
// src/backends/<backend>/plans/<format>.cpp (openmp::registration_csr(), ...)
// and collected in HSPARSE_FORMATS' order by spmv_registration(). The CUDA
// backend registers in every build, so a CPU-only build lists its kernels.
#define HSPARSE_DECLARE_REGISTRATION(f) BackendFormat registration_##f();
namespace openmp {
HSPARSE_FORMATS(HSPARSE_DECLARE_REGISTRATION)
}  // namespace openmp
namespace cuda {
HSPARSE_FORMATS(HSPARSE_DECLARE_REGISTRATION)
}  // namespace cuda
#undef HSPARSE_DECLARE_REGISTRATION

const BackendFormat& spmv_registration(Backend backend, Format format);
std::vector<std::string> spmv_kernel_names(Backend backend, Format format);
// `kernel` when the backend has it for the format, the default when it is
// empty; else Error(invalid_argument) naming the backend's kernels.
std::string choose_spmv_kernel(Backend backend, Format format, const std::string& kernel);
// The registration of one kernel (it must exist: choose_spmv_kernel first).
const SpmvKernel& spmv_kernel(Backend backend, Format format, const std::string& kernel);
// Error(invalid_argument) unless every parameter in `params` is one the
// kernel registers, within its range; the message names the kernel, the
// parameter and what it takes.
void check_kernel_params(Backend backend, Format format, const std::string& kernel, const std::map<std::string, long long>& params);
// "4, 8, 16 or 32" / "1..64": what a parameter takes, for messages and listings.
std::string kernel_param_range(const KernelParam& param);

// The value types every format has kernels for on every backend.
const std::vector<std::string>& spmv_value_types();

}  // namespace hsparse
