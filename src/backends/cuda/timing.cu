// Event timing, L2 flushing and the device bandwidth kernels (timing.hpp).
#include <algorithm>
#include <vector>

#include "device_common.cuh"
#include "hsparse/backends/cuda/l2_window.hpp"
#include "hsparse/backends/cuda/timing.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda {

namespace {

struct Event {
  cudaEvent_t event = nullptr;
  Event() { HSPARSE_CUDA_CHECK(cudaEventCreate(&event)); }
  ~Event() { cudaEventDestroy(event); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
};

__global__ void read_kernel(const double2* __restrict__ data, long long n, double* __restrict__ sink) {
  double sum = 0;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const double2 v = data[i];
    sum += v.x + v.y;
  }
  if (sum == 1.2345e300) *sink = sum;  // never true: keeps the loads
}

__global__ void copy_kernel(const double2* __restrict__ src, double2* __restrict__ dst, long long n) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    dst[i] = src[i];
  }
}

int device_sms() {
  int device = 0, sms = 0;
  HSPARSE_CUDA_CHECK(cudaGetDevice(&device));
  HSPARSE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

}  // namespace

namespace {

// Seconds per call of `calls` calls issued back to back between two events.
double seconds_per_call(cudaStream_t stream, const Event& start, const Event& stop, const std::function<void()>& fn, int calls) {
  HSPARSE_CUDA_CHECK(cudaEventRecord(start.event, stream));
  for (int c = 0; c < calls; ++c) fn();
  HSPARSE_CUDA_CHECK(cudaEventRecord(stop.event, stream));
  HSPARSE_CUDA_CHECK(cudaEventSynchronize(stop.event));
  float ms = 0;
  HSPARSE_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event, stop.event));
  return static_cast<double>(ms) * 1e-3 / calls;
}

}  // namespace

TimingSummary time_on_device(const Executor& ex, const std::function<void()>& fn, int repetitions, int warmup,
                             const std::function<void()>& before_each) {
  const cudaStream_t stream = detail::stream_of(ex);
  for (int i = 0; i < warmup; ++i) fn();
  Event start, stop;
  std::vector<double> times;
  times.reserve(static_cast<std::size_t>(std::max(repetitions, 0)));
  for (int i = 0; i < repetitions; ++i) {
    if (before_each) before_each();
    times.push_back(seconds_per_call(stream, start, stop, fn, 1));
  }
  return summarize_times(std::move(times));
}

TimingSummary time_back_to_back(const Executor& ex, const std::function<void()>& fn, int calls, int samples) {
  if (calls < 1 || samples < 1) throw Error(ErrorCode::invalid_argument, "time_back_to_back: calls and samples must be >= 1");
  const cudaStream_t stream = detail::stream_of(ex);
  fn();  // warm-up: the data the calls share is in L2 from here on, as it stays between them
  Event start, stop;
  std::vector<double> times;
  for (int i = 0; i < samples; ++i) times.push_back(seconds_per_call(stream, start, stop, fn, calls));
  return summarize_times(std::move(times));
}

EventTimer::EventTimer() {
  cudaEvent_t a, b;
  HSPARSE_CUDA_CHECK(cudaEventCreate(&a));
  HSPARSE_CUDA_CHECK(cudaEventCreate(&b));
  start_ = a;
  stop_ = b;
}

EventTimer::~EventTimer() {
  cudaEventDestroy(static_cast<cudaEvent_t>(start_));
  cudaEventDestroy(static_cast<cudaEvent_t>(stop_));
}

void EventTimer::start(const Executor& ex) { HSPARSE_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(start_), detail::stream_of(ex))); }
void EventTimer::stop(const Executor& ex) { HSPARSE_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(stop_), detail::stream_of(ex))); }

double EventTimer::seconds() const {
  HSPARSE_CUDA_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(stop_)));
  float ms = 0;
  HSPARSE_CUDA_CHECK(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start_), static_cast<cudaEvent_t>(stop_)));
  return static_cast<double>(ms) * 1e-3;
}

std::size_t l2_cache_bytes() {
  if (!device_available()) return 0;
  int device = 0, bytes = 0;
  HSPARSE_CUDA_CHECK(cudaGetDevice(&device));
  HSPARSE_CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, device));
  return static_cast<std::size_t>(bytes);
}

L2Flusher::L2Flusher(const Executor& ex) : ex_(&ex), buffer_(std::max<std::size_t>(2 * l2_cache_bytes(), 1)) {}

void L2Flusher::operator()() const {
  reset_persisting_l2();  // persisting lines (an SpMV's x window) survive normal writes
  HSPARSE_CUDA_CHECK(cudaMemsetAsync(const_cast<unsigned char*>(buffer_.data()), 0, buffer_.size(), detail::stream_of(*ex_)));
}

DeviceBandwidth measure_device_bandwidth(const Executor& ex, std::size_t buffer_bytes, int repetitions) {
  DeviceBandwidth bw;
  if (buffer_bytes == 0) buffer_bytes = std::max<std::size_t>(32 * l2_cache_bytes(), std::size_t{1} << 30);
  buffer_bytes = buffer_bytes / 32 * 32;
  bw.buffer_bytes = buffer_bytes;
  const long long n = static_cast<long long>(buffer_bytes / sizeof(double2));
  DeviceArray<double2> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n) / 2);
  DeviceArray<double> sink(1);
  HSPARSE_CUDA_CHECK(cudaMemsetAsync(a.data(), 0, buffer_bytes, detail::stream_of(ex)));
  const unsigned grid = static_cast<unsigned>(device_sms() * 8);
  const auto read = time_on_device(ex, [&] { read_kernel<<<grid, 256, 0, detail::stream_of(ex)>>>(a.data(), n, sink.data()); },
                                   repetitions, 2);
  const auto copy = time_on_device(
      ex, [&] { copy_kernel<<<grid, 256, 0, detail::stream_of(ex)>>>(a.data(), b.data(), n / 2); }, repetitions, 2);
  HSPARSE_CUDA_CHECK(cudaGetLastError());
  bw.read_bytes_per_s = static_cast<double>(buffer_bytes) / read.min_s;
  bw.copy_bytes_per_s = static_cast<double>(buffer_bytes) / copy.min_s;  // n/2 elements read + n/2 written
  return bw;
}

}  // namespace hsparse::cuda
