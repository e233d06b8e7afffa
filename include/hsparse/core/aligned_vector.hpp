#pragma once
// std::vector with 64-byte aligned storage: SIMD loads of whole cache lines
// (SELL-C-sigma chunks, BCSR's padded/aligned blocks) need aligned bases.
// resize() default-initialises (no zeroing pass): the conversions that fill
// these arrays write every element themselves, in parallel, so the pages are
// first touched by the threads that later read them.
#include <cstddef>
#include <new>
#include <utility>
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
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0) ::new (static_cast<void*>(p)) U;
    else ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  friend bool operator==(const AlignedAllocator&, const AlignedAllocator&) { return true; }
};

template <class T>
using AlignedVector = std::vector<T, AlignedAllocator<T>>;

}  // namespace hsparse
