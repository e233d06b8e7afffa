// The distributed product (distributed/distributed_spmv.hpp) on 1 to 4
// ranks as threads of this process, on every executor (.../cpu_N_ranks,
// .../cuda_N_ranks: the GPU ranks share device 0, each with its own stream):
// the suite of tests/support/distributed_check.hpp, which tests/mpi/ runs
// under mpirun. Then what must fail on every rank at once.
#include <gtest/gtest.h>

#include <atomic>

#include "support/distributed_check.hpp"
#include "support/distributed_solve_check.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/distributed/halo_split.hpp"
#include "hsparse/distributed/rank_speed.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/manifest.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "support/test_support.hpp"
#include "support/thread_ranks.hpp"

namespace hsparse::distributed {
namespace {

class DistributedSpmvOnThreads : public ::testing::TestWithParam<std::tuple<Backend, int>> {
 protected:
  void SetUp() override {
    if (backend() == Backend::cuda && !cuda::device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << cuda::device_description();
  }
  Backend backend() const { return std::get<0>(GetParam()); }
  int ranks() const { return std::get<1>(GetParam()); }
  // A rank's executor: on GPUs, device rank mod the devices (NCCL wants one
  // GPU per rank; with fewer GPUs than ranks it is not available).
  static ExecutorPtr rank_executor(Backend b, const Communicator& comm) {
    return b == Backend::cuda ? cuda::make_cuda_executor(comm.rank() % cuda::device_count()) : make_executor(Backend::cpu);
  }
};

TEST_P(DistributedSpmvOnThreads, MatchesTheSerialProduct) {
  test::run_on_thread_ranks(ranks(), [&](const CommunicatorPtr& comm) { test::expect_distributed_products_match(comm, rank_executor(backend(), *comm)); });
}

// Every shared SuiteSparse matrix (real ones as double, complex ones as
// complex<double>) on 3 ranks, CSR parts, against the serial product;
// skipped with a message where the folder is absent (CI).
TEST_P(DistributedSpmvOnThreads, MatchesTheSerialProductOnTheSharedMatrices) {
  const auto dir = test::shared_matrix_dir();
  if (!dir) GTEST_SKIP() << "skipped: shared matrices folder not found (set HSPARSE_MATRICES)";
  if (ranks() != 3) GTEST_SKIP() << "skipped: the shared matrices run on 3 ranks only (the generated suite covers 1-4)";
  DistributedSpmvOptions csr;
  csr.local = csr.remote = SpmvOptions{};
  int checked = 0;
  for (const auto& m : io::read_manifest(*dir)) {
    const std::string path = *dir + "/" + m.name + ".mtx.gz";
    test::run_on_thread_ranks(ranks(), [&](const CommunicatorPtr& comm) {
      const ExecutorPtr ex = rank_executor(backend(), *comm);
      if (m.field == "complex") {
        const auto a = io::read_matrix_market_csr<std::complex<double>, std::int64_t>(path);
        test::expect_distributed_product<std::complex<double>>(comm, ex, m.name, a, contiguous_rows(a.rows, ranks()), contiguous_rows(a.cols, ranks()), csr);
      } else {
        const auto a = io::read_matrix_market_csr<double, std::int64_t>(path);
        test::expect_distributed_product<double>(comm, ex, m.name, a, contiguous_rows(a.rows, ranks()), contiguous_rows(a.cols, ranks()), csr);
      }
    });
    ++checked;
  }
  EXPECT_GT(checked, 0) << "the folder's MANIFEST.md lists no matrices";
}

TEST_P(DistributedSpmvOnThreads, KrylovSolvesMatchTheOneRankSolve) {
  test::run_on_thread_ranks(ranks(), [&](const CommunicatorPtr& comm) { test::expect_distributed_solves_match(comm, rank_executor(backend(), *comm)); });
}

TEST_P(DistributedSpmvOnThreads, ABadRankFailsEveryRank) {
  const int n = ranks();
  const ExecutorPtr cpu = make_executor(backend());
  const auto a = generators::stencil_2d<double, std::int64_t>(20, 20, 5);
  const RowPartition part = contiguous_rows(a.rows, n);
  std::atomic<int> refused{0};
  // The last rank passes one row too few: every rank throws, none hangs.
  test::run_on_thread_ranks(n, [&](const CommunicatorPtr& comm) {
    const int me = comm->rank();
    const std::int64_t end = part.begin(me) + part.size(me) - (me == n - 1 ? 1 : 0);
    try {
      DistributedSpmv<double, std::int32_t> d(comm, cpu, row_block(a, part.begin(me), end), part, part);
      ADD_FAILURE() << "rank " << me << " built a matrix from a short row block";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::communication);
      if (me == n - 1) EXPECT_NE(std::string(e.what()).find("its rows are " + std::to_string(part.size(me) - 1) + " x 400"), std::string::npos) << e.what();
      ++refused;
    }
  });
  EXPECT_EQ(refused.load(), n);
  if (n == 1) return;
  // Partitions that differ across ranks: every rank refuses.
  refused = 0;
  test::run_on_thread_ranks(n, [&](const CommunicatorPtr& comm) {
    const int me = comm->rank();
    RowPartition mine = part;
    if (me == 0) {  // rank 0 believes in a different cut (its own size kept)
      mine.offsets[static_cast<std::size_t>(n) - 1] -= 1;
    }
    try {
      DistributedSpmv<double, std::int32_t> d(comm, cpu, row_block(a, mine.begin(me), mine.begin(me) + mine.size(me)), mine, mine);
      ADD_FAILURE() << "rank " << me << " accepted partitions that differ across ranks";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("different row or column partitions"), std::string::npos) << e.what();
      ++refused;
    }
  });
  EXPECT_EQ(refused.load(), n);
}

TEST_P(DistributedSpmvOnThreads, AFormatRefusingItsPartFailsEveryRank) {
  const int n = ranks();
  const ExecutorPtr cpu = make_executor(backend());
  // The last rank asks for a kernel CSR does not have: its plan refuses,
  // and every rank throws, the refusing one with the plan's reason.
  const auto a = generators::random_uniform<double, std::int64_t>(400, 400, 8, 3);
  const RowPartition part = contiguous_rows(a.rows, n);
  std::atomic<int> refused{0};
  test::run_on_thread_ranks(n, [&](const CommunicatorPtr& comm) {
    const int me = comm->rank();
    DistributedSpmvOptions o;
    o.local = SpmvOptions{};
    if (me == n - 1) o.local.kernel = "no-such-kernel";
    try {
      DistributedSpmv<double, std::int32_t> d(comm, cpu, row_block(a, part.begin(me), part.begin(me) + part.size(me)), part, part, o);
      ADD_FAILURE() << "rank " << me << " built its plans";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::communication) << e.what();
      if (me == n - 1) EXPECT_NE(std::string(e.what()).find("no-such-kernel"), std::string::npos) << e.what();
      ++refused;
    }
  });
  EXPECT_EQ(refused.load(), n);
}

