#pragma once
// What this process has of the host: its cores, the caches those cores see,
// and the memory it may use. Everything that sizes work (the bench suite,
// generators, the CPU CSR schedule, the bandwidth test) asks here, never
// sysconf(_SC_LEVEL3_CACHE_SIZE): in a VM that reports the host's cache
// (384-508 MiB seen on 2-core EPYC VMs whose own share is 32 MiB).
#include <cstddef>
#include <string>
#include <vector>

namespace hsparse {

struct CacheLevel {
  int level = 0;                    // 1, 2, 3, ...
  std::size_t instance_bytes = 0;   // one instance as reported
  int instances = 0;                // distinct instances serving this process's cores
  std::size_t bytes = 0;            // what this process's cores see: the sum over those instances, after the plausibility cap
  bool capped = false;              // the reported size was implausible (see host_topology) and was capped
};

struct HostTopology {
  std::string source;               // "hwloc", "sysfs" or "sysconf" (the first that answered)
  std::string cpu_model;            // /proc/cpuinfo's "model name", or "unknown CPU"
  int cores = 0;                    // processing units this process may run on (its affinity mask)
  std::vector<CacheLevel> caches;   // data / unified caches, by level
  std::string note;                 // why a figure was capped, or empty
  // The largest level's bytes; 0 if no cache was found.
  std::size_t last_level_cache_bytes() const;
};

// Read once per process. Caches come from hwloc when hsparse was built with
// it, else sysfs (/sys/devices/system/cpu/cpuN/cache), else sysconf. A cache
// instance counts once however many of this process's cores share it. An
// instance larger than kMaxCacheBytesPerCore times the cores it serves for
// this process is taken as a VM reporting its host's cache, and capped there:
// no shipping CPU has more than 12 MiB of L3 per core (AMD's 3D V-Cache
// parts), so the cap never lowers a real figure.
const HostTopology& host_topology();
inline constexpr std::size_t kMaxCacheBytesPerCore = std::size_t{16} << 20;

// The last-level cache this process's cores see (host_topology's figure).
std::size_t last_level_cache_bytes();

// The widest SIMD instruction set the CPU kernels use: every kernel compiled
// per instruction set (GEMM, tall-skinny, SELL, CSR SpMM) asks here, so one
// setting moves them all. The CPU's own level, capped by the environment
// variable HSPARSE_SIMD (baseline, avx2 or avx512) when it is set: to test
// and compare the narrower kernels on a wider CPU. avx2 means AVX2 with FMA.
// Read once per process; an HSPARSE_SIMD value that is not one of the three
// throws Error(invalid_argument) naming it and the valid ones.
enum class SimdLevel { baseline, avx2, avx512 };
SimdLevel simd_level();
// "baseline", "avx2", "avx512".
const char* to_string(SimdLevel level);

struct HostMemory {
  std::size_t available = 0;  // min(MemAvailable, cgroup limit - cgroup usage, RLIMIT_AS - VmSize)
  std::size_t total = 0;      // MemTotal
  std::string source;         // e.g. "MemAvailable" or "cgroup v2 memory.max"
};
// Read afresh at every call: other processes change it.
HostMemory host_memory();

// The bytes one piece of work may allocate on the host: kHostMemoryFraction
// of what is available now, so the rest of the machine (and a parallel test
// run) keeps the remainder.
inline constexpr double kHostMemoryFraction = 0.5;
std::size_t host_memory_budget();

// Throws Error(out_of_memory) before an allocation of `bytes` for `what`
// when it exceeds the host budget, naming both in GiB.
void require_host_memory(std::size_t bytes, const std::string& what);

// "1.23 GiB" / "45.6 MiB": how sizes are written in messages.
std::string format_bytes(double bytes);

}  // namespace hsparse
