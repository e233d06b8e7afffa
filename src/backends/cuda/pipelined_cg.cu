// Pipelined CG on the device (pipelined_cg.hpp). The recurrences are those
// of krylov_algorithms.hpp (Rupp's rearrangement): with the previous alpha
// and beta, x += alpha p, r -= alpha Ap, z = M^-1 r, p = z + beta p in one
// pass that also sums <r, z> and <r, r>; then Ap = A p and one pass summing
// <p, Ap> and <Ap, M^-1 Ap>, after which alpha = <r, z> / <p, Ap> and
// beta = (alpha^2 <Ap, M^-1 Ap> - <r, z>) / <r, z>.
#include "pipelined_cg.hpp"

#include <cmath>
#include <string>

#include "device_common.cuh"
#include "hsparse/backends/cuda/vector_ops.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"
#include "reduction.cuh"

namespace hsparse::cuda {

namespace {

enum : int { kRunning = 0, kConverged = 1, kBreakdown = 2, kNonFinite = 3 };

// The solver's scalars, in device memory.
struct PipelinedState {
  double alpha, beta, rz, rr, pap, apmap;
  double bnorm, tolerance;
  int iteration, done;
};

template <class V>
__global__ void update_kernel(long long n, const V* __restrict__ ap, const V* __restrict__ dinv, V* __restrict__ x, V* r, V* z,
                              V* __restrict__ p, PipelinedState* st, double* history, int history_size, double* partials,
                              unsigned* counter) {
  if (st->done != kRunning) return;  // the same value in every thread: the grid leaves together
  const V alpha = static_cast<V>(st->alpha), beta = static_cast<V>(st->beta);
  double s[2] = {0.0, 0.0};
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const V pi = p[i];
    x[i] += alpha * pi;
    const V ri = r[i] - alpha * ap[i];
    r[i] = ri;
    V zi = ri;
    if (dinv) {
      zi = dinv[i] * ri;
      z[i] = zi;
    }
    p[i] = zi + beta * pi;
    s[0] += static_cast<double>(ri) * static_cast<double>(zi);
    s[1] += static_cast<double>(ri) * static_cast<double>(ri);
  }
  if (detail::grid_sum<2>(s, partials, counter) && threadIdx.x == 0) {
    const int it = st->iteration + 1;
    st->iteration = it;
    st->rz = s[0];
    st->rr = s[1];
    const double rel = std::sqrt(s[1]) / st->bnorm;
    if (history && it < history_size) history[it] = rel;
    if (!isfinite(rel)) {
      st->done = kNonFinite;
    } else if (rel <= st->tolerance) {
      st->done = kConverged;
    }
  }
}

template <class V>
__global__ void dots_kernel(long long n, const V* __restrict__ p, const V* __restrict__ ap, const V* __restrict__ dinv, PipelinedState* st,
                            double* partials, unsigned* counter) {
  if (st->done != kRunning) return;
  double s[2] = {0.0, 0.0};
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const double a = ap[i];
    s[0] += static_cast<double>(p[i]) * a;
    s[1] += a * a * (dinv ? static_cast<double>(dinv[i]) : 1.0);
  }
  if (detail::grid_sum<2>(s, partials, counter) && threadIdx.x == 0) {
    st->pap = s[0];
    st->apmap = s[1];
    if (!isfinite(s[0]) || !isfinite(s[1])) {
      st->done = kNonFinite;
    } else if (s[0] <= 0) {
      st->done = kBreakdown;
    } else {
      const double alpha = st->rz / s[0];
      st->alpha = alpha;
      st->beta = (alpha * alpha * s[1] - st->rz) / st->rz;
    }
  }
}

std::string short_number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}

}  // namespace

