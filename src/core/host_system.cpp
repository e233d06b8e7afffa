// host_topology and host_memory (host_system.hpp): hwloc where hsparse was
// built with it, sysfs and sysconf otherwise; /proc/meminfo and the cgroup's
// limit for memory.
#include "hsparse/core/host_system.hpp"

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "hsparse/core/error.hpp"

#ifdef HSPARSE_HAVE_HWLOC
#include <hwloc.h>
#endif

namespace hsparse {

namespace {

// One cache instance as a source reported it.
struct RawCache {
  int level = 0;
  std::size_t bytes = 0;
  int cores_served = 0;  // processing units the instance serves on the whole machine
};

std::vector<int> allowed_cpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &set)) cpus.push_back(c);
    }
  }
  if (cpus.empty()) {
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    for (int c = 0; c < std::max(1L, n); ++c) cpus.push_back(c);
  }
  return cpus;
}

#ifdef HSPARSE_HAVE_HWLOC
std::vector<RawCache> caches_from_hwloc() {
  std::vector<RawCache> out;
  hwloc_topology_t topology;
  if (hwloc_topology_init(&topology) != 0) return out;
  if (hwloc_topology_load(topology) != 0) {
    hwloc_topology_destroy(topology);
    return out;
  }
  hwloc_bitmap_t allowed = hwloc_bitmap_alloc();
  if (hwloc_get_cpubind(topology, allowed, HWLOC_CPUBIND_PROCESS) != 0) {
    hwloc_bitmap_copy(allowed, hwloc_topology_get_allowed_cpuset(topology));
  }
  const hwloc_obj_type_t types[] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L5CACHE};
  for (const hwloc_obj_type_t type : types) {
    const int n = hwloc_get_nbobjs_by_type(topology, type);
    for (int i = 0; i < n; ++i) {
      const hwloc_obj_t obj = hwloc_get_obj_by_type(topology, type, static_cast<unsigned>(i));
      if (obj->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION) continue;
      if (!hwloc_bitmap_intersects(obj->cpuset, allowed)) continue;
      out.push_back({static_cast<int>(obj->attr->cache.depth), static_cast<std::size_t>(obj->attr->cache.size),
                     std::max(1, hwloc_bitmap_weight(obj->cpuset))});
    }
  }
  hwloc_bitmap_free(allowed);
  hwloc_topology_destroy(topology);
  return out;
}
#endif

std::string read_word(const std::string& path) {
  std::ifstream in(path);
  std::string s;
  in >> s;
  return s;
}

// "0-3,8" -> 5
int count_cpu_list(const std::string& list) {
  int count = 0;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    int a = 0, b = 0;
    if (std::sscanf(item.c_str(), "%d-%d", &a, &b) == 2) count += b - a + 1;
    else if (!item.empty()) ++count;
  }
  return std::max(count, 1);
}

std::vector<RawCache> caches_from_sysfs(const std::vector<int>& cpus) {
  std::vector<RawCache> out;
  std::set<std::pair<int, std::string>> seen;  // (level, shared_cpu_list): one instance
  for (const int cpu : cpus) {
    for (int index = 0;; ++index) {
      const std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cache/index" + std::to_string(index) + "/";
      const std::string level = read_word(dir + "level");
      if (level.empty()) break;
      if (read_word(dir + "type") == "Instruction") continue;
      const std::string shared = read_word(dir + "shared_cpu_list");
      if (!seen.insert({std::stoi(level), shared}).second) continue;
      const std::string size = read_word(dir + "size");  // "32768K"
      std::size_t bytes = std::strtoull(size.c_str(), nullptr, 10);
      if (size.ends_with('K')) bytes <<= 10;
      if (size.ends_with('M')) bytes <<= 20;
      if (bytes > 0) out.push_back({std::stoi(level), bytes, count_cpu_list(shared)});
    }
  }
  return out;
}

