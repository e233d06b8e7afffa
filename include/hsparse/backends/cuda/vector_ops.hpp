#pragma once
// The solvers' vector kernels on the GPU (declared for every backend in
// kernels/vector_ops.hpp; this is the CUDA one, on device pointers). Each
// launches on the executor's stream and returns without waiting, except the
// *_host forms, which copy the result back (one synchronisation).
//
// Reductions are one launch each: every block writes its partial sums, the
// last block to finish (a completion counter) adds them in block order and
// writes the totals to device memory. No atomics on the values, so results
// are the same from run to run. Sums accumulate in double.
#include <span>
#include <vector>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/kernels/pipelined_cg_step.hpp"
#include "hsparse/kernels/vector_ops.hpp"

namespace hsparse::cuda {

// Partial sums and the completion counter of the reductions; one per stream
// (reductions on one scratch must not run concurrently).
class ReductionScratch {
 public:
  static constexpr int kMaxBlocks = 1024;
  static constexpr int kMaxValues = 8;
  ReductionScratch();
  double* partials() { return partials_.data(); }
  unsigned* counter() { return counter_.data(); }
  double* results() { return results_.data(); }  // kMaxValues device doubles for results

 private:
  DeviceArray<double> partials_, results_;
  DeviceArray<unsigned> counter_;
};

// out[k] = <w, v_k> (device memory), k < vs.size(); batches of 8, 4, 3, 2, 1 vectors, w read once per batch (Rupp's mdot).
template <class V>
void mdot(const Executor& ex, long long n, const V* w, const std::vector<const V*>& vs, double* out, ReductionScratch& scratch);
template <class V>
void dot(const Executor& ex, long long n, const V* a, const V* b, double* out, ReductionScratch& scratch);
// The same kernel with its totals scaled into V-typed outputs ld apart:
// out[k * stride] = alpha <w, v_k> + beta out[k * stride] (beta == 0: not
// read). The tall-skinny V^T W with one column on a side (dense_ops.hpp) is
// this mdot: the two share one kernel.
template <class V>
void mdot_scaled(const Executor& ex, long long n, const V* w, const std::vector<const V*>& vs, V alpha, V beta, V* out, long long stride,
                 ReductionScratch& scratch);
// The same, results copied to the host (a synchronisation): out[k] =
// <v_k, w> = sum conj(v_k) w, and dot_host = <a, b>. These, axpby,
// maxpy_sub, fill_zero and scale_by also take the complex types
// (complex_vector_ops.cu), whose sums are complex<double> (dot_t).
template <class V>
void mdot_host(const Executor& ex, long long n, const V* w, const std::vector<const V*>& vs, std::span<dot_t<V>> out, ReductionScratch& scratch);
template <class V>
dot_t<V> dot_host(const Executor& ex, long long n, const V* a, const V* b, ReductionScratch& scratch);

// y = alpha*x + beta*y (beta == 0: y not read).
template <class V>
void axpby(const Executor& ex, long long n, V alpha, const V* x, V beta, V* y);
// y -= sum_k coef[k] * v_k (host coefficients), y read and written once per batch of up to 8.
template <class V>
void maxpy_sub(const Executor& ex, long long n, std::span<const dot_t<V>> coef, const std::vector<const V*>& vs, V* y);
// y = 0.
template <class V>
void fill_zero(const Executor& ex, long long n, V* y);
// z = d .* r (Jacobi).
template <class V>
void scale_by(const Executor& ex, long long n, const V* d, const V* r, V* z);

// Pipelined CG's fused kernels with the state on the device
// (kernels/pipelined_cg_step.hpp): the update (x, r, z, p and <r, z>,
// <r, r>, then pipelined_cg_after_update; z null without dinv) and the dots
// after the SpMV (<p, Ap>, <Ap, dinv .* Ap>, then pipelined_cg_after_dots).
// Both are no-ops once the state is not running. With `local_sums` (device
// memory, two doubles), the sums go there instead and the state is left to
// the caller: a distributed solve adds them over the ranks first
// (solvers/krylov_ops.hpp).
template <class V>
void pipelined_cg_update(const Executor& ex, long long n, const V* ap, const V* dinv, V* x, V* r, V* z, V* p, PipelinedCgState* state,
                         double* history, int history_size, ReductionScratch& scratch, double* local_sums = nullptr);
template <class V>
void pipelined_cg_dots(const Executor& ex, long long n, const V* p, const V* ap, const V* dinv, PipelinedCgState* state, ReductionScratch& scratch,
                       double* local_sums = nullptr);
// A distributed iteration's recurrence on the device, once `sums` (the
// update's <r, z>, <r, r>, then the SpMV's <p, Ap>, <Ap, M^-1 Ap>) were
// summed over the ranks there: pipelined_cg_after_update (if
// `update_pending`), then pipelined_cg_after_dots; nothing once the state
// is not running. One thread.
void pipelined_cg_advance(const Executor& ex, PipelinedCgState* state, const double* sums, bool update_pending, double* history, int history_size);

// mdot for k vectors as k separate dot launches, and as one cuBLAS gemv on
// the vectors stored as the columns of an n x k matrix: the two
// alternatives of Rupp's comparison, for the benchmark.
template <class V>
void mdot_as_dots(const Executor& ex, long long n, const V* w, const std::vector<const V*>& vs, double* out, ReductionScratch& scratch);
template <class V>
void mdot_as_gemv(const Executor& ex, long long n, long long k, const V* w, const V* columns, V* out);

}  // namespace hsparse::cuda
