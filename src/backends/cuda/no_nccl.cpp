// Builds without NCCL (the build machine, CI, a GPU machine without it):
// the NCCL halo exists and refuses, so that nothing outside this backend
// needs to know (backends/cuda/nccl_halo.hpp).
#include "hsparse/backends/cuda/nccl_halo.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda {

bool built_with_nccl() noexcept { return false; }

struct NcclHalo::State {};

NcclHalo::NcclHalo(const Communicator&, const Executor&) {
  throw Error(ErrorCode::unsupported, "the NCCL halo: this hsparse was built without NCCL (found at configure time where nccl.h and libnccl are)");
}
NcclHalo::~NcclHalo() = default;
void NcclHalo::start(const std::vector<CommMessage>&, const std::vector<CommMessage>&) {}
void NcclHalo::finish() {}
void NcclHalo::allreduce_sum(double*, std::size_t) {}
std::string NcclHalo::version() const { return "none"; }

}  // namespace hsparse::cuda
