// The one-rank communicator and the agreement on failures (core/communicator.hpp).
#include "hsparse/core/communicator.hpp"

#include <cstring>

#include "hsparse/core/error.hpp"

namespace hsparse {

namespace {

// Nothing to wait for: a one-rank exchange is complete when it starts.
class DoneExchange final : public CommExchange {
 public:
  void wait() override {}
};

class SelfCommunicator final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::string description() const override { return "self (1 rank)"; }
  void allreduce_sum(double*, std::size_t) const override {}
  void allreduce_max(std::int64_t*, std::size_t) const override {}
  std::vector<std::int64_t> alltoall(const std::vector<std::int64_t>& to_each) const override {
    if (to_each.size() != 1) {
      throw Error(ErrorCode::invalid_argument, "alltoall on 1 rank: " + std::to_string(to_each.size()) + " values given, 1 expected");
    }
    return to_each;
  }
  // Messages to itself: the i-th send fills the i-th receive.
  std::unique_ptr<CommExchange> start_exchange(const std::vector<CommMessage>& sends, const std::vector<CommMessage>& receives) const override {
    for (const auto* list : {&sends, &receives}) {
      for (const CommMessage& m : *list) {
        if (m.peer != 0) throw Error(ErrorCode::invalid_argument, "exchange on 1 rank: peer " + std::to_string(m.peer) + " is not a rank");
      }
    }
    if (sends.size() != receives.size()) {
      throw Error(ErrorCode::invalid_argument, "exchange on 1 rank: " + std::to_string(sends.size()) + " sends to itself against " +
                                                   std::to_string(receives.size()) + " receives");
    }
    for (std::size_t i = 0; i < sends.size(); ++i) {
      if (sends[i].bytes != receives[i].bytes) {
        throw Error(ErrorCode::invalid_argument, "exchange on 1 rank: message " + std::to_string(i) + " sends " + std::to_string(sends[i].bytes) +
                                                     " bytes into a receive of " + std::to_string(receives[i].bytes));
      }
      if (sends[i].bytes > 0) std::memcpy(receives[i].data, sends[i].data, sends[i].bytes);
    }
    return std::make_unique<DoneExchange>();
  }
};

}  // namespace

std::unique_ptr<CommExchange> Communicator::start_allreduce_sum(double* values, std::size_t n) const {
  allreduce_sum(values, n);
  return std::make_unique<DoneExchange>();
}

CommunicatorPtr self_communicator() {
  static const CommunicatorPtr self = std::make_shared<SelfCommunicator>();
  return self;
}

void agree_on_failure(const Communicator& comm, const std::string& local_error) {
  // The lowest failing rank wins: each failing rank offers size - rank.
  std::int64_t flag = local_error.empty() ? 0 : comm.size() - comm.rank();
  comm.allreduce_max(&flag, 1);
  if (flag == 0) return;
  const auto first = static_cast<int>(comm.size() - flag);
  if (!local_error.empty()) throw Error(ErrorCode::communication, "rank " + std::to_string(comm.rank()) + ": " + local_error);
  throw Error(ErrorCode::communication, "rank " + std::to_string(first) + " failed (its message is in its own output); rank " +
                                            std::to_string(comm.rank()) + " stops with it");
}

void on_every_rank(const Communicator& comm, const std::function<void()>& step) {
  std::string problem;
  try {
    step();
  } catch (const std::exception& e) {
    problem = e.what();
  }
  agree_on_failure(comm, problem);
}

}  // namespace hsparse
