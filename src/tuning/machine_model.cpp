// measured_machine and format=auto's plan options (advisor.hpp).
#include <map>
#include <mutex>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/performance/spmv_model.hpp"
#include "hsparse/tuning/advisor.hpp"
#ifdef HSPARSE_HAVE_CUDA
#include "hsparse/backends/cuda/timing.hpp"
#endif

namespace hsparse {

namespace {
MachineModel measure_machine(const std::string& backend, std::string* note) {
  MachineModel m;
  m.backend = backend;
  std::string why;
  if (backend == "cuda") {
#ifdef HSPARSE_HAVE_CUDA
    if (cuda::device_available()) {
      const cuda::Executor ex;
      m.read_bytes_per_s = cuda::measure_device_bandwidth(ex).read_bytes_per_s;
      m.cache_bytes = static_cast<double>(cuda::l2_cache_bytes());
      why = "measured on " + cuda::device_description();
    }
#endif
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

// Measured once per process and backend: the bandwidth does not change, and
// handles made per matrix (format=auto) must not pay a bandwidth test each.
MachineModel measured_machine(const std::string& backend, std::string* note) {
  static std::mutex mutex;
  static std::map<std::string, std::pair<MachineModel, std::string>> measured;
  const std::lock_guard lock(mutex);
  auto it = measured.find(backend);
  if (it == measured.end()) {
    std::string why;
    MachineModel m = measure_machine(backend, &why);
    it = measured.emplace(backend, std::make_pair(m, why)).first;
  }
  if (note) *note = it->second.second;
  return it->second.first;
}

template <class V, class I>
CpuSpmvOptions advised_cpu_options(const Csr<V, I>& a, long long spmv_count) {
  CpuSpmvOptions o;
  if constexpr (!is_complex_v<V>) {
    const auto c = advise(a, measured_machine("cpu"), spmv_count).choice();
    o.format = c.format;
    o.kernel = c.kernel;
    o.block = c.block;
  }
  return o;
}

#define HSPARSE_INSTANTIATE(V, I) template CpuSpmvOptions advised_cpu_options(const Csr<V, I>&, long long);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