TEST(DistributedSpmv, ScatterRowsSendsEachRankItsBlock) {
  for (int ranks = 1; ranks <= 4; ++ranks) test::run_on_thread_ranks(ranks, [](const CommunicatorPtr& comm) { test::expect_scatter_rows_matches(comm); });
}

TEST(DistributedSpmv, RankSpeedsArePositiveAndTheSameOnEveryRank) {
  std::vector<std::vector<double>> seen(3);
  test::run_on_thread_ranks(3, [&](const CommunicatorPtr& comm) {
    seen[static_cast<std::size_t>(comm->rank())] = rank_speeds(*comm, make_executor(Backend::cpu), SpmvOptions{});
  });
  ASSERT_EQ(seen[0].size(), 3u);
  for (double v : seen[0]) EXPECT_GT(v, 0.0);
  EXPECT_EQ(seen[1], seen[0]);
  EXPECT_EQ(seen[2], seen[0]);
}

TEST(DistributedSpmv, ReportsItsPartsAndHalo) {
  const ExecutorPtr cpu = make_executor(Backend::cpu);
  const auto a = generators::stencil_2d<double, std::int64_t>(10, 10, 5);
  test::run_on_thread_ranks(2, [&](const CommunicatorPtr& comm) {
    const RowPartition part = contiguous_rows(a.rows, 2);
    const int me = comm->rank();
    DistributedSpmvOptions o;
    o.local = o.remote = SpmvOptions{};
    o.profile = true;
    DistributedSpmv<double, std::int32_t> d(comm, cpu, row_block(a, part.begin(me), part.begin(me) + part.size(me)), part, part, o);
    // A 10 x 10 grid cut in halves: each side needs the 10 entries across the cut.
    EXPECT_EQ(d.pattern().recv_volume(), 10);
    EXPECT_EQ(d.pattern().send_volume(), 10);
    ASSERT_NE(d.remote_plan(), nullptr);
    EXPECT_EQ(d.remote_plan()->cols(), 10);
    EXPECT_EQ(d.global_rows(), 100);
    EXPECT_EQ(d.diagonal().size(), 50u);
    for (double v : d.diagonal()) EXPECT_EQ(v, 4.0);
    Array<double> x(cpu, 50), y(cpu, 50);
    d.apply(1.0, x, 0.0, y);
    d.apply(1.0, x, 0.0, y);
    EXPECT_EQ(d.times().products, 2);
    EXPECT_GT(d.times().total, 0.0);
    EXPECT_NE(d.description().find("halo: sends 10 entries to 1 ranks, receives 10 from 1"), std::string::npos) << d.description();
    Array<double> wrong(cpu, 49);
    EXPECT_THROW(d.apply(1.0, wrong, 0.0, y), Error);
  });
}

INSTANTIATE_TEST_SUITE_P(, DistributedSpmvOnThreads, ::testing::Combine(::testing::ValuesIn(all_backends()), ::testing::Values(1, 2, 3, 4)),
                         [](const auto& info) {
                           return std::string(to_string(std::get<0>(info.param))) + "_" + std::to_string(std::get<1>(info.param)) + "_ranks";
                         });

}  // namespace
}  // namespace hsparse::distributed