// sysconf says nothing of sharing: L1 and L2 are taken as one per core, the
// last level as one instance shared by this process's cores.
std::vector<RawCache> caches_from_sysconf(int cores) {
  std::vector<RawCache> out;
#ifdef _SC_LEVEL1_DCACHE_SIZE
  const long sizes[] = {sysconf(_SC_LEVEL1_DCACHE_SIZE), sysconf(_SC_LEVEL2_CACHE_SIZE), sysconf(_SC_LEVEL3_CACHE_SIZE)};
  for (int level = 1; level <= 3; ++level) {
    const long bytes = sizes[level - 1];
    if (bytes <= 0) continue;
    if (level < 3) {
      for (int c = 0; c < cores; ++c) out.push_back({level, static_cast<std::size_t>(bytes), 1});
    } else {
      out.push_back({level, static_cast<std::size_t>(bytes), cores});
    }
  }
#endif
  return out;
}

std::string read_cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (line.rfind("model name", 0) == 0 && colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
  }
  return "unknown CPU";
}

HostTopology read_topology() {
  HostTopology t;
  t.cpu_model = read_cpu_model();
  const auto cpus = allowed_cpus();
  t.cores = static_cast<int>(cpus.size());
  std::vector<RawCache> raw;
#ifdef HSPARSE_HAVE_HWLOC
  raw = caches_from_hwloc();
  t.source = "hwloc";
#endif
  if (raw.empty()) {
    raw = caches_from_sysfs(cpus);
    t.source = "sysfs";
  }
  if (raw.empty()) {
    raw = caches_from_sysconf(t.cores);
    t.source = "sysconf";
  }
  std::map<int, CacheLevel> levels;
  for (const auto& c : raw) {
    CacheLevel& l = levels[c.level];
    l.level = c.level;
    l.instance_bytes = std::max(l.instance_bytes, c.bytes);
    ++l.instances;
    const std::size_t cap = kMaxCacheBytesPerCore * static_cast<std::size_t>(c.cores_served);
    if (c.bytes > cap) {
      l.capped = true;
      l.bytes += cap;
    } else {
      l.bytes += c.bytes;
    }
  }
  for (const auto& [level, l] : levels) {
    t.caches.push_back(l);
    if (l.capped) {
      t.note = "L" + std::to_string(level) + " reported as " + format_bytes(static_cast<double>(l.instance_bytes)) +
               " per instance, more than " + format_bytes(static_cast<double>(kMaxCacheBytesPerCore)) +
               " per core it serves: taken as a VM reporting its host's cache and capped";
    }
  }
  return t;
}

// Reads "Key:   123 kB" from /proc/meminfo, in bytes; 0 if absent.
std::size_t meminfo_bytes(const std::string& key) {
  std::ifstream in("/proc/meminfo");
  std::string name, unit;
  unsigned long long value = 0;
  while (in >> name >> value) {
    std::getline(in, unit);
    if (name == key + ":") return static_cast<std::size_t>(value) * 1024;
  }
  return 0;
}

// The cgroup's limit minus its usage, or 0 when there is no limit. v2 first
// (the process's own cgroup, then the mount root), then v1's memory
// controller.
std::size_t cgroup_headroom(std::string* source) {
  std::string v2path;
  {
    std::ifstream in("/proc/self/cgroup");
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("0::", 0) == 0) v2path = line.substr(3);
    }
  }
  const std::pair<std::string, std::string> files[] = {
      {"/sys/fs/cgroup" + v2path + "/memory.max", "/sys/fs/cgroup" + v2path + "/memory.current"},
      {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
      {"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"},
  };
  for (const auto& [limit_file, usage_file] : files) {
    const std::string limit = read_word(limit_file);
    if (limit.empty() || limit == "max") continue;
    const unsigned long long l = std::strtoull(limit.c_str(), nullptr, 10);
    if (l == 0 || l >= (1ULL << 60)) continue;  // v1 writes "no limit" as a huge number
    const unsigned long long u = std::strtoull(read_word(usage_file).c_str(), nullptr, 10);
    *source = "cgroup limit " + limit_file;
    return l > u ? static_cast<std::size_t>(l - u) : 1;
  }
  return 0;
}

