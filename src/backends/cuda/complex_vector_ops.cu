// The solvers' vector kernels for complex values on the GPU
// (backends/cuda/vector_ops.hpp): the Krylov methods' complex solves (CG on
// a Hermitian matrix, GMRES, BiCGStab). The real kernels (vector_ops.cu)
// accumulate one double per sum; a complex inner product conj(a) b is two,
// its real and imaginary parts, through the same deterministic grid sum
// (reduction.cuh), so mdot takes up to four vectors per launch.
#include <complex>

#include "device_common.cuh"
#include "elementwise.cuh"
#include "hsparse/backends/cuda/vector_ops.hpp"
#include "hsparse/core/error.hpp"
#include "reduction.cuh"

namespace hsparse::cuda {

namespace {

constexpr int kComplexBatch = ReductionScratch::kMaxValues / 2;  // sums per launch: two doubles each

template <class R>
using C = ::cuda::std::complex<R>;

template <class R>
struct ComplexBatch {
  const C<R>* v[kComplexBatch];
};

// out[2k], out[2k+1] = the real and imaginary parts of <v_k, w> = sum conj(v_k) w.
template <int B, class R>
__global__ void complex_mdot_kernel(long long n, const C<R>* __restrict__ w, ComplexBatch<R> batch, double* partials, unsigned* counter, double* out) {
  double s[2 * B] = {};
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const double wr = w[i].real(), wi = w[i].imag();
#pragma unroll
    for (int k = 0; k < B; ++k) {
      const double vr = batch.v[k][i].real(), vi = batch.v[k][i].imag();
      s[2 * k] += vr * wr + vi * wi;
      s[2 * k + 1] += vr * wi - vi * wr;
    }
  }
  if (detail::grid_sum<2 * B>(s, partials, counter) && threadIdx.x == 0) {
#pragma unroll
    for (int j = 0; j < 2 * B; ++j) out[j] = s[j];
  }
}

template <class R>
const C<R>* dev(const std::complex<R>* p) { return reinterpret_cast<const C<R>*>(p); }
template <class R>
C<R>* dev(std::complex<R>* p) { return reinterpret_cast<C<R>*>(p); }

template <class R>
void complex_mdot_host(const Executor& ex, long long n, const std::complex<R>* w, const std::vector<const std::complex<R>*>& vs,
                       std::span<std::complex<double>> out, ReductionScratch& scratch) {
  if (vs.size() != out.size()) {
    throw Error(ErrorCode::invalid_argument, "mdot: " + std::to_string(vs.size()) + " vectors but " + std::to_string(out.size()) + " values");
  }
  const auto s = detail::stream_of(ex);
  const unsigned blocks = detail::reduction_blocks(n, ReductionScratch::kMaxBlocks);
  double h[2 * kComplexBatch];
  for (std::size_t k = 0; k < vs.size(); k += kComplexBatch) {
    const int b = static_cast<int>(std::min<std::size_t>(kComplexBatch, vs.size() - k));
    ComplexBatch<R> batch{};
    for (int j = 0; j < b; ++j) batch.v[j] = dev(vs[k + static_cast<std::size_t>(j)]);
    switch (b) {
      case 4: complex_mdot_kernel<4><<<blocks, detail::kReduceThreads, 0, s>>>(n, dev(w), batch, scratch.partials(), scratch.counter(), scratch.results()); break;
      case 3: complex_mdot_kernel<3><<<blocks, detail::kReduceThreads, 0, s>>>(n, dev(w), batch, scratch.partials(), scratch.counter(), scratch.results()); break;
      case 2: complex_mdot_kernel<2><<<blocks, detail::kReduceThreads, 0, s>>>(n, dev(w), batch, scratch.partials(), scratch.counter(), scratch.results()); break;
      default: complex_mdot_kernel<1><<<blocks, detail::kReduceThreads, 0, s>>>(n, dev(w), batch, scratch.partials(), scratch.counter(), scratch.results()); break;
    }
    HSPARSE_CUDA_CHECK(cudaGetLastError());
    HSPARSE_CUDA_CHECK(cudaMemcpyAsync(h, scratch.results(), 2 * static_cast<std::size_t>(b) * sizeof(double), cudaMemcpyDeviceToHost, s));
    HSPARSE_CUDA_CHECK(cudaStreamSynchronize(s));
    for (int j = 0; j < b; ++j) out[k + static_cast<std::size_t>(j)] = {h[2 * j], h[2 * j + 1]};
  }
}

}  // namespace

#define HSPARSE_COMPLEX_OPS(R)                                                                                                          \
  template <>                                                                                                                          \
  void mdot_host(const Executor& ex, long long n, const std::complex<R>* w, const std::vector<const std::complex<R>*>& vs,             \
                 std::span<std::complex<double>> out, ReductionScratch& scratch) {                                                      \
    complex_mdot_host<R>(ex, n, w, vs, out, scratch);                                                                                   \
  }                                                                                                                                    \
  template <>                                                                                                                          \
  std::complex<double> dot_host(const Executor& ex, long long n, const std::complex<R>* a, const std::complex<R>* b,                  \
                                ReductionScratch& scratch) {                                                                           \
    std::complex<double> r;                                                                                                             \
    complex_mdot_host<R>(ex, n, b, {a}, std::span<std::complex<double>>(&r, 1), scratch); /* <a, b> = sum conj(a) b */                 \
    return r;                                                                                                                           \
  }                                                                                                                                    \
  template <>                                                                                                                          \
  void axpby(const Executor& ex, long long n, std::complex<R> alpha, const std::complex<R>* x, std::complex<R> beta, std::complex<R>* y) { \
    if (n <= 0) return;                                                                                                                 \
    detail::axpby_kernel<C<R>><<<detail::elementwise_blocks(n), 256, 0, detail::stream_of(ex)>>>(n, C<R>(alpha.real(), alpha.imag()), dev(x),               \
                                                                             C<R>(beta.real(), beta.imag()), dev(y), beta != std::complex<R>(0)); \
    HSPARSE_CUDA_CHECK(cudaGetLastError());                                                                                             \
  }                                                                                                                                    \
  template <>                                                                                                                          \
  void maxpy_sub(const Executor& ex, long long n, std::span<const std::complex<double>> coef, const std::vector<const std::complex<R>*>& vs, \
                 std::complex<R>* y) {                                                                                                  \
    if (vs.size() != coef.size()) {                                                                                                     \
      throw Error(ErrorCode::invalid_argument, "maxpy: " + std::to_string(vs.size()) + " vectors but " + std::to_string(coef.size()) + " values"); \
    }                                                                                                                                   \
    for (std::size_t k = 0; k < vs.size(); ++k) { /* one pass per vector: the complex solves are not the tuned path */               \
      axpby<std::complex<R>>(ex, n, -static_cast<std::complex<R>>(coef[k]), vs[k], std::complex<R>(1), y);                             \
    }                                                                                                                                   \
  }                                                                                                                                    \
  template <>                                                                                                                          \
  void scale_by(const Executor& ex, long long n, const std::complex<R>* d, const std::complex<R>* r, std::complex<R>* z) {            \
    if (n <= 0) return;                                                                                                                 \
    detail::scale_by_kernel<C<R>><<<detail::elementwise_blocks(n), 256, 0, detail::stream_of(ex)>>>(n, dev(d), dev(r), dev(z));                             \
    HSPARSE_CUDA_CHECK(cudaGetLastError());                                                                                             \
  }
HSPARSE_COMPLEX_OPS(float)
HSPARSE_COMPLEX_OPS(double)
#undef HSPARSE_COMPLEX_OPS

}  // namespace hsparse::cuda
