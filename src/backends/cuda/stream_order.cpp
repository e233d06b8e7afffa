// Stream ordering with one event (backends/cuda/stream_order.hpp).
#include "hsparse/backends/cuda/stream_order.hpp"

#include <cuda_runtime.h>

#include <string>

#include "hsparse/core/error.hpp"

namespace hsparse::cuda {

namespace {
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(ErrorCode::cuda, std::string(what) + ": " + cudaGetErrorString(e));
}
cudaStream_t handle(std::uintptr_t s) { return s == 2 ? cudaStreamPerThread : reinterpret_cast<cudaStream_t>(s); }
}  // namespace

StreamOrder::~StreamOrder() {
  if (event_) cudaEventDestroy(static_cast<cudaEvent_t>(event_));
}

void StreamOrder::order(void* waiter, void* producer) {
  if (!event_) {
    cudaEvent_t e = nullptr;
    check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "creating an event");
    event_ = e;
  }
  const auto e = static_cast<cudaEvent_t>(event_);
  check(cudaEventRecord(e, static_cast<cudaStream_t>(producer)), "recording an event on the producing stream");
  // The wait takes the event's state now: it may be recorded again at once.
  check(cudaStreamWaitEvent(static_cast<cudaStream_t>(waiter), e, 0), "ordering the streams");
}

void StreamOrder::wait_for(void* ours, std::uintptr_t theirs) {
  if (theirs > 1) order(ours, handle(theirs));
}

void StreamOrder::publish(void* ours, std::uintptr_t theirs) {
  if (theirs == 0) return synchronize(ours);
  if (theirs > 1) order(handle(theirs), ours);
}

void StreamOrder::synchronize(void* ours) { check(cudaStreamSynchronize(static_cast<cudaStream_t>(ours)), "waiting for the device work"); }

}  // namespace hsparse::cuda
