// Host-to-device copies of large arrays through pinned staging buffers
// (detail::copy_to_device). A cudaMemcpy from pageable memory moved a
// plan's 1.2 GB at about 8 GB/s on the H100's host (150-200 ms of a 200 ms
// setup): the driver stages it through its own small pinned
// buffer, one memcpy at a time. Here the host's cores fill one 16 MB pinned
// buffer while the DMA engine drains the other (double buffering), so the
// copy runs at the link's speed instead of one core's memcpy.
#include <cuda_runtime.h>
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "check.cuh"

namespace hsparse::cuda::detail {

namespace {

constexpr std::size_t kChunk = std::size_t{16} << 20;      // bytes per staging buffer
constexpr std::size_t kStagedFrom = std::size_t{32} << 20;  // smaller copies: cudaMemcpy (the setup cost would not pay)
constexpr std::size_t kPiece = std::size_t{1} << 20;       // one thread's share of a chunk

// One pair of buffers per process, for the device they were made on (a copy
// to another device takes cudaMemcpy); copies take turns on the mutex. Never
// freed: freeing pinned memory at exit can run after the driver's teardown.
struct Staging {
  std::mutex mutex;
  int device = -1;
  bool unusable = false;  // pinned allocation failed once: cudaMemcpy from then on
  void* buffer[2] = {nullptr, nullptr};
  cudaEvent_t drained[2] = {nullptr, nullptr};
};

Staging& staging() {
  static Staging* s = new Staging;
  return *s;
}

bool prepare(Staging& s, int device) {
  if (s.unusable) return false;
  if (s.device == device) return true;
  if (s.device >= 0) return false;  // made for another device
  for (int b = 0; b < 2; ++b) {
    if (cudaMallocHost(&s.buffer[b], kChunk) != cudaSuccess || cudaEventCreateWithFlags(&s.drained[b], cudaEventDisableTiming) != cudaSuccess) {
      cudaGetLastError();  // not sticky: the plain copy still works
      s.unusable = true;
      return false;
    }
  }
  s.device = device;
  return true;
}

void fill(void* to, const char* from, std::size_t n) {
  const auto pieces = static_cast<long long>((n + kPiece - 1) / kPiece);
#pragma omp parallel for schedule(static) if (pieces > 1 && !omp_in_parallel())
  for (long long p = 0; p < pieces; ++p) {
    const std::size_t at = static_cast<std::size_t>(p) * kPiece;
    std::memcpy(static_cast<char*>(to) + at, from + at, std::min(kPiece, n - at));
  }
}

}  // namespace

void copy_to_device(void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  int device = 0;
  HSPARSE_CUDA_CHECK(cudaGetDevice(&device));
  Staging& s = staging();
  std::unique_lock<std::mutex> lock(s.mutex, std::defer_lock);
  if (bytes < kStagedFrom || !lock.try_lock() || !prepare(s, device)) {
    // Small, or another thread is staging, or no pinned memory: the driver's copy.
    HSPARSE_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
    return;
  }
  // The legacy default stream, as cudaMemcpy: ordered after earlier work on
  // it and before later work on blocking streams (Executor's stream).
  const char* from = static_cast<const char*>(src);
  char* to = static_cast<char*>(dst);
  for (std::size_t at = 0, chunk = 0; at < bytes; at += kChunk, ++chunk) {
    const int b = static_cast<int>(chunk % 2);
    const std::size_t n = std::min(kChunk, bytes - at);
    HSPARSE_CUDA_CHECK(cudaEventSynchronize(s.drained[b]));  // its previous chunk has left
    fill(s.buffer[b], from + at, n);
    HSPARSE_CUDA_CHECK(cudaMemcpyAsync(to + at, s.buffer[b], n, cudaMemcpyHostToDevice, cudaStreamLegacy));
    HSPARSE_CUDA_CHECK(cudaEventRecord(s.drained[b], cudaStreamLegacy));
  }
  HSPARSE_CUDA_CHECK(cudaEventSynchronize(s.drained[0]));
  HSPARSE_CUDA_CHECK(cudaEventSynchronize(s.drained[1]));
}

}  // namespace hsparse::cuda::detail
