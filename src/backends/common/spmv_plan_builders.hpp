#pragma once
// The backends' plan builders (private to the library): each converts the matrix for its
// executor and returns the product and what the plan reports. The plan
// (plans/spmv_plan.cpp) chooses between them by the executor's backend.
#include "hsparse/kernels/spmv_options.hpp"

namespace hsparse {
namespace openmp {
template <class V, class I>
SpmvParts<V> build_spmv_plan(const Csr<V, I>& a, const SpmvOptions& options, const std::string& kernel);
}
namespace cuda {
template <class V, class I>
SpmvParts<V> build_spmv_plan(const Executor& ex, const Csr<V, I>& a, const SpmvOptions& options, const std::string& kernel);
}
}  // namespace hsparse
