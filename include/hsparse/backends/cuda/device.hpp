#pragma once
/// @file
/// The CUDA backend's host-side interface: device detection, RAII device
/// arrays and device-resident matrices. No CUDA header is included here, so
/// CPU-only code can include it; the functions exist only in CUDA builds
/// (HSPARSE_HAVE_CUDA), except device_available(), which every build has.
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hsparse/core/executor.hpp"
#include "hsparse/formats/csr.hpp"

namespace hsparse::cuda {

/// False when hsparse was built without CUDA or no device is visible.
bool device_available();
/// The visible devices (0 without CUDA or without a device).
int device_count();
/// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.1 GiB)" or why there is none.
std::string device_description();
/// The device's arithmetic peaks in GFLOP/s: multiprocessors x maximum SM
/// clock x flop per clock per multiprocessor of its architecture (the
/// vendor's per-SM rates; sm_90: FP64 128, FP64 tensor 256, FP32 256, TF32
/// tensor 2048 dense). `known` is false, and the rates 0, for an
/// architecture not in the table: no peak is guessed.
struct ArithmeticPeaks {
  bool known = false;      ///< false: an architecture not in the table (rates 0)
  double fp64 = 0;         ///< FP64 CUDA cores, GFLOP/s
  double fp64_tensor = 0;  ///< FP64 tensor cores (DMMA), GFLOP/s
  double fp32 = 0;         ///< FP32 CUDA cores, GFLOP/s
  double tf32_tensor = 0;  ///< TF32 tensor cores, dense, GFLOP/s
  std::string basis;  ///< "132 SMs x 1.98 GHz (sm_90)"
  double sm_cycles_per_s = 0;  ///< multiprocessors x maximum SM clock (any architecture)
};
/// The peaks of `device` (0 when no device: `known` is false).
ArithmeticPeaks arithmetic_peaks(int device = 0);

/// Free memory of the current device now (cudaMemGetInfo); 0 without a device.
std::size_t free_device_memory();

namespace detail {
void* allocate(std::size_t bytes);  ///< throws Error(out_of_memory) naming the size and the free memory
void release(void* p) noexcept;
void copy_to_device(void* dst, const void* src, std::size_t bytes);
void copy_to_host(void* dst, const void* src, std::size_t bytes);
void synchronize();
[[noreturn]] void throw_size_error(std::size_t wanted, std::size_t have);
}  // namespace detail

/// What launch-shape rules need to know of a GPU (defaults: the H200).
struct GpuShape {
  int multiprocessors = 132;              ///< SMs
  int threads_per_multiprocessor = 2048;  ///< resident threads per SM
  int blocks_per_multiprocessor = 32;     ///< resident blocks per SM
};

/// The CUDA executor (core/executor.hpp): the device it runs on and one CUDA
/// stream, created and destroyed with it. Every GPU kernel of hsparse is
/// launched on an executor's stream, so independent executors overlap.
class Executor final : public hsparse::Executor {
 public:
  /// Makes a stream on `device`. Error(unsupported) without a device,
  /// Error(invalid_argument) for a device number out of range.
  explicit Executor(int device = 0);
  ~Executor() override;
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;
  Backend backend() const override { return Backend::cuda; }
  std::string description() const override;
  void synchronize() const override;        ///< waits for the stream; throws on a kernel fault
  void* allocate(std::size_t bytes) const override;
  void release(void* p) const noexcept override;
  void copy_from_host(void* dst, const void* host_src, std::size_t bytes) const override;
  void copy_to_host(void* host_dst, const void* src, std::size_t bytes) const override;
  void copy(void* dst, const void* src, std::size_t bytes) const override;
  void fill_zero(void* dst, std::size_t bytes) const override;
  void* stream() const { return stream_; }  ///< a cudaStream_t
  /// The device number.
  int device() const { return device_; }
  /// The device's SM count.
  int multiprocessors() const { return shape_.multiprocessors; }
  /// The device's shape, as launch rules need it.
  const GpuShape& shape() const { return shape_; }

 private:
  int device_ = 0;
  GpuShape shape_;
  void* stream_ = nullptr;
};

/// A shared CUDA executor on `device`; Error(unsupported) in a build without
/// CUDA or without a device (core/executor.hpp's make_executor calls it).
std::shared_ptr<const Executor> make_cuda_executor(int device = 0);

/// An owning device buffer of n elements of T (trivially copyable).
template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  /// n uninitialised elements; Error(out_of_memory) naming the size and the free memory.
  explicit DeviceArray(std::size_t n) : data_(static_cast<T*>(n ? detail::allocate(n * sizeof(T)) : nullptr)), size_(n) {}
  template <class Alloc>
  /// A device copy of a host vector.
  explicit DeviceArray(const std::vector<T, Alloc>& host) : DeviceArray(host.size()) { upload(host.data(), host.size()); }
  /// Takes o's memory; o is left empty.
  DeviceArray(DeviceArray&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  /// Releases this array's memory and takes o's.
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    if (this != &o) {
      detail::release(data_);
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { detail::release(data_); }

  /// Copies n host elements to the front; Error(invalid_argument) when n > size().
  void upload(const T* host, std::size_t n) {
    if (n > size_) throw_too_small(n);
    detail::copy_to_device(data_, host, n * sizeof(T));
  }
  /// A host copy of every element (synchronous).
  std::vector<T> download() const {
    std::vector<T> host(size_);
    detail::copy_to_host(host.data(), data_, size_ * sizeof(T));
    return host;
  }
  /// The device pointer.
  T* data() { return data_; }
  /// The device pointer.
  const T* data() const { return data_; }
  /// Number of elements.
  std::size_t size() const { return size_; }

 private:
  [[noreturn]] void throw_too_small(std::size_t n) const { detail::throw_size_error(n, size_); }
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

/// A CSR matrix resident on the device; same layout as hsparse::Csr.
template <class V, class I>
struct DeviceCsr {
  I rows = 0;              ///< number of rows
  I cols = 0;              ///< number of columns
  DeviceArray<I> row_ptr;  ///< rows + 1 offsets into col_idx and values
  DeviceArray<I> col_idx;  ///< column of each entry
  DeviceArray<V> values;   ///< value of each entry
  /// Number of stored entries.
  std::size_t nnz() const { return values.size(); }

  /// A device copy of a host CSR matrix (synchronous).
  static DeviceCsr upload(const Csr<V, I>& a) {
    DeviceCsr d;
    d.rows = a.rows;
    d.cols = a.cols;
    d.row_ptr = DeviceArray<I>(a.row_ptr);
    d.col_idx = DeviceArray<I>(a.col_idx);
    d.values = DeviceArray<V>(a.values);
    return d;
  }
};

}  // namespace hsparse::cuda