// The address-space limit (ulimit -v, RLIMIT_AS) minus what the process
// maps now (VmSize), or 0 when there is no limit: under `ulimit -v` an
// allocation fails at that limit however much memory the machine has free.
std::size_t address_space_headroom() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
  std::ifstream in("/proc/self/status");
  std::string line;
  std::size_t mapped = 0;
  while (std::getline(in, line)) {
    if (line.rfind("VmSize:", 0) == 0) mapped = static_cast<std::size_t>(std::strtoull(line.c_str() + 7, nullptr, 10)) * 1024;
  }
  const auto cap = static_cast<std::size_t>(limit.rlim_cur);
  return cap > mapped ? cap - mapped : 1;
}

}  // namespace

std::size_t HostTopology::last_level_cache_bytes() const { return caches.empty() ? 0 : caches.back().bytes; }

const HostTopology& host_topology() {
  static const HostTopology topology = read_topology();
  return topology;
}

std::size_t last_level_cache_bytes() { return host_topology().last_level_cache_bytes(); }

const char* to_string(SimdLevel level) {
  switch (level) {
    case SimdLevel::avx512: return "avx512";
    case SimdLevel::avx2: return "avx2";
    case SimdLevel::baseline: break;
  }
  return "baseline";
}

SimdLevel simd_level() {
  static const SimdLevel level = [] {
#if defined(__x86_64__) || defined(__i386__)
    SimdLevel cpu = SimdLevel::baseline;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) cpu = SimdLevel::avx2;
    if (cpu == SimdLevel::avx2 && __builtin_cpu_supports("avx512f")) cpu = SimdLevel::avx512;
#else
    const SimdLevel cpu = SimdLevel::baseline;
#endif
    const char* cap = std::getenv("HSPARSE_SIMD");
    if (!cap || !*cap) return cpu;
    for (SimdLevel l : {SimdLevel::baseline, SimdLevel::avx2, SimdLevel::avx512}) {
      if (std::string(cap) == to_string(l)) return std::min(cpu, l);
    }
    throw Error(ErrorCode::invalid_argument, std::string("HSPARSE_SIMD=") + cap + ": valid values are baseline, avx2 and avx512");
  }();
  return level;
}

HostMemory host_memory() {
  HostMemory m;
  m.total = meminfo_bytes("MemTotal");
  m.available = meminfo_bytes("MemAvailable");
  m.source = "MemAvailable";
  if (m.available == 0) {  // no /proc/meminfo: whatever sysconf says is free
    m.available = static_cast<std::size_t>(sysconf(_SC_AVPHYS_PAGES)) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    m.total = static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    m.source = "sysconf";
  }
  std::string cgroup_source;
  const std::size_t headroom = cgroup_headroom(&cgroup_source);
  if (headroom > 0 && headroom < m.available) {
    m.available = headroom;
    m.source = cgroup_source;
  }
  const std::size_t address_space = address_space_headroom();
  if (address_space > 0 && address_space < m.available) {
    m.available = address_space;
    m.source = "RLIMIT_AS (ulimit -v) less the process's VmSize";
  }
  return m;
}

namespace {
std::size_t budget_of(const HostMemory& m) { return static_cast<std::size_t>(kHostMemoryFraction * static_cast<double>(m.available)); }
}  // namespace

std::size_t host_memory_budget() { return budget_of(host_memory()); }

void require_host_memory(std::size_t bytes, const std::string& what) {
  const HostMemory m = host_memory();
  if (bytes <= budget_of(m)) return;
  char share[64];
  std::snprintf(share, sizeof share, ") and hsparse uses at most %.0f%% of it", 100 * kHostMemoryFraction);
  throw Error(ErrorCode::out_of_memory, what + " needs " + format_bytes(static_cast<double>(bytes)) + " of host memory; " +
                                            format_bytes(static_cast<double>(m.available)) + " is available (" + m.source + share);
}

std::string format_bytes(double bytes) {
  char buf[32];
  if (bytes >= 1024.0 * 1024 * 1024) std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1024.0 * 1024 * 1024));
  else if (bytes >= 1024.0 * 1024) std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / (1024.0 * 1024));
  else if (bytes >= 1024.0) std::snprintf(buf, sizeof buf, "%.1f KiB", bytes / 1024.0);
  else std::snprintf(buf, sizeof buf, "%.0f bytes", bytes);
  return buf;
}

}  // namespace hsparse
