#pragma once
#include <string>

// The tool's OpenMP wait policy (issue 62, item 16). libgomp's threads spin
// at the end of a parallel region before they sleep (300,000 spins by
// default). On a machine whose cores are busy with other work (a build, CI,
// another solver) the spinning threads take the cores the working ones
// need: GMRES iterations of 3-92 ms where 0.1-3 ms is the norm. Sleeping at
// once (OMP_WAIT_POLICY=passive) removes those, but costs 2-4x on an idle
// machine, where every parallel region then waits for its threads to wake.
// A short spin (GOMP_SPINCOUNT=10000) kept the idle speed and the busy
// machine's median best of the three (2-core VM, GMRES on 10^4 and 9 x 10^4
// unknowns: docs/results/2026-11-28-openmp-wait-policy-cpu). libgomp reads
// both variables once, when it is loaded, before main(), so the tool sets
// them by running itself again with them in the environment.
//
// The rule: GOMP_SPINCOUNT=10000, unless the user set OMP_WAIT_POLICY or
// GOMP_SPINCOUNT (theirs wins), and except for `hsparse bench`, whose timed
// loops keep libgomp's default so that back-to-back kernels are measured as
// a dedicated machine runs them; bench prints the policy in force.
namespace hsparse::tool {

// Re-executes the tool with GOMP_SPINCOUNT=10000 where the rule above asks
// for it; returns when no restart is needed or the restart failed (then the
// run goes on under libgomp's default).
void apply_openmp_wait_policy(int argc, char** argv);

// The policy in force for this process, as a line for reports, e.g. "spin
// 10000, then sleep (hsparse's default)", "OMP_WAIT_POLICY=passive" or
// "libgomp's default (spin 300000, then sleep)".
std::string openmp_wait_policy_description();

}  // namespace hsparse::tool
