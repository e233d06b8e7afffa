#include "openmp_wait_policy.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace hsparse::tool {

namespace {
// Marks a process that this tool restarted, so that its description says
// the spin count is hsparse's default rather than the user's.
constexpr const char* kRestartMark = "HSPARSE_OMP_WAIT_POLICY_SET";
constexpr const char* kSpinCount = "10000";
}  // namespace

void apply_openmp_wait_policy(int argc, char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr || std::getenv("GOMP_SPINCOUNT") != nullptr) return;  // the user's, or already restarted
  if (argc > 1 && std::strcmp(argv[1], "bench") == 0) return;
  if (setenv("GOMP_SPINCOUNT", kSpinCount, 1) != 0 || setenv(kRestartMark, "1", 1) != 0) return;
  execv("/proc/self/exe", argv);
  // No /proc (or exec refused): go on under libgomp's default, as before this rule.
  unsetenv("GOMP_SPINCOUNT");
  unsetenv(kRestartMark);
}

std::string openmp_wait_policy_description() {
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  const char* spins = std::getenv("GOMP_SPINCOUNT");
  if (policy == nullptr && spins == nullptr) return "libgomp's default (spin 300000, then sleep)";
  if (policy == nullptr && std::getenv(kRestartMark) != nullptr) return std::string("spin ") + spins + ", then sleep (hsparse's default)";
  std::string d;
  if (policy != nullptr) d = std::string("OMP_WAIT_POLICY=") + policy;
  if (spins != nullptr) d += std::string(d.empty() ? "" : ", ") + "GOMP_SPINCOUNT=" + spins;
  return d + " (the user's)";
}

}  // namespace hsparse::tool
