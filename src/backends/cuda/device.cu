#include <cstdio>
#include <string>

#include "check.cuh"
#include "hsparse/backends/cuda/device.hpp"

namespace hsparse {
// Declared in the generated version.hpp; no_device.cpp gives the CPU-only answer.
bool built_with_cuda() noexcept { return true; }
}  // namespace hsparse

namespace hsparse::cuda {

bool device_available() { return device_count() > 0; }

int device_count() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

std::size_t free_device_memory() {
  if (!device_available()) return 0;
  std::size_t free_bytes = 0, total_bytes = 0;
  HSPARSE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes;
}

ArithmeticPeaks arithmetic_peaks(int device) {
  ArithmeticPeaks p;
  int sms = 0, khz = 0, major = 0, minor = 0;
  HSPARSE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  HSPARSE_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
  HSPARSE_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  HSPARSE_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  const double ghz = khz * 1e-6, per_sm_ghz = sms * ghz;
  char basis[96];
  std::snprintf(basis, sizeof basis, "%d SMs x %.2f GHz (sm_%d%d)", sms, ghz, major, minor);
  p.basis = basis;
  p.sm_cycles_per_s = per_sm_ghz * 1e9;
  if (major == 9 && minor == 0) {  // Hopper (H100/H200 datasheet rates per SM per clock)
    p.known = true;
    p.fp64 = 128 * per_sm_ghz;
    p.fp64_tensor = 256 * per_sm_ghz;
    p.fp32 = 256 * per_sm_ghz;
    p.tf32_tensor = 2048 * per_sm_ghz;
  } else {
    p.basis += ": no per-SM rates known for this architecture";
  }
  return p;
}

std::string device_description() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    // Said in a user's words: the runtime's "CUDA driver version is
    // insufficient" is what a machine without an NVIDIA driver reports.
    if (status == cudaErrorInsufficientDriver || status == cudaErrorNoDevice || count == 0) {
      return "no GPU: no NVIDIA driver or no NVIDIA GPU on this machine";
    }
    return std::string("no usable GPU (CUDA: ") + cudaGetErrorString(status) + ")";
  }
  int device = 0;
  HSPARSE_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp p{};
  HSPARSE_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, "%s (sm_%d%d, %d SMs, %.1f GiB, L2 %.0f MiB)", p.name, p.major, p.minor,
                p.multiProcessorCount, static_cast<double>(p.totalGlobalMem) / (1 << 30),
                static_cast<double>(p.l2CacheSize) / (1 << 20));
  return buffer;
}

Executor::Executor(int device) : device_(device) {
  HSPARSE_CUDA_CHECK(cudaSetDevice(device));
  HSPARSE_CUDA_CHECK(cudaDeviceGetAttribute(&shape_.multiprocessors, cudaDevAttrMultiProcessorCount, device));
  HSPARSE_CUDA_CHECK(cudaDeviceGetAttribute(&shape_.threads_per_multiprocessor, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  HSPARSE_CUDA_CHECK(cudaDeviceGetAttribute(&shape_.blocks_per_multiprocessor, cudaDevAttrMaxBlocksPerMultiprocessor, device));
  // A blocking stream, deliberately: DeviceArray's copies use cudaMemcpy on
  // the legacy default stream, and a pageable host-to-device cudaMemcpy may
  // return before its DMA lands. A non-blocking stream does not wait for it,
  // so a kernel could run before (and be overwritten by) the copy of its
  // input or of the NaN poison; seen on the H200 as sporadic
  // NaN rows. A blocking stream orders kernels after legacy-stream copies.
  cudaStream_t s = nullptr;
  HSPARSE_CUDA_CHECK(cudaStreamCreate(&s));
  stream_ = s;
}

Executor::~Executor() {
  if (stream_ != nullptr) cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
}

void Executor::synchronize() const { HSPARSE_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(stream_))); }

std::string Executor::description() const {
  cudaDeviceProp p{};
  HSPARSE_CUDA_CHECK(cudaGetDeviceProperties(&p, device_));
  return "cuda:" + std::to_string(device_) + " (" + p.name + ", " + std::to_string(shape_.multiprocessors) + " SMs)";
}
void* Executor::allocate(std::size_t bytes) const { return bytes ? detail::allocate(bytes) : nullptr; }
void Executor::release(void* p) const noexcept { detail::release(p); }
// Host copies use the legacy default stream (detail::), which waits for this
// blocking stream's earlier work and which this stream's later work waits for.
void Executor::copy_from_host(void* dst, const void* host_src, std::size_t bytes) const { detail::copy_to_device(dst, host_src, bytes); }
void Executor::copy_to_host(void* host_dst, const void* src, std::size_t bytes) const { detail::copy_to_host(host_dst, src, bytes); }
void Executor::copy(void* dst, const void* src, std::size_t bytes) const {
  if (bytes) HSPARSE_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, static_cast<cudaStream_t>(stream_)));
}
void Executor::fill_zero(void* dst, std::size_t bytes) const {
  if (bytes) HSPARSE_CUDA_CHECK(cudaMemsetAsync(dst, 0, bytes, static_cast<cudaStream_t>(stream_)));
}

std::shared_ptr<const Executor> make_cuda_executor(int device) {
  if (!device_available()) throw Error(ErrorCode::unsupported, "no CUDA executor: " + device_description());
  return std::make_shared<const Executor>(device);
}

namespace detail {

void* allocate(std::size_t bytes) {
  void* p = nullptr;
  const cudaError_t status = cudaMalloc(&p, bytes);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // clear the sticky-free error state
    std::size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    throw Error(ErrorCode::out_of_memory, "device allocation of " + std::to_string(bytes) + " bytes failed (" +
                                              std::to_string(free_bytes) + " of " + std::to_string(total_bytes) +
                                              " bytes free)");
  }
  check(status, "cudaMalloc");
  return p;
}

void release(void* p) noexcept {
  if (p != nullptr) cudaFree(p);
}

// copy_to_device: staged_upload.cpp.

void copy_to_host(void* dst, const void* src, std::size_t bytes) {
  if (bytes) HSPARSE_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
}

void synchronize() { HSPARSE_CUDA_CHECK(cudaDeviceSynchronize()); }

void throw_size_error(std::size_t wanted, std::size_t have) {
  throw Error(ErrorCode::invalid_argument, "device array of " + std::to_string(have) + " elements cannot take " + std::to_string(wanted));
}

}  // namespace detail
}  // namespace hsparse::cuda