template <class V>
SolverResult pipelined_cg_on_device(const Executor& ex, long long n, const std::function<void(const V*, V*)>& spmv, const V* dinv,
                                    const V* b, V* x, const SolverOptions& o) {
  SolverResult res;
  Stopwatch watch;
  const auto s = detail::stream_of(ex);
  ReductionScratch scratch;
  const std::size_t un = static_cast<std::size_t>(n);
  DeviceArray<V> r(un), p(un), ap(un), z(dinv ? un : 0);
  V* zr = dinv ? z.data() : r.data();
  const double bnorm = std::sqrt(dot_host<V>(ex, n, b, b, scratch));
  auto finish = [&](SolverStatus status, const std::string& why) {
    res.status = status;
    res.message = why;
    return res;
  };
  if (bnorm == 0) {
    fill_zero<V>(ex, n, x);
    ex.synchronize();
    if (o.record_history) res.history.push_back(0);
    return finish(SolverStatus::converged, "b = 0: x = 0");
  }
  if (!std::isfinite(bnorm)) return finish(SolverStatus::non_finite, "||b|| is not finite");
  // r = b - A x
  spmv(x, ap.data());
  axpby<V>(ex, n, V(1), b, V(0), r.data());
  axpby<V>(ex, n, V(-1), ap.data(), V(1), r.data());
  const double rr0 = dot_host<V>(ex, n, r.data(), r.data(), scratch);
  res.relative_residual = std::sqrt(rr0) / bnorm;
  if (o.record_history) res.history.push_back(res.relative_residual);
  if (!std::isfinite(res.relative_residual)) return finish(SolverStatus::non_finite, "the initial residual is not finite");
  if (res.relative_residual <= o.tolerance) {
    return finish(SolverStatus::converged, "||r||/||b|| = " + short_number(res.relative_residual) + " <= " + short_number(o.tolerance));
  }
  if (dinv) scale_by<V>(ex, n, dinv, r.data(), z.data());
  axpby<V>(ex, n, V(1), zr, V(0), p.data());
  const double rz0 = dinv ? dot_host<V>(ex, n, r.data(), zr, scratch) : rr0;
  PipelinedState init{0, 0, rz0, rr0, 0, 0, bnorm, o.tolerance, 0, kRunning};
  DeviceArray<PipelinedState> state(1);
  state.upload(&init, 1);
  const int history_size = o.record_history ? o.max_iterations + 1 : 0;
  DeviceArray<double> history(static_cast<std::size_t>(history_size));
  const unsigned blocks = detail::reduction_blocks(n, ReductionScratch::kMaxBlocks);
  spmv(p.data(), ap.data());
  dots_kernel<<<blocks, detail::kReduceThreads, 0, s>>>(n, p.data(), ap.data(), dinv, state.data(), scratch.partials(), scratch.counter());
  HSPARSE_CUDA_CHECK(cudaGetLastError());
  ex.synchronize();
  res.setup_seconds = watch.seconds();
  watch.restart();
  PipelinedState host = init;
  const int check = std::max(1, o.check_every);
  for (int it = 1; it <= o.max_iterations; ++it) {
    update_kernel<<<blocks, detail::kReduceThreads, 0, s>>>(n, ap.data(), dinv, x, r.data(), dinv ? z.data() : nullptr, p.data(), state.data(),
                                                            history.data(), history_size, scratch.partials(), scratch.counter());
    spmv(p.data(), ap.data());
    dots_kernel<<<blocks, detail::kReduceThreads, 0, s>>>(n, p.data(), ap.data(), dinv, state.data(), scratch.partials(), scratch.counter());
    if (it % check == 0 || it == o.max_iterations) {
      HSPARSE_CUDA_CHECK(cudaGetLastError());
      HSPARSE_CUDA_CHECK(cudaMemcpyAsync(&host, state.data(), sizeof host, cudaMemcpyDeviceToHost, s));
      HSPARSE_CUDA_CHECK(cudaStreamSynchronize(s));
      if (o.progress && host.iteration > 0) o.progress(host.iteration, std::sqrt(host.rr) / bnorm);
      if (host.done != kRunning) break;
    }
  }
  HSPARSE_CUDA_CHECK(cudaMemcpyAsync(&host, state.data(), sizeof host, cudaMemcpyDeviceToHost, s));
  HSPARSE_CUDA_CHECK(cudaStreamSynchronize(s));
  res.seconds = watch.seconds();
  res.iterations = host.iteration;
  res.relative_residual = host.iteration > 0 ? std::sqrt(host.rr) / bnorm : res.relative_residual;
  if (o.record_history && host.iteration > 0) {
    std::vector<double> h = history.download();
    res.history.insert(res.history.end(), h.begin() + 1, h.begin() + 1 + std::min(host.iteration, history_size - 1));
  }
  switch (host.done) {
    case kConverged:
      return finish(SolverStatus::converged, "||r||/||b|| = " + short_number(res.relative_residual) + " <= " + short_number(o.tolerance));
    case kBreakdown:
      return finish(SolverStatus::breakdown, "p'Ap = " + short_number(host.pap) + " <= 0 in iteration " + std::to_string(host.iteration + 1) + " (" +
                                                 std::to_string(host.iteration) + " completed)" +
                                                 ": the matrix (or preconditioner) is not positive definite");
    case kNonFinite:
      return finish(SolverStatus::non_finite, "a scalar became non-finite at iteration " + std::to_string(host.iteration));
    default:
      return finish(SolverStatus::max_iterations, "not converged in " + std::to_string(o.max_iterations) + " iterations (||r||/||b|| = " +
                                                      short_number(res.relative_residual) + ")");
  }
}

template SolverResult pipelined_cg_on_device(const Executor&, long long, const std::function<void(const float*, float*)>&, const float*,
                                             const float*, float*, const SolverOptions&);
template SolverResult pipelined_cg_on_device(const Executor&, long long, const std::function<void(const double*, double*)>&, const double*,
                                             const double*, double*, const SolverOptions&);

}  // namespace hsparse::cuda
