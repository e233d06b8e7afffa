#pragma once
// The CUDA backend's host-side interface: device detection, RAII device
// arrays and device-resident matrices. No CUDA header is included here, so
// CPU-only code can include it; the functions exist only in CUDA builds
// (HSPARSE_HAVE_CUDA), except device_available(), which every build has.
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hsparse/core/executor.hpp"
#include "hsparse/formats/csr.hpp"

namespace hsparse::cuda {

// False when hsparse was built without CUDA or no device is visible.
bool device_available();
// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.1 GiB)" or why there is none.
std::string device_description();
// The device's arithmetic peaks in GFLOP/s: multiprocessors x maximum SM
// clock x flop per clock per multiprocessor of its architecture (the
// vendor's per-SM rates; sm_90: FP64 128, FP64 tensor 256, FP32 256, TF32
// tensor 2048 dense). `known` is false, and the rates 0, for an
// architecture not in the table: no peak is guessed.
struct ArithmeticPeaks {
  bool known = false;
  double fp64 = 0, fp64_tensor = 0, fp32 = 0, tf32_tensor = 0;
  std::string basis;  // "132 SMs x 1.98 GHz (sm_90)"
};
ArithmeticPeaks arithmetic_peaks(int device = 0);

// Free memory of the current device now (cudaMemGetInfo); 0 without a device.
std::size_t free_device_memory();

namespace detail {
void* allocate(std::size_t bytes);  // throws Error(out_of_memory) naming the size and the free memory
void release(void* p) noexcept;
void copy_to_device(void* dst, const void* src, std::size_t bytes);
void copy_to_host(void* dst, const void* src, std::size_t bytes);
void synchronize();
[[noreturn]] void throw_size_error(std::size_t wanted, std::size_t have);
}  // namespace detail

// What launch-shape rules need to know of a GPU (defaults: the H200).
struct GpuShape {
  int multiprocessors = 132;
  int threads_per_multiprocessor = 2048;
  int blocks_per_multiprocessor = 32;
};

// The CUDA executor (core/executor.hpp): the device it runs on and one CUDA
// stream, created and destroyed with it. Every GPU kernel of hsparse is
// launched on an executor's stream, so independent executors overlap.
class Executor final : public hsparse::Executor {
 public:
  explicit Executor(int device = 0);
  ~Executor() override;
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;
  Backend backend() const override { return Backend::cuda; }
  std::string description() const override;
  void synchronize() const override;        // waits for the stream; throws on a kernel fault
  void* allocate(std::size_t bytes) const override;
  void release(void* p) const noexcept override;
  void copy_from_host(void* dst, const void* host_src, std::size_t bytes) const override;
  void copy_to_host(void* host_dst, const void* src, std::size_t bytes) const override;
  void copy(void* dst, const void* src, std::size_t bytes) const override;
  void fill_zero(void* dst, std::size_t bytes) const override;
  void* stream() const { return stream_; }  // a cudaStream_t
  int device() const { return device_; }
  int multiprocessors() const { return shape_.multiprocessors; }
  const GpuShape& shape() const { return shape_; }

 private:
  int device_ = 0;
  GpuShape shape_;
  void* stream_ = nullptr;
};

// A shared CUDA executor on `device`; Error(unsupported) in a build without
// CUDA or without a device (core/executor.hpp's make_executor calls it).
std::shared_ptr<const Executor> make_cuda_executor(int device = 0);

// An owning device buffer of n elements of T (trivially copyable).
template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t n) : data_(static_cast<T*>(n ? detail::allocate(n * sizeof(T)) : nullptr)), size_(n) {}
  template <class Alloc>
  explicit DeviceArray(const std::vector<T, Alloc>& host) : DeviceArray(host.size()) { upload(host.data(), host.size()); }
  DeviceArray(DeviceArray&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
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

  void upload(const T* host, std::size_t n) {
    if (n > size_) throw_too_small(n);
    detail::copy_to_device(data_, host, n * sizeof(T));
  }
  std::vector<T> download() const {
    std::vector<T> host(size_);
    detail::copy_to_host(host.data(), data_, size_ * sizeof(T));
    return host;
  }
  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  [[noreturn]] void throw_too_small(std::size_t n) const { detail::throw_size_error(n, size_); }
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// A CSR matrix resident on the device; same layout as hsparse::Csr.
template <class V, class I>
struct DeviceCsr {
  I rows = 0, cols = 0;
  DeviceArray<I> row_ptr, col_idx;
  DeviceArray<V> values;
  std::size_t nnz() const { return values.size(); }

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
