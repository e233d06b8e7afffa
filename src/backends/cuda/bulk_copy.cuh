#pragma once
// Hopper's bulk copies (the TMA unit's one-dimensional form,
// cp.async.bulk) and the shared-memory barriers (mbarrier) that count
// their bytes: a producer thread hands the copy engine a contiguous run of
// global memory and the barrier to complete; consumers wait on the
// barrier's phase. One instruction moves a whole run (here a column segment
// of a tile) where cp.async needs one per 16 bytes with its own address
// arithmetic. PTX ISA 8.x, sections "cp.async.bulk" and "mbarrier"; sm_90.
//
// Rules the callers keep (the PTX ISA's): global and shared addresses
// 16-byte aligned, sizes multiples of 16, at most 2^20 - 1 bytes pending
// per barrier phase; a barrier is initialised by one thread and made
// visible (fence_barrier_init, then __syncthreads) before any use.
#include <cstdint>

namespace hsparse::cuda::detail {

__device__ __forceinline__ std::uint32_t shared_address(const void* p) { return static_cast<std::uint32_t>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void barrier_init(std::uint64_t* bar, unsigned arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_address(bar)), "r"(arrivals));
}

// The barriers' initialisation visible to the copy engine (the async proxy).
__device__ __forceinline__ void fence_barrier_init() { asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory"); }

// Shared-memory writes of this thread (generic proxy) ordered before later bulk copies into the same bytes.
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

// One arrival (release: this thread's earlier shared-memory writes are seen by whoever waits on the phase).
__device__ __forceinline__ void barrier_arrive(std::uint64_t* bar) {
  asm volatile("{\n .reg .b64 state;\n mbarrier.arrive.shared::cta.b64 state, [%0];\n}\n" ::"r"(shared_address(bar)) : "memory");
}

// One arrival that also announces `bytes` of bulk copies completing this phase.
__device__ __forceinline__ void barrier_arrive_expect_bytes(std::uint64_t* bar, unsigned bytes) {
  asm volatile("{\n .reg .b64 state;\n mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1;\n}\n" ::"r"(shared_address(bar)), "r"(bytes)
               : "memory");
}

// Waits until the phase of parity `parity` has completed (acquire).
__device__ __forceinline__ void barrier_wait(std::uint64_t* bar, unsigned parity) {
  const std::uint32_t addr = shared_address(bar);
  asm volatile(
      "{\n .reg .pred done;\n"
      "wait_%=:\n"
      " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      " @!done bra wait_%=;\n}\n" ::"r"(addr),
      "r"(parity)
      : "memory");
}

// bytes from global `src` to shared `dst`, completing on `bar` (both 16-byte aligned, bytes a multiple of 16).
__device__ __forceinline__ void bulk_copy(void* dst, const void* src, unsigned bytes, std::uint64_t* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(shared_address(dst)), "l"(src),
               "r"(bytes), "r"(shared_address(bar))
               : "memory");
}

}  // namespace hsparse::cuda::detail
