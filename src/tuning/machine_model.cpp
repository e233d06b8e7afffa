// measured_machine and format=auto's plan options (advisor.hpp).
#include <omp.h>

#include <map>
#include <mutex>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/performance/spmv_model.hpp"
#include "hsparse/tuning/advisor.hpp"
#include "hsparse/tuning/tuning_cache.hpp"
#include "hsparse/backends/cuda/timing.hpp"

namespace hsparse {

namespace {
MachineModel measure_machine(const std::string& backend, std::string* note) {
  MachineModel m;
  m.backend = backend;
  std::string why;
  if (backend == "cuda") {
    if (cuda::device_available()) {
      const cuda::Executor ex;
      m.read_bytes_per_s = cuda::measure_device_bandwidth(ex).read_bytes_per_s;
      m.cache_bytes = static_cast<double>(cuda::l2_cache_bytes());
      why = "measured on " + cuda::device_description();
    }
    if (why.empty()) why = "no device here: the H200's measured 4.5 TB/s and 60 MiB L2";
  } else {
    m.read_bytes_per_s = measure_read_bandwidth().read_bytes_per_s;
    m.cache_bytes = static_cast<double>(last_level_cache_bytes());
    why = "measured on this CPU";
  }
  if (note) *note = why;
  return m;
}
}  // namespace

namespace {

// The machine a model belongs to: the GPU's name, or the CPU's model and
// the threads this process runs (a bandwidth measured on 2 threads is not
// that of 16).
std::string machine_key(const std::string& backend) {
  if (backend == "cuda") return "machine | cuda | " + cuda::device_description();
  return "machine | cpu | " + host_topology().cpu_model + " | " + std::to_string(omp_get_max_threads()) + " threads";
}

}  // namespace

namespace {
// The models measured in this process, per backend, with how they were had.
struct MeasuredMachines {
  std::mutex mutex;
  std::map<std::string, std::pair<MachineModel, std::string>> models;
};
MeasuredMachines& measured_machines() {
  static MeasuredMachines m;
  return m;
}
}  // namespace

// Measured once per machine and kept in the tuning cache (the bandwidth
// does not change, and `hsparse advise` or `spmv --format auto` must not pay
// a bandwidth test at every call); once per process where the cache cannot
// be written. Values: read bandwidth in MB/s, cache in KiB.
MachineModel measured_machine(const std::string& backend, std::string* note) {
  auto& state = measured_machines();
  auto& measured = state.models;
  const std::lock_guard lock(state.mutex);
  auto it = measured.find(backend);
  if (it == measured.end()) {
    const bool device = backend == "cuda" ? cuda::device_available() : true;
    TuningCache cache;
    const std::string key = machine_key(backend);
    MachineModel m;
    std::string why;
    const auto stored = device ? cache.find(key) : std::nullopt;
    if (stored && stored->size() == 2 && (*stored)[0] > 0) {
      m.backend = backend;
      m.read_bytes_per_s = (*stored)[0] * 1e6;
      m.cache_bytes = (*stored)[1] * 1024.0;
      why = "measured earlier, from " + cache.path() + " (remove the '" + key + "' entry to measure again)";
    } else {
      m = measure_machine(backend, &why);
      // An unwritable cache (a read-only home) only means measuring again next time.
      if (device) cache.store(key, {static_cast<int>(std::min(m.read_bytes_per_s * 1e-6, 2e9)), static_cast<int>(m.cache_bytes / 1024)});
    }
    it = measured.emplace(backend, std::make_pair(m, why)).first;
  }
  if (note) *note = it->second.second;
  MachineModel m = machine_shape(backend);
  m.read_bytes_per_s = it->second.first.read_bytes_per_s;
  m.cache_bytes = it->second.first.cache_bytes;
  return m;
}

// The read bandwidth is the machine's; a lower figure is other work on it.
// So the model keeps the highest figure any measurement gave, in this
// process and in the tuning cache: the first auto of a fresh machine may
// run while the tests do (the build VM cached 19 GB/s that way, against the
// 62 GB/s its idle bench measured), and would otherwise be kept for good.
void remember_read_bandwidth(const std::string& backend, double read_bytes_per_s, double cache_bytes) {
  if (!(read_bytes_per_s > 0)) return;
  auto& state = measured_machines();
  const std::lock_guard lock(state.mutex);
  if (auto it = state.models.find(backend); it != state.models.end() && it->second.first.read_bytes_per_s < read_bytes_per_s) {
    it->second.first.read_bytes_per_s = read_bytes_per_s;
    it->second.second = "the highest read bandwidth measured in this process";
  }
  if (backend == "cuda" && !cuda::device_available()) return;
  TuningCache cache;
  const std::string key = machine_key(backend);
  const auto stored = cache.find(key);
  if (stored && stored->size() == 2 && (*stored)[0] * 1e6 >= read_bytes_per_s) return;
  // An unwritable cache only means the better figure is not kept.
  cache.store(key, {static_cast<int>(std::min(read_bytes_per_s * 1e-6, 2e9)), static_cast<int>(cache_bytes / 1024)});
}

// The SM figures are asked of the device at every call (an attribute query,
// not a measurement), so the tuning cache's machine entry stays two numbers.
MachineModel machine_shape(const std::string& backend) {
  MachineModel m;
  m.backend = backend;
  m.simd_width = backend == "cuda" ? 32 : 8;  // a warp; AVX-512's doubles
  if (backend != "cuda") {
    m.sm_cycles_per_s = 0;
    return m;
  }
  if (cuda::device_available()) m.sm_cycles_per_s = cuda::arithmetic_peaks().sm_cycles_per_s;
  return m;  // no device here: the H200's, as for the bandwidth
}

template <class V, class I>
SpmvOptions advised_options(const Csr<V, I>& a, const MachineModel& machine, long long spmv_count, FormatPrediction* choice, double value_tolerance) {
  // Complex values too: the model is in bytes (sizeof(V)), and every format
  // has complex kernels on both backends (issue 15), so "auto" is the
  // advisor's choice for them as well, not a silent CSR.
  const auto c = advise(a, machine, spmv_count, value_tolerance).choice();
  if (choice) *choice = c;
  return prediction_options(c);
}

// SELL's sigma too: the model counts the bytes at the sigma storing least,
// and on a matrix with hub rows the plan's default differs by far. On the
// circuit matrix (CPU, C = 8) sigma 256 stores 1.79 entries per nonzero,
// sorting all rows 1.0001; the bench's auto took SELL by the second and ran
// the first: 16.0 ms against CSR's 9.8 (docs/results/2026-11-26-advisor-model-evict-first-h100).
SpmvOptions prediction_options(const FormatPrediction& p) {
  SpmvOptions o;
  o.format = p.format;
  o.kernel = p.kernel;
  o.layout.block = p.block;
  if (p.format == Format::sell) o.layout.sigma = p.sigma;
  return o;
}

#define HSPARSE_INSTANTIATE(V, I)                                                      \
  template SpmvOptions advised_options(const Csr<V, I>&, const MachineModel&, long long, FormatPrediction*, double);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
