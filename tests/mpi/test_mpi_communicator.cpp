// The MPI communicator under an MPI launcher (tests/CMakeLists.txt runs it
// with mpirun -np 1..4): every rank checks the collectives' results, a ring
// exchange, and that one rank's failure reaches all of them.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "hsparse/core/communicator.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse {
namespace {

TEST(MpiCommunicator, SpansTheRanksTheLauncherStarted) {
  ASSERT_TRUE(built_with_mpi());
  const CommunicatorPtr world = world_communicator();
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  ASSERT_NE(size, nullptr) << "not started by Open MPI's mpirun";
  EXPECT_EQ(world->size(), std::atoi(size));
  EXPECT_EQ(world->rank(), std::atoi(std::getenv("OMPI_COMM_WORLD_RANK")));
  EXPECT_NE(world->description().find("MPI: rank " + std::to_string(world->rank())), std::string::npos) << world->description();
}

TEST(MpiCommunicator, CollectivesCombineEveryRank) {
  const CommunicatorPtr world = world_communicator();
  const int n = world->size(), r = world->rank();
  std::vector<double> sums{static_cast<double>(r + 1), 0.5};
  world->allreduce_sum(sums.data(), sums.size());
  EXPECT_EQ(sums[0], n * (n + 1) / 2.0);
  EXPECT_EQ(sums[1], 0.5 * n);
  std::int64_t highest = r * 10;
  world->allreduce_max(&highest, 1);
  EXPECT_EQ(highest, (n - 1) * 10);
  std::vector<std::int64_t> to_each(static_cast<std::size_t>(n));
  for (int q = 0; q < n; ++q) to_each[static_cast<std::size_t>(q)] = 100 * r + q;
  const auto from_each = world->alltoall(to_each);
  for (int q = 0; q < n; ++q) EXPECT_EQ(from_each[static_cast<std::size_t>(q)], 100 * q + r) << "from rank " << q;
  EXPECT_THROW(world->alltoall({}), Error);  // checked before any rank enters the collective
}

TEST(MpiCommunicator, RingExchangeDeliversEachPiece) {
  const CommunicatorPtr world = world_communicator();
  const int n = world->size(), r = world->rank();
  if (n == 1) GTEST_SKIP() << "one rank: no ring";
  const int next = (r + 1) % n, previous = (r + n - 1) % n;
  // A longer message to the next rank, a shorter one to the previous.
  std::vector<double> forward(1000 + r), backward(3);
  std::iota(forward.begin(), forward.end(), 1000.0 * r);
  std::iota(backward.begin(), backward.end(), -10.0 * r);
  std::vector<double> from_previous(1000 + previous, -1), from_next(3, -1);
  auto exchange = world->start_exchange({{next, forward.data(), forward.size() * sizeof(double)}, {previous, backward.data(), 3 * sizeof(double)}},
                                        {{previous, from_previous.data(), from_previous.size() * sizeof(double)},
                                         {next, from_next.data(), 3 * sizeof(double)}});
  exchange->wait();
  for (std::size_t i = 0; i < from_previous.size(); ++i) ASSERT_EQ(from_previous[i], 1000.0 * previous + static_cast<double>(i));
  for (std::size_t i = 0; i < 3; ++i) ASSERT_EQ(from_next[i], -10.0 * next + static_cast<double>(i));
  EXPECT_THROW(world->start_exchange({{n, forward.data(), 8}}, {}), Error);  // no such rank: refused before anything is posted
}

TEST(MpiCommunicator, OneRanksFailureReachesEveryRank) {
  const CommunicatorPtr world = world_communicator();
  const int n = world->size(), r = world->rank();
  EXPECT_NO_THROW(agree_on_failure(*world, ""));
  const int failing = n - 1;  // the last rank fails; the others succeeded
  try {
    agree_on_failure(*world, r == failing ? "allocation failed" : "");
    ADD_FAILURE() << "rank " << r << " went on";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::communication);
    const std::string text = e.what();
    if (r == failing) EXPECT_EQ(text, "rank " + std::to_string(r) + ": allocation failed");
    else EXPECT_NE(text.find("rank " + std::to_string(failing) + " failed"), std::string::npos) << text;
  }
  // The lowest failing rank is the one named.
  try {
    agree_on_failure(*world, "everyone failed");
    ADD_FAILURE() << "rank " << r << " went on";
  } catch (const Error& e) {
    const std::string text = e.what();
    EXPECT_EQ(text, "rank " + std::to_string(r) + ": everyone failed");
  }
}

}  // namespace
}  // namespace hsparse
