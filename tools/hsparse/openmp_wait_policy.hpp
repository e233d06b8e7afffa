#pragma once
// The tool's OpenMP wait policy (issue 62, item 16). libgomp's threads spin
// at the end of a parallel region before they sleep; on a machine whose
// cores are busy with other work (a build, CI, another solver) the spinning
// threads take the cores the working ones need: a GMRES solve on a loaded
// 2-core machine took 38.6 ms an iteration against 1.79 ms with passive
// waiting (21x; docs/results/2026-11-28-openmp-wait-policy-cpu). libgomp
// reads OMP_WAIT_POLICY once, when it is loaded, before main(), so the
// policy is set by running the tool again with it in the environment.
//
// The rule: passive, unless the user set OMP_WAIT_POLICY (theirs wins), and
// except for `hsparse bench`, whose timed loops keep libgomp's default
// (spin, then sleep) so that back-to-back kernels are measured as a
// dedicated machine runs them; bench prints the policy in force.
namespace hsparse::tool {

// Re-executes the tool with OMP_WAIT_POLICY=passive where the rule above
// asks for it; returns when no restart is needed or the restart failed
// (then the run goes on under libgomp's default).
void apply_openmp_wait_policy(int argc, char** argv);

// The policy in force for this process, as a line for reports: "passive
// (hsparse's default)", "ACTIVE (OMP_WAIT_POLICY)", or "libgomp's default
// (spin, then sleep)".
const char* openmp_wait_policy_description();

}  // namespace hsparse::tool
