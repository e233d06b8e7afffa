#include "openmp_wait_policy.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace hsparse::tool {

namespace {
// Marks a process that this tool restarted, so that its description says
// the policy is hsparse's default rather than the user's.
constexpr const char* kRestartMark = "HSPARSE_OMP_WAIT_POLICY_SET";
}  // namespace

void apply_openmp_wait_policy(int argc, char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr) return;  // the user's choice, or already restarted
  if (argc > 1 && std::strcmp(argv[1], "bench") == 0) return;
  if (setenv("OMP_WAIT_POLICY", "passive", 1) != 0 || setenv(kRestartMark, "1", 1) != 0) return;
  execv("/proc/self/exe", argv);
  // No /proc (or exec refused): go on spinning, as before this rule.
  unsetenv("OMP_WAIT_POLICY");
  unsetenv(kRestartMark);
}

const char* openmp_wait_policy_description() {
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  if (policy == nullptr) return "libgomp's default (spin, then sleep)";
  if (std::getenv(kRestartMark) != nullptr) return "passive (hsparse's default)";
  static const std::string user = std::string(policy) + " (OMP_WAIT_POLICY)";
  return user.c_str();
}

}  // namespace hsparse::tool
