// CPU-only builds: the CUDA backend is absent. Every entry point the layers
// above may name is defined here and throws Error(unsupported) saying so,
// as Ginkgo's "not compiled" hooks do, so that no file outside this backend
// needs `#ifdef HSPARSE_HAVE_CUDA`. None of them is reached in practice:
// make_executor(Backend::cuda) already refuses, and a cuda::Executor cannot
// be made (backends/executor_factory.cpp).
#include <complex>
#include <cstdint>

#include "hsparse/backends/cuda/cublas_cg.hpp"
#include "hsparse/backends/cuda/csr_spmv.hpp"
#include "hsparse/backends/cuda/cusparse_spmv.hpp"
#include "hsparse/backends/cuda/dense_ops.hpp"
#include "hsparse/backends/cuda/gather.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/backends/cuda/lma_spmv.hpp"
#include "hsparse/backends/cuda/pipelined_bicgstab.hpp"
#include "hsparse/backends/cuda/stream_order.hpp"
#include "hsparse/backends/cuda/timing.hpp"
#include "hsparse/backends/cuda/tridiagonal.hpp"
#include "hsparse/backends/cuda/vector_ops.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "../common/spmv_plan_builders.hpp"

namespace hsparse {
bool built_with_cuda() noexcept { return false; }
}  // namespace hsparse

