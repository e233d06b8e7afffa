// The NCCL halo exchange (backends/cuda/nccl_halo.hpp); built only where
// CMake found NCCL (no_nccl.cpp stands in elsewhere).
#include "hsparse/backends/cuda/nccl_halo.hpp"

#include <cuda_runtime.h>
#include <nccl.h>

#include "check.cuh"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda {

namespace {

void check_nccl(ncclResult_t r, const char* call) {
  if (r != ncclSuccess) throw Error(ErrorCode::communication, std::string(call) + " failed: " + ncclGetErrorString(r));
}

}  // namespace

bool built_with_nccl() noexcept { return true; }

struct NcclHalo::State {
  const Executor* ex = nullptr;
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t ready = nullptr, done = nullptr;
  ~State() {
    if (comm) ncclCommDestroy(comm);
    if (ready) cudaEventDestroy(ready);
    if (done) cudaEventDestroy(done);
    if (stream) cudaStreamDestroy(stream);
  }
};

NcclHalo::NcclHalo(const Communicator& comm, const Executor& ex) : s_(std::make_unique<State>()) {
  s_->ex = &ex;
  ncclUniqueId id{};
  std::string problem;
  if (comm.rank() == 0) {
    const ncclResult_t r = ncclGetUniqueId(&id);
    if (r != ncclSuccess) problem = std::string("ncclGetUniqueId failed: ") + ncclGetErrorString(r);
  }
  agree_on_failure(comm, problem);
  std::vector<CommMessage> sends, receives;
  if (comm.rank() == 0) {
    for (int q = 1; q < comm.size(); ++q) sends.push_back({q, &id, sizeof id});
  } else {
    receives.push_back({0, &id, sizeof id});
  }
  comm.start_exchange(sends, receives)->wait();
  on_every_rank(comm, [&] {
    HSPARSE_CUDA_CHECK(cudaSetDevice(ex.device()));
    HSPARSE_CUDA_CHECK(cudaStreamCreateWithFlags(&s_->stream, cudaStreamNonBlocking));
    HSPARSE_CUDA_CHECK(cudaEventCreateWithFlags(&s_->ready, cudaEventDisableTiming));
    HSPARSE_CUDA_CHECK(cudaEventCreateWithFlags(&s_->done, cudaEventDisableTiming));
  });
  // Collective inside NCCL: a rank failing here cannot tell the others.
  check_nccl(ncclCommInitRank(&s_->comm, comm.size(), id, comm.rank()), "ncclCommInitRank");
}

NcclHalo::~NcclHalo() = default;

void NcclHalo::start(const std::vector<CommMessage>& sends, const std::vector<CommMessage>& receives) {
  auto* main = static_cast<cudaStream_t>(s_->ex->stream());
  HSPARSE_CUDA_CHECK(cudaEventRecord(s_->ready, main));
  HSPARSE_CUDA_CHECK(cudaStreamWaitEvent(s_->stream, s_->ready, 0));
  check_nccl(ncclGroupStart(), "ncclGroupStart");
  for (const CommMessage& m : sends) check_nccl(ncclSend(m.data, m.bytes, ncclChar, m.peer, s_->comm, s_->stream), "ncclSend");
  for (const CommMessage& m : receives) check_nccl(ncclRecv(m.data, m.bytes, ncclChar, m.peer, s_->comm, s_->stream), "ncclRecv");
  check_nccl(ncclGroupEnd(), "ncclGroupEnd");
  HSPARSE_CUDA_CHECK(cudaEventRecord(s_->done, s_->stream));
}

void NcclHalo::allreduce_sum(double* values, std::size_t n) {
  auto* main = static_cast<cudaStream_t>(s_->ex->stream());
  HSPARSE_CUDA_CHECK(cudaEventRecord(s_->ready, main));
  HSPARSE_CUDA_CHECK(cudaStreamWaitEvent(s_->stream, s_->ready, 0));
  check_nccl(ncclAllReduce(values, values, n, ncclDouble, ncclSum, s_->comm, s_->stream), "ncclAllReduce");
  HSPARSE_CUDA_CHECK(cudaEventRecord(s_->done, s_->stream));
  HSPARSE_CUDA_CHECK(cudaStreamWaitEvent(main, s_->done, 0));
}

void NcclHalo::finish() { HSPARSE_CUDA_CHECK(cudaStreamWaitEvent(static_cast<cudaStream_t>(s_->ex->stream()), s_->done, 0)); }

std::string NcclHalo::version() const {
  int v = 0;
  ncclGetVersion(&v);
  return "NCCL " + std::to_string(v / 10000) + "." + std::to_string((v / 100) % 100) + "." + std::to_string(v % 100);
}

}  // namespace hsparse::cuda
