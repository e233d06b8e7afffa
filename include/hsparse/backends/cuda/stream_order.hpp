#pragma once
/// @file
/// Ordering our stream against another library's (CuPy's, PyTorch's) with
/// an event on the device, never a host wait, as CuPy orders its own work.
/// Streams are named as the CUDA Array Interface (v3) names them: 0 none
/// given, 1 the legacy default stream, 2 the per-thread default stream, any
/// other value a cudaStream_t. The legacy default stream needs no event: an
/// executor's stream is a blocking one, ordered with it by CUDA itself.
#include <cstdint>

namespace hsparse::cuda {

/// One reusable event (made on first use), so ordering costs no allocation
/// per product. Not for use from several threads at once.
class StreamOrder {
 public:
  StreamOrder() = default;
  StreamOrder(const StreamOrder&) = delete;
  StreamOrder& operator=(const StreamOrder&) = delete;
  ~StreamOrder();
  /// `ours` (a cudaStream_t) waits for the work queued so far on `theirs`
  /// (nothing for 0 and 1).
  void wait_for(void* ours, std::uintptr_t theirs);
  /// `theirs` waits for the work queued so far on `ours`; with none given
  /// (0), the host waits for `ours` (the reader is unknown).
  void publish(void* ours, std::uintptr_t theirs);
  /// The host waits for `ours` (memory lent by DLPack may be freed once the
  /// call returns).
  static void synchronize(void* ours);

 private:
  void order(void* waiter, void* producer);  // waiter waits for producer's work so far
  void* event_ = nullptr;  // a cudaEvent_t without timing
};

}  // namespace hsparse::cuda