namespace hsparse::cuda {

namespace {
[[noreturn]] void absent(const char* what) { throw Error(ErrorCode::unsupported, std::string(what) + ": " + device_description()); }
}  // namespace

bool device_available() { return false; }
int device_count() { return 0; }
std::size_t free_device_memory() { return 0; }
std::string device_description() { return "no GPU support: this hsparse was built without CUDA"; }
ArithmeticPeaks arithmetic_peaks(int) { return {}; }
std::size_t l2_cache_bytes() { return 0; }
std::shared_ptr<const Executor> make_cuda_executor(int) { absent("no CUDA executor"); }

// The executor and device memory.
Executor::Executor(int) { absent("a CUDA executor"); }
Executor::~Executor() = default;
std::string Executor::description() const { return device_description(); }
void Executor::synchronize() const { absent("a CUDA executor"); }
void* Executor::allocate(std::size_t) const { absent("device memory"); }
void Executor::release(void*) const noexcept {}
void Executor::copy_from_host(void*, const void*, std::size_t) const { absent("device memory"); }
void Executor::copy_to_host(void*, const void*, std::size_t) const { absent("device memory"); }
void Executor::copy(void*, const void*, std::size_t) const { absent("device memory"); }
void Executor::fill_zero(void*, std::size_t) const { absent("device memory"); }
namespace detail {
void* allocate(std::size_t) { absent("device memory"); }
void release(void*) noexcept {}
void copy_to_device(void*, const void*, std::size_t) { absent("device memory"); }
void copy_to_host(void*, const void*, std::size_t) { absent("device memory"); }
void synchronize() { absent("a device synchronisation"); }
void throw_size_error(std::size_t, std::size_t) { absent("device memory"); }
}  // namespace detail

// Timing.
TimingSummary time_on_device(const Executor&, const std::function<void()>&, int, int, const std::function<void()>&) { absent("device timing"); }
TimingSummary time_back_to_back(const Executor&, const std::function<void()>&, int, int) { absent("device timing"); }
EventTimer::EventTimer() { absent("a device timer"); }
EventTimer::~EventTimer() = default;
void EventTimer::start(const Executor&) { absent("a device timer"); }
void EventTimer::stop(const Executor&) { absent("a device timer"); }
double EventTimer::seconds() const { absent("a device timer"); }
L2Flusher::L2Flusher(const Executor&) : ex_(nullptr) { absent("an L2 flush"); }
void L2Flusher::operator()() const { absent("an L2 flush"); }
DeviceBandwidth measure_device_bandwidth(const Executor&, std::size_t, int) { absent("a device bandwidth test"); }

// Stream ordering (the Python binding's device arrays).
StreamOrder::~StreamOrder() = default;
void StreamOrder::wait_for(void*, std::uintptr_t) { absent("stream ordering"); }
void StreamOrder::publish(void*, std::uintptr_t) { absent("stream ordering"); }
void StreamOrder::synchronize(void*) { absent("stream ordering"); }
void StreamOrder::order(void*, void*) { absent("stream ordering"); }

// Vector kernels and the pipelined CG's step (float and double, as the CUDA build).
ReductionScratch::ReductionScratch() { absent("a device reduction"); }
#define HSPARSE_ABSENT(V)                                                                                                                        \
  template <> void mdot(const Executor&, long long, const V*, const std::vector<const V*>&, double*, ReductionScratch&) { absent("mdot"); }    \
  template <> void dot(const Executor&, long long, const V*, const V*, double*, ReductionScratch&) { absent("dot"); }                         \
  template <> void mdot_scaled(const Executor&, long long, const V*, const std::vector<const V*>&, V, V, V*, long long, ReductionScratch&) {  \
    absent("mdot_scaled");                                                                                                                     \
  }                                                                                                                                            \
  template <> void mdot_host(const Executor&, long long, const V*, const std::vector<const V*>&, std::span<double>, ReductionScratch&) {      \
    absent("mdot");                                                                                                                            \
  }                                                                                                                                            \
  template <> double dot_host(const Executor&, long long, const V*, const V*, ReductionScratch&) { absent("dot"); }                           \
  template <> void axpby(const Executor&, long long, V, const V*, V, V*) { absent("axpby"); }                                                 \
  template <> void maxpy_sub(const Executor&, long long, std::span<const double>, const std::vector<const V*>&, V*) { absent("maxpy"); }     \
  template <> void fill_zero(const Executor&, long long, V*) { absent("fill_zero"); }                                                        \
  template <> void scale_by(const Executor&, long long, const V*, const V*, V*) { absent("scale_by"); }                                      \
  template <> void mdot_as_dots(const Executor&, long long, const V*, const std::vector<const V*>&, double*, ReductionScratch&) {            \
    absent("mdot");                                                                                                                            \
  }                                                                                                                                            \
  template <> void mdot_as_gemv(const Executor&, long long, long long, const V*, const V*, V*) { absent("mdot"); }                            \
  template <> void pipelined_cg_update(const Executor&, long long, const V*, const V*, V*, V*, V*, V*, PipelinedCgState*, double*, int,       \
                                       ReductionScratch&, double*) {                                                                          \
    absent("pipelined CG");                                                                                                                    \
  }                                                                                                                                            \
  template <> void pipelined_cg_dots(const Executor&, long long, const V*, const V*, const V*, PipelinedCgState*, ReductionScratch&, double*) { \
    absent("pipelined CG");                                                                                                                    \
  }                                                                                                                                            \
  template <> BaselineCgResult cusparse_cublas_cg(const Executor&, const Csr<V, std::int32_t>&, const V*, V*, double, int, bool) {            \
    absent("the cuSPARSE CG");                                                                                                                 \
  }                                                                                                                                            \
  template <> struct TridiagonalSolver<V>::State {};                                                                                        \
  template <> TridiagonalSolver<V>::TridiagonalSolver(const Executor&) { absent("a GPU tridiagonal solver"); }                                \
  template <> TridiagonalSolver<V>::~TridiagonalSolver() = default;                                                                          \
  template <> void TridiagonalSolver<V>::solve(const TridiagonalSystems<V>&, const V*, V*, const TridiagonalOptions&) { absent("tridiagonal"); } \
  template <> void TridiagonalSolver<V>::check() { absent("tridiagonal"); }                                                                  \
  template <> void TridiagonalSolver<V>::cusparse_solve(const TridiagonalSystems<V>&, const V*, V*, bool) { absent("tridiagonal"); }
HSPARSE_ABSENT(float)
HSPARSE_ABSENT(double)
#undef HSPARSE_ABSENT

// Dense kernels (every value type).
#define HSPARSE_ABSENT(T)                                                                                                                      \
  template <> void gemm(const Executor&, GemmAlgorithm, Op, Op, T, const ConstDenseView<T>&, const ConstDenseView<T>&, T, const DenseView<T>&, \
                        const GemmTile&) {                                                                                                    \
    absent("a GPU GEMM");                                                                                                                      \
  }                                                                                                                                            \
  template <> void tall_skinny_dot(const Executor&, T, const ConstDenseView<T>&, const ConstDenseView<T>&, T, const DenseView<T>&) {         \
    absent("a GPU tall-skinny product");                                                                                                       \
  }                                                                                                                                            \
  template <> void tall_skinny_update(const Executor&, T, const ConstDenseView<T>&, const ConstDenseView<T>&, T, const DenseView<T>&) {      \
    absent("a GPU tall-skinny product");                                                                                                       \
  }
HSPARSE_FOR_EACH_VALUE(HSPARSE_ABSENT)
#undef HSPARSE_ABSENT

// Sparse plans and kernels named above the backend (every value and index type).
#define HSPARSE_ABSENT(V, I)                                                                                                                    \
  template <> SpmvParts<V> build_spmv_plan(const Executor&, const Csr<V, I>&, const SpmvOptions&, const std::string&) {     \
    absent("a CUDA plan");                                                                                                                     \
  }                                                                                                                                            \
  template <> void csr_spmv_vector(const Executor&, V, const DeviceCsr<V, I>&, const V*, V, V*, CsrVectorParams) { absent("CSR vector"); }  \
  template <> struct CusparseSpmm<V, I>::State {};                                                                                          \
  template <> CusparseSpmm<V, I>::CusparseSpmm(const Executor&, const DeviceCsr<V, I>&, const ConstDenseView<V>&, const DenseView<V>&,       \
                                               CusparseSpmmVariant) {                                                                         \
    absent("cuSPARSE SpMM");                                                                                                                   \
  }                                                                                                                                            \
  template <> CusparseSpmm<V, I>::~CusparseSpmm() = default;                                                                                 \
  template <> void CusparseSpmm<V, I>::apply(V, V) const { absent("cuSPARSE SpMM"); }
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_ABSENT)
#undef HSPARSE_ABSENT

