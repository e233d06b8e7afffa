// The one-rank communicator and the failure agreement (core/communicator.hpp).
// The MPI communicator runs under mpirun in tests/mpi/.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "hsparse/core/communicator.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse {
namespace {

TEST(SelfCommunicator, OneRankCollectivesAndExchanges) {
  const CommunicatorPtr self = self_communicator();
  EXPECT_EQ(self->rank(), 0);
  EXPECT_EQ(self->size(), 1);
  EXPECT_EQ(self->description(), "self (1 rank)");
  std::vector<double> sums{1.5, -2.0};
  self->allreduce_sum(sums.data(), sums.size());
  EXPECT_EQ(sums, (std::vector<double>{1.5, -2.0}));
  std::int64_t m = 7;
  self->allreduce_max(&m, 1);
  EXPECT_EQ(m, 7);
  EXPECT_EQ(self->alltoall({42}), (std::vector<std::int64_t>{42}));
  EXPECT_THROW(self->alltoall({1, 2}), Error);
  // Messages to itself: the i-th send fills the i-th receive.
  std::vector<int> a{1, 2, 3}, b{4, 5}, ra(3, 0), rb(2, 0);
  auto exchange = self->start_exchange({{0, a.data(), sizeof(int) * 3}, {0, b.data(), sizeof(int) * 2}},
                                       {{0, ra.data(), sizeof(int) * 3}, {0, rb.data(), sizeof(int) * 2}});
  exchange->wait();
  EXPECT_EQ(ra, a);
  EXPECT_EQ(rb, b);
  EXPECT_THROW(self->start_exchange({{1, a.data(), 4}}, {}), Error);                    // no rank 1
  EXPECT_THROW(self->start_exchange({{0, a.data(), 8}}, {{0, ra.data(), 4}}), Error);   // lengths differ
  EXPECT_THROW(self->start_exchange({{0, a.data(), 4}}, {}), Error);                    // a send nobody receives
}

TEST(SelfCommunicator, FailuresAreAgreedOn) {
  const CommunicatorPtr self = self_communicator();
  EXPECT_NO_THROW(agree_on_failure(*self, ""));
  try {
    agree_on_failure(*self, "out of memory allocating the remote part");
    ADD_FAILURE() << "a failure passed";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::communication);
    EXPECT_EQ(std::string(e.what()), "rank 0: out of memory allocating the remote part");
  }
}

TEST(SelfCommunicator, WorldIsOneRankWithoutALauncher) {
  // ctest does not start this binary under mpirun: the world is this process.
  const CommunicatorPtr world = world_communicator();
  EXPECT_EQ(world->size(), 1);
  EXPECT_EQ(world->rank(), 0);
}

}  // namespace
}  // namespace hsparse
