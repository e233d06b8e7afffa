// Ranks as threads (thread_ranks.hpp).
#include "thread_ranks.hpp"

#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "hsparse/core/error.hpp"

namespace hsparse::test {

namespace {

// What the ranks of one group share.
struct Group {
  explicit Group(int n) : size(n), slots(static_cast<std::size_t>(n)) {}
  const int size;
  std::mutex m;
  std::condition_variable cv;
  int arrived = 0;
  long long generation = 0;
  std::vector<std::vector<unsigned char>> slots;  // each rank's contribution to the current collective
  std::map<std::pair<int, int>, std::deque<std::vector<unsigned char>>> mail;  // (from, to) -> messages in order

  void barrier(std::unique_lock<std::mutex>& lock) {
    const long long g = generation;
    if (++arrived == size) {
      arrived = 0;
      ++generation;
      cv.notify_all();
    } else {
      cv.wait(lock, [&] { return generation != g; });
    }
  }
  // Every rank posts `mine`, then `read` runs on every slot; a second barrier
  // keeps the slots until all have read.
  void collective(int rank, const void* mine, std::size_t bytes, const std::function<void(const std::vector<std::vector<unsigned char>>&)>& read) {
    std::unique_lock<std::mutex> lock(m);
    slots[static_cast<std::size_t>(rank)].assign(static_cast<const unsigned char*>(mine), static_cast<const unsigned char*>(mine) + bytes);
    barrier(lock);
    read(slots);
    barrier(lock);
  }
};

class ThreadExchange final : public CommExchange {
 public:
  ThreadExchange(std::shared_ptr<Group> g, int me, std::vector<CommMessage> receives) : g_(std::move(g)), me_(me), receives_(std::move(receives)) {}
  ~ThreadExchange() override {
    try {
      wait();
    } catch (...) {
    }
  }
  void wait() override {
    std::unique_lock<std::mutex> lock(g_->m);
    for (; next_ < receives_.size(); ++next_) {
      const CommMessage& r = receives_[next_];
      auto& box = g_->mail[{r.peer, me_}];
      g_->cv.wait(lock, [&] { return !box.empty(); });
      std::vector<unsigned char> msg = std::move(box.front());
      box.pop_front();
      if (msg.size() != r.bytes) {
        ++next_;
        throw Error(ErrorCode::communication, "thread rank " + std::to_string(me_) + ": a message of " + std::to_string(msg.size()) + " bytes from rank " +
                                                  std::to_string(r.peer) + " for a receive of " + std::to_string(r.bytes));
      }
      if (r.bytes > 0) std::memcpy(r.data, msg.data(), r.bytes);
    }
  }

 private:
  std::shared_ptr<Group> g_;
  int me_;
  std::vector<CommMessage> receives_;
  std::size_t next_ = 0;
};

class ThreadCommunicator final : public Communicator {
 public:
  ThreadCommunicator(std::shared_ptr<Group> g, int rank) : g_(std::move(g)), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return g_->size; }
  std::string description() const override { return "threads: rank " + std::to_string(rank_) + " of " + std::to_string(g_->size); }
  void allreduce_sum(double* values, std::size_t n) const override {
    std::vector<double> total(n, 0.0);
    g_->collective(rank_, values, n * sizeof(double), [&](const auto& slots) {
      for (const auto& s : slots) {  // in rank order, as a deterministic MPI reduction would
        for (std::size_t i = 0; i < n; ++i) total[i] += reinterpret_cast<const double*>(s.data())[i];
      }
    });
    std::memcpy(values, total.data(), n * sizeof(double));
  }
  void allreduce_max(std::int64_t* values, std::size_t n) const override {
    std::vector<std::int64_t> top(values, values + n);
    g_->collective(rank_, values, n * sizeof(std::int64_t), [&](const auto& slots) {
      for (const auto& s : slots) {
        for (std::size_t i = 0; i < n; ++i) top[i] = std::max(top[i], reinterpret_cast<const std::int64_t*>(s.data())[i]);
      }
    });
    std::memcpy(values, top.data(), n * sizeof(std::int64_t));
  }
  std::vector<std::int64_t> alltoall(const std::vector<std::int64_t>& to_each) const override {
    if (to_each.size() != static_cast<std::size_t>(size())) throw Error(ErrorCode::invalid_argument, "alltoall: one value per rank");
    std::vector<std::int64_t> from(to_each.size());
    g_->collective(rank_, to_each.data(), to_each.size() * sizeof(std::int64_t), [&](const auto& slots) {
      for (std::size_t r = 0; r < slots.size(); ++r) from[r] = reinterpret_cast<const std::int64_t*>(slots[r].data())[rank_];
    });
    return from;
  }
  std::unique_ptr<CommExchange> start_exchange(const std::vector<CommMessage>& sends, const std::vector<CommMessage>& receives) const override {
    for (const auto* list : {&sends, &receives}) {
      for (const CommMessage& m : *list) {
        if (m.peer < 0 || m.peer >= size()) throw Error(ErrorCode::invalid_argument, "exchange: peer " + std::to_string(m.peer) + " is not a rank");
      }
    }
    {
      std::lock_guard<std::mutex> lock(g_->m);
      for (const CommMessage& s : sends) {
        const auto* p = static_cast<const unsigned char*>(s.data);
        g_->mail[{rank_, s.peer}].emplace_back(p, p + s.bytes);  // buffered: a send never waits
      }
    }
    g_->cv.notify_all();
    return std::make_unique<ThreadExchange>(g_, rank_, receives);
  }

 private:
  std::shared_ptr<Group> g_;
  int rank_;
};

}  // namespace

void run_on_thread_ranks(int ranks, const std::function<void(const CommunicatorPtr&)>& body) {
  auto group = std::make_shared<Group>(ranks);
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(ranks));
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      try {
        body(std::make_shared<ThreadCommunicator>(group, r));
      } catch (...) {
        errors[static_cast<std::size_t>(r)] = std::current_exception();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace hsparse::test
