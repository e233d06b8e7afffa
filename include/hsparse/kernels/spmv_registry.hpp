#pragma once
// The kernel half of the format registry: what each backend offers for each
// format (formats/format.hpp), registered by the backend itself in
// backends/<backend>/spmv_kernels.cpp (it sits with the kernels, below the
// plans, so that the backends that register include nothing above them). Plans, handles, the CLI, the bench,
// the advisor and `hsparse info --formats` read it; none of them lists a
// format's kernels on its own.
#include <string>
#include <vector>

#include "hsparse/core/backend.hpp"
#include "hsparse/formats/format.hpp"

namespace hsparse {

struct SpmvKernel {
  std::string name;     // --kernel value
  std::string summary;  // one line, with the paper or library it follows
  // What `hsparse bench` runs of it: "" the kernel as it is, or option
  // settings ("sigma=256", "no-preprocess"); empty: not a contender (the
  // serial reference; SIMD kernels that "auto" already weighs).
  std::vector<std::string> bench = {""};
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
};

struct BackendFormat {
  std::vector<SpmvKernel> kernels;  // the default first
  SpmvKernelModel model;
};

namespace detail {
// A backend's registration of `format`, built once for every format by
// Make(Format) (its switch) and kept in the enum's order; one table per
// backend (Make is a template argument, so each backend has its own static).
template <BackendFormat (*Make)(Format)>
const BackendFormat& registration_of(Format format) {
  static const std::vector<BackendFormat> table = [] {
    std::vector<BackendFormat> t;
    for (Format f : all_formats()) t.push_back(Make(f));
    return t;
  }();
  return table.at(static_cast<std::size_t>(format));
}
}  // namespace detail

namespace openmp {
const BackendFormat& spmv_registration(Format format);
}  // namespace openmp
namespace cuda {
// Registered in every build, so a CPU-only build can list the GPU kernels.
const BackendFormat& spmv_registration(Format format);
}  // namespace cuda

const BackendFormat& spmv_registration(Backend backend, Format format);
std::vector<std::string> spmv_kernel_names(Backend backend, Format format);
// `kernel` when the backend has it for the format, the default when it is
// empty; else Error(invalid_argument) naming the backend's kernels.
std::string choose_spmv_kernel(Backend backend, Format format, const std::string& kernel);

// The value types every format has kernels for on every backend.
const std::vector<std::string>& spmv_value_types();

}  // namespace hsparse
