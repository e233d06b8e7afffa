// The halo pattern under mpirun (distributed/halo_pattern.hpp): every rank
// splits its rows, builds the pattern, exchanges the ghost entries of x by
// it, and its rows of local * x_owned + remote * x_ghost must match the
// serial product, row by row within the rounding bound.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <vector>

#include "hsparse/core/communicator.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/distributed/halo_pattern.hpp"
#include "hsparse/distributed/halo_split.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/kernels/csr_spmv.hpp"

namespace hsparse::distributed {
namespace {

void expect_distributed_product(const std::string& name, const Csr<double, std::int64_t>& a) {
  const CommunicatorPtr comm = world_communicator();
  const int n = comm->size(), me = comm->rank();
  const RowPartition rows = contiguous_rows(a.rows, n), columns = contiguous_rows(a.cols, n);
  std::vector<double> x(static_cast<std::size_t>(a.cols));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 1.0 + static_cast<double>((i * 7919) % 1000) / 1000.0;
  const auto split = split_by_owner<double, std::int32_t>(row_block(a, rows.begin(me), rows.begin(me) + rows.size(me)), columns, me);
  const HaloPattern p = halo_pattern(*comm, columns, split.ghost_columns, split.ghost_offsets);
  ASSERT_EQ(p.recv_volume(), static_cast<std::int64_t>(split.ghost_columns.size())) << name;
  // The exchange, by the pattern alone: each rank knows only its own x.
  const std::vector<double> x_owned(x.begin() + columns.begin(me), x.begin() + columns.begin(me) + columns.size(me));
  std::vector<std::vector<double>> packed;
  std::vector<CommMessage> sends, receives;
  for (std::size_t k = 0; k < p.send_ranks.size(); ++k) {
    packed.emplace_back();
    for (std::int64_t i : p.send_indices[k]) packed.back().push_back(x_owned[static_cast<std::size_t>(i)]);
    sends.push_back({p.send_ranks[k], packed.back().data(), packed.back().size() * sizeof(double)});
  }
  std::vector<double> x_ghost(static_cast<std::size_t>(p.recv_volume()), std::nan(""));
  for (std::size_t k = 0; k < p.recv_ranks.size(); ++k) {
    receives.push_back({p.recv_ranks[k], x_ghost.data() + p.recv_offsets[k], static_cast<std::size_t>(p.recv_offsets[k + 1] - p.recv_offsets[k]) * sizeof(double)});
  }
  comm->start_exchange(sends, receives)->wait();
  std::vector<double> y(static_cast<std::size_t>(rows.size(me)), std::nan(""));
  reference::csr_spmv<double, std::int32_t>(1.0, split.local, x_owned, 0.0, y);
  reference::csr_spmv<double, std::int32_t>(1.0, split.remote, x_ghost, 1.0, y);
  // The serial product's rows, and the rounding bound of each: n_i u |A||x|_i.
  for (std::int64_t i = 0; i < rows.size(me); ++i) {
    const std::int64_t g = rows.begin(me) + i;
    double ref = 0, scale = 0;
    for (std::int64_t k = a.row_ptr[static_cast<std::size_t>(g)]; k < a.row_ptr[static_cast<std::size_t>(g) + 1]; ++k) {
      ref += a.values[static_cast<std::size_t>(k)] * x[static_cast<std::size_t>(a.col_idx[static_cast<std::size_t>(k)])];
      scale += std::abs(a.values[static_cast<std::size_t>(k)] * x[static_cast<std::size_t>(a.col_idx[static_cast<std::size_t>(k)])]);
    }
    const double bound = 2.0 * static_cast<double>(a.row_ptr[static_cast<std::size_t>(g) + 1] - a.row_ptr[static_cast<std::size_t>(g)]) * 1.1e-16 * scale;
    ASSERT_LE(std::abs(y[static_cast<std::size_t>(i)] - ref), bound) << name << ": rank " << me << " of " << n << ", row " << g;
  }
}

TEST(MpiHalo, TheExchangedGhostsMakeUpTheSerialProduct) {
  expect_distributed_product("stencil 30 x 30", generators::stencil_2d<double, std::int64_t>(30, 30, 5));
  expect_distributed_product("random 500 x 400", generators::random_uniform<double, std::int64_t>(500, 400, 6, 5));
  expect_distributed_product("random 3 x 700", generators::random_uniform<double, std::int64_t>(3, 700, 50, 9));  // ranks owning no rows
}

TEST(MpiHalo, AnInconsistentRequestFailsOnEveryRank) {
  const CommunicatorPtr comm = world_communicator();
  const int n = comm->size();
  const RowPartition columns = contiguous_rows(100, n);
  // Every rank but the last wrongly files column 0 (rank 0's) under the
  // last rank, which finds it does not own it; the last rank files no ghosts.
  const bool last = comm->rank() == n - 1;
  std::vector<std::int64_t> ghosts, offsets(static_cast<std::size_t>(n) + 1, 0);
  if (!last) {
    ghosts = {0};
    offsets[static_cast<std::size_t>(n)] = 1;
  }
  if (n > 1) {
    try {
      halo_pattern(*comm, columns, ghosts, offsets);
      ADD_FAILURE() << "rank " << comm->rank() << " accepted the request";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::communication);
      const std::string text = e.what();
      if (last) EXPECT_NE(text.find("asked rank " + std::to_string(n - 1) + " for column 0, which it does not own"), std::string::npos) << text;
      else EXPECT_NE(text.find("rank " + std::to_string(n - 1) + " failed"), std::string::npos) << text;
    }
  }
  // A rank listing its own column as a ghost: refused on every rank.
  std::vector<std::int64_t> own{columns.begin(comm->rank())}, own_offsets(static_cast<std::size_t>(n) + 1, 0);
  for (int r = comm->rank() + 1; r <= n; ++r) own_offsets[static_cast<std::size_t>(r)] = 1;
  if (columns.size(comm->rank()) > 0) EXPECT_THROW(halo_pattern(*comm, columns, own, own_offsets), Error);
  // Wrong offsets on one rank only: refused on every rank before any collective.
  std::vector<std::int64_t> short_offsets(comm->rank() == 0 ? 1 : static_cast<std::size_t>(n) + 1, 0);
  EXPECT_THROW(halo_pattern(*comm, columns, {}, short_offsets), Error);
}

}  // namespace
}  // namespace hsparse::distributed
