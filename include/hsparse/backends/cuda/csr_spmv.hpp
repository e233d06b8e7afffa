#pragma once
// GPU CSR SpMV on device data, y = alpha*A*x + beta*y (beta == 0: y not read).
// x and y are device pointers of cols and rows elements.
#include "hsparse/backends/cuda/device.hpp"

namespace hsparse::cuda {

// CSR scalar (Owens lecture; Bell and Garland): one thread per row, the
// thread walks its row's entries. Simple and right for short, even rows;
// the vector, merge-path and long-row kernels come with the CUDA backend issue.
template <class V, class I>
void csr_spmv_scalar(V alpha, const DeviceCsr<V, I>& a, const V* x, V beta, V* y);

}  // namespace hsparse::cuda
