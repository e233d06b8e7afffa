#pragma once
// std::vector with 64-byte aligned storage: SIMD loads of whole cache lines
// (SELL-C-sigma chunks, BCSR's padded/aligned blocks) need aligned bases.
#include <cstddef>
#include <new>
#include <vector>

namespace hsparse {

template <class T, std::size_t Alignment = 64>
struct AlignedAllocator {
  using value_type = T;
  AlignedAllocator() = default;
  template <class U>
  AlignedAllocator(const AlignedAllocator<U, Alignment>&) noexcept {}
  template <class U>
  struct rebind { using other = AlignedAllocator<U, Alignment>; };
  T* allocate(std::size_t n) {
    return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{Alignment}));
  }
  void deallocate(T* p, std::size_t) noexcept { ::operator delete(p, std::align_val_t{Alignment}); }
  friend bool operator==(const AlignedAllocator&, const AlignedAllocator&) { return true; }
};

template <class T>
using AlignedVector = std::vector<T, AlignedAllocator<T>>;

}  // namespace hsparse
