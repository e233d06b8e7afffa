#pragma once
// One SpMV plan (plans/spmv_plan.hpp) on any executor, CPU or GPU, checked
// against the serial double-precision CSR reference (analysis/spmv_check.hpp):
// x and y live on the plan's executor (Arrays), y is poisoned with NaN
// before a product with beta = 0, and the check allows for the format's
// value rounding (FormatTraits::value_rounding). The plan's constructor may
// refuse a matrix (Error(invalid_argument): a fill limit, a layout's rule,
// cuSPARSE's shape rules) or a type (Error(unsupported)); that refusal is
// returned, never hidden, for the caller to judge. No CUDA header here: the
// same helper serves hsparse_tests (built without CUDA too) and the GPU tests.
#include <string>

#include "hsparse/core/error.hpp"
#include "hsparse/core/executor.hpp"
#include "hsparse/formats/csr.hpp"
#include "hsparse/plans/spmv_plan.hpp"

namespace hsparse::test {

// What became of one plan.
struct PlanRun {
  bool built = false;                        // the plan was made (and its products checked)
  ErrorCode refusal = ErrorCode::internal;   // when not built: invalid_argument or unsupported
  std::string reason;                        // when not built: the constructor's message
  std::string description;                   // when built: the plan's, e.g. "sell-8-256/avx512"
};

// Builds SpmvPlan<V, I>(ex, a, options) and checks y = alpha A x + beta y for
// (alpha, beta) = (1, 0), and with_beta also (-0.5, 2), each failure an
// EXPECT naming `matrix`, the plan and the types. Error(invalid_argument) and
// Error(unsupported) from the constructor come back as a refusal; every other
// error propagates (the test fails).
template <class V, class I>
PlanRun check_plan(const ExecutorPtr& ex, const Csr<V, I>& a, const SpmvOptions& options, const std::string& matrix, bool with_beta);

}  // namespace hsparse::test