// Element operators (real values, as the CUDA build).
#define HSPARSE_ABSENT(V, I)                                                                                                          \
  template <> void lma_spmv(const Executor&, LmaScatter, V, const DeviceLocalMatrices<V, I>&, const V*, V, V*) { absent("LMA SpMV"); } \
  template <> void pa_spmv(const Executor&, LmaScatter, V, const DeviceQuadratureData<V, I>&, const V*, V, V*) { absent("PA SpMV"); }
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_ABSENT)
#undef HSPARSE_ABSENT

void pipelined_cg_advance(const Executor&, PipelinedCgState*, const double*, bool, double*, int) { absent("pipelined CG"); }

// The complex vector kernels (complex_vector_ops.cu).
#define HSPARSE_ABSENT(R)                                                                                                              \
  template <> void mdot_host(const Executor&, long long, const std::complex<R>*, const std::vector<const std::complex<R>*>&,          \
                             std::span<std::complex<double>>, ReductionScratch&) {                                                    \
    absent("mdot");                                                                                                                     \
  }                                                                                                                                     \
  template <> std::complex<double> dot_host(const Executor&, long long, const std::complex<R>*, const std::complex<R>*, ReductionScratch&) { \
    absent("dot");                                                                                                                      \
  }                                                                                                                                     \
  template <> void axpby(const Executor&, long long, std::complex<R>, const std::complex<R>*, std::complex<R>, std::complex<R>*) {   \
    absent("axpby");                                                                                                                    \
  }                                                                                                                                     \
  template <> void maxpy_sub(const Executor&, long long, std::span<const std::complex<double>>, const std::vector<const std::complex<R>*>&, \
                             std::complex<R>*) {                                                                                      \
    absent("maxpy");                                                                                                                    \
  }                                                                                                                                     \
  template <> void scale_by(const Executor&, long long, const std::complex<R>*, const std::complex<R>*, std::complex<R>*) { absent("scale_by"); }
HSPARSE_ABSENT(float)
HSPARSE_ABSENT(double)
#undef HSPARSE_ABSENT

// Pipelined BiCGStab's fused kernels (float and double, as the CUDA build).
#define HSPARSE_ABSENT(V)                                                                                                              \
  template <> std::array<double, 2> pipelined_bicgstab_directions(const Executor&, bool, V, V, V, const PipelinedBicgstabVectors<V>&, \
                                                                  ReductionScratch&) {                                                 \
    absent("pipelined BiCGStab");                                                                                                       \
  }                                                                                                                                     \
  template <> std::array<double, 5> pipelined_bicgstab_residuals(const Executor&, V, V, const PipelinedBicgstabVectors<V>&, ReductionScratch&) { \
    absent("pipelined BiCGStab");                                                                                                       \
  }
HSPARSE_ABSENT(float)
HSPARSE_ABSENT(double)
#undef HSPARSE_ABSENT

// The halo's gather and the remote part's scatter (every value type, as the CUDA build).
#define HSPARSE_ABSENT(V) \
  template <> void gather(const Executor&, long long, const V*, const std::int64_t*, V*) { absent("the halo gather"); } \
  template <> void scatter_add(const Executor&, long long, const V*, const std::int64_t*, V*) { absent("the remote part's scatter"); }
HSPARSE_FOR_EACH_VALUE(HSPARSE_ABSENT)
#undef HSPARSE_ABSENT

}  // namespace hsparse::cuda
