// The distributed product under mpirun -np 1..4: the suite of
// tests/support/distributed_check.hpp and distributed_solve_check.hpp on
// MPI's world, on the CPU.
#include <gtest/gtest.h>

#include "support/distributed_check.hpp"
#include "support/distributed_solve_check.hpp"

namespace hsparse::distributed {
namespace {

TEST(MpiDistributedSpmv, MatchesTheSerialProduct) {
  test::expect_distributed_products_match(world_communicator(), make_executor(Backend::cpu));
}

TEST(MpiDistributedSpmv, ScatterRowsSendsEachRankItsBlock) { test::expect_scatter_rows_matches(world_communicator()); }

TEST(MpiDistributedSpmv, KrylovSolvesMatchTheOneRankSolve) {
  test::expect_distributed_solves_match(world_communicator(), make_executor(Backend::cpu));
}

}  // namespace
}  // namespace hsparse::distributed
