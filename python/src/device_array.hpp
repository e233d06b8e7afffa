#pragma once
// Device arrays from other libraries (CuPy, and any object with
// __cuda_array_interface__, versions 2 and 3): the interface read once per
// call (CuPy builds the dict at every access) and checked here in C++, which
// costs a fraction of the same checks in Python (issue 20's overhead goal).
// StreamOrder orders our work with the arrays' streams on the device.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "bindings.hpp"
#include "hsparse/backends/cuda/stream_order.hpp"

namespace hsparse::python {

/// What a device array's __cuda_array_interface__ says, checked.
struct DeviceArray {
  std::uintptr_t data = 0;            ///< element 0 (0 only when empty)
  std::uintptr_t stream = 0;          ///< the v3 "stream" field: 0 none given, 1 legacy default, 2 per-thread default, else a handle
  int ndim = 1;                       ///< 1 or 2
  std::array<long long, 2> shape{};   ///< shape[1] = 1 for 1-D
  std::array<long long, 2> strides{}; ///< in elements (C-contiguous ones where the interface gives none)
  bool readonly = false;
  bool cupy = false;                  ///< a CuPy array, read through its attributes (its stream: CuPy's current one)
  /// A DLPack array: the capsule lending the memory for the call (its
  /// producer made the data ready on our stream: nothing to wait for before).
  py::object lent;

  /// Column-major (Fortran order) with leading dimension ld() >= rows; a 1-D array is one column.
  bool column_major() const;
  /// Elements between columns of a column-major array.
  long long ld() const;
  /// Row-major and contiguous (C order).
  bool c_contiguous() const;
  std::string shape_text() const;     ///< "(3,)", "(3, 2)"
};

/// How read_device_array reads.
struct ReadOptions {
  bool writable = false;                ///< an output: read-only arrays and DLPack ones (lent read-only) are refused
  const DeviceArray* earlier = nullptr; ///< an array read for the same call (CuPy's current stream is not asked again)
  std::uintptr_t our_stream = 0;        ///< the stream our work runs on, for DLPack's __dlpack__(stream=) (0: none)
};

/// A device array read and checked: CuPy's (its attributes), any
/// __cuda_array_interface__ object, or (inputs) a DLPack object on a CUDA
/// device. 1 or 2 dimensions, values of `typestr` ("<f8", "<c16", ...;
/// TypeError naming `what` and NumPy's name `dtype` otherwise), no mask,
/// strides in whole elements; an output not read-only (ValueError).
/// std::nullopt when obj is no device array (host arrays included).
std::optional<DeviceArray> read_device_array(py::handle obj, const char* what, const char* typestr, const char* dtype, std::size_t itemsize,
                                             const ReadOptions& options);

/// The interface's typestr of a value type: "<f4", "<f8", "<c8", "<c16".
template <class V>
const char* typestr();

/// A new CuPy array (numpy-style shape, dtype name, order 'C' or 'F'):
/// where no device array was given for a result. TypeError when CuPy is
/// not installed (pass out= then).
py::object new_cupy_array(py::tuple shape, const char* dtype, const char* order);

/// Orders work on one of our streams against the streams of device arrays
/// (backends/cuda/stream_order.hpp: an event on the device, never a host
/// wait): our stream waits for the array's before the work (before()), and
/// the array's stream waits for ours after it (after()). A build without CUDA
/// has no device arrays: the callers refuse them before any of this runs.
class StreamOrder {
 public:
  /// Our stream waits for the array's (not for a DLPack one: its producer ordered it).
  void before(void* ours, const DeviceArray& a) {
    if (!a.lent) order_.wait_for(ours, a.stream);
  }
  /// Their stream waits for ours; with none given (0), the host waits.
  void after(void* ours, std::uintptr_t theirs) { order_.publish(ours, theirs); }
  /// The host waits for our stream where `a` is lent by DLPack: the lender
  /// may free the memory once the call returns.
  void finish_lent(void* ours, const DeviceArray& a) {
    if (a.lent) cuda::StreamOrder::synchronize(ours);
  }

 private:
  cuda::StreamOrder order_;
};

}  // namespace hsparse::python
