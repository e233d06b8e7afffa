// The distributed product's checks (distributed_check.hpp).
#include "distributed_check.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>

#include "hsparse/core/error.hpp"
#include "hsparse/distributed/halo_split.hpp"
#include "hsparse/distributed/scatter_rows.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/kernels/spmv_registry.hpp"
#include "test_support.hpp"

namespace hsparse::test {

namespace {

using distributed::DistributedSpmv;
using distributed::DistributedSpmvOptions;
using distributed::RowPartition;

double stored_rounding(const SpmvOptions& o) { return o.format ? format_traits(*o.format).value_rounding : 0.0; }

template <class V>
Csr<V, std::int64_t> with_values(const Csr<double, std::int64_t>& a) {
  Csr<V, std::int64_t> c;
  c.rows = a.rows;
  c.cols = a.cols;
  c.row_ptr = a.row_ptr;
  c.col_idx = a.col_idx;
  for (std::size_t k = 0; k < a.values.size(); ++k) {
    if constexpr (std::is_same_v<V, double>) {
      c.values.push_back(a.values[k]);
    } else {
      c.values.push_back(V(a.values[k], 0.25 * a.values[k] - 0.5 * static_cast<double>(k % 3)));
    }
  }
  return c;
}

// Uneven: rank r's weight is 1 + 3 (r mod 2), so neighbours differ fourfold.
RowPartition uneven(const Csr<double, std::int64_t>& a, int ranks) {
  std::vector<double> w;
  for (int r = 0; r < ranks; ++r) w.push_back(1.0 + 3.0 * (r % 2));
  return distributed::weighted_rows(a.row_ptr, w);
}

}  // namespace

template <class V>
void expect_distributed_product(const CommunicatorPtr& comm, const ExecutorPtr& ex, const std::string& name, const Csr<V, std::int64_t>& a,
                                const RowPartition& rows, const RowPartition& columns, const DistributedSpmvOptions& options) {
  const int me = comm->rank();
  const std::string where = name + ": rank " + std::to_string(me) + " of " + std::to_string(comm->size());
  const std::vector<V> x = test_vector<V>(static_cast<std::size_t>(a.cols), 11);
  const std::vector<V> y0 = test_vector<V>(static_cast<std::size_t>(a.rows), 12);
  DistributedSpmv<V, std::int32_t> d(comm, ex, distributed::row_block(a, rows.begin(me), rows.begin(me) + rows.size(me)), rows, columns, options);
  // EXPECT, never ASSERT, before a collective: a rank returning early would
  // leave the others waiting in the next product.
  EXPECT_EQ(d.rows(), rows.size(me)) << where;
  EXPECT_EQ(d.cols(), columns.size(me)) << where;
  const double u = std::numeric_limits<double>::epsilon() + std::max(stored_rounding(options.local), stored_rounding(options.remote));
  const Array<V> xv(ex, std::span<const V>(distributed::owned_entries<V>(x, columns, me)));
  const V alpha = V(1.5), betas[2] = {V(0), V(-0.75)};
  // Every transport every rank can use (GPU ranks: host staging, and
  // CUDA-aware MPI and NCCL where they are), each overlapped and not.
  const std::vector<distributed::HaloTransport> transports = d.available_transports();
  for (std::size_t k = 0; k < 2 * transports.size(); ++k) {
    const bool overlap = k % 2 == 0;
    if (overlap) d.set_transport(transports[k / 2]);
    d.set_overlap(overlap);
    for (V beta : betas) {
      std::vector<V> start = beta == V(0) ? std::vector<V>(static_cast<std::size_t>(rows.size(me)), V(std::nan(""))) : distributed::owned_entries<V>(y0, rows, me);
      Array<V> yv(ex, std::span<const V>(start));
      d.apply(alpha, xv, beta, yv);
      const std::vector<V> y = yv.to_host();
      for (std::int64_t i = 0; i < static_cast<std::int64_t>(y.size()); ++i) {
        const std::int64_t g = rows.begin(me) + i;
        V ref = 0;
        double scale = 0;
        const auto b = a.row_ptr[static_cast<std::size_t>(g)], e = a.row_ptr[static_cast<std::size_t>(g) + 1];
        for (auto k = b; k < e; ++k) {
          const V t = a.values[static_cast<std::size_t>(k)] * x[static_cast<std::size_t>(a.col_idx[static_cast<std::size_t>(k)])];
          ref += t;
          scale += std::abs(t);
        }
        ref = alpha * ref;
        const V yi0 = beta == V(0) ? V(0) : y0[static_cast<std::size_t>(g)];
        ref += beta * yi0;
        const double bound = 2.0 * (static_cast<double>(e - b) + 2.0) * u * (std::abs(alpha) * scale + std::abs(beta * yi0)) + 1e-300;
        const double err = std::abs(y[static_cast<std::size_t>(i)] - ref);
        if (err <= bound) continue;  // (a NaN fails)
        ADD_FAILURE() << "|y - ref| = " << err << " > " << bound << ": " << where << ", " << to_string(d.transport()) << (overlap ? ", overlapped" : ", sequential") << ", beta " << std::abs(beta) << ", row " << g << " (" << d.description() << ")";
        break;  // one row per product is enough to see
      }
    }
  }
}

void expect_distributed_products_match(const CommunicatorPtr& comm, const ExecutorPtr& ex) {
  const int n = comm->size();
  const DistributedSpmvOptions by_default;  // "auto" for both parts
  DistributedSpmvOptions csr;
  csr.local = csr.remote = SpmvOptions{};
  for (const NamedMatrix& m : edge_case_matrices()) {
    const Csr<double, std::int64_t>& a = m.matrix;
    const RowPartition rows = distributed::contiguous_rows(a.rows, n), columns = distributed::contiguous_rows(a.cols, n);
    expect_distributed_product<double>(comm, ex, m.name + " (csr)", a, rows, columns, csr);
    expect_distributed_product<double>(comm, ex, m.name + " (auto)", a, rows, columns, by_default);
    expect_distributed_product<double>(comm, ex, m.name + " (uneven rows)", a, uneven(a, n), columns, csr);
    expect_distributed_product<std::complex<double>>(comm, ex, m.name + " (complex)", with_values<std::complex<double>>(a), rows, columns, csr);
  }
  // Every format registered here, as both parts, on a stencil whose halo
  // spans a few rows of each neighbour.
  const auto stencil = generators::stencil_2d<double, std::int64_t>(40, 30, 9);
  const RowPartition part = distributed::contiguous_rows(stencil.rows, n);
  for (Format f : all_formats()) {
    if (spmv_registration(ex->backend(), f).kernels.empty()) continue;
    DistributedSpmvOptions o;
    o.local.format = o.remote.format = f;
    expect_distributed_product<double>(comm, ex, std::string("stencil2d_9pt as ") + format_traits(f).name, stencil, part, part, o);
  }
}

void expect_scatter_rows_matches(const CommunicatorPtr& comm) {
  using distributed::RowCut;
  const int me = comm->rank(), n = comm->size();
  for (const NamedMatrix& m : edge_case_matrices()) {
    const auto a = with_values<std::complex<double>>(m.matrix);
    for (int root : {0, n - 1}) {
      for (RowCut cut : {RowCut::rows, RowCut::nonzeros}) {
        const auto got = distributed::scatter_rows<std::complex<double>>(*comm, me == root ? a : Csr<std::complex<double>, std::int64_t>{}, cut, root);
        const RowPartition expected = cut == RowCut::rows ? distributed::contiguous_rows(a.rows, n)
                                                          : distributed::weighted_rows(a.row_ptr, std::vector<double>(static_cast<std::size_t>(n), 1.0));
        const std::string where = m.name + ", root " + std::to_string(root) + ", rank " + std::to_string(me);
        EXPECT_EQ(got.partition.offsets, expected.offsets) << where;
        EXPECT_EQ(got.global_cols, a.cols) << where;
        const auto want = distributed::row_block(a, expected.begin(me), expected.begin(me) + expected.size(me));
        EXPECT_EQ(got.rows.rows, want.rows) << where;
        EXPECT_EQ(got.rows.cols, want.cols) << where;
        EXPECT_EQ(got.rows.row_ptr, want.row_ptr) << where;
        EXPECT_EQ(got.rows.col_idx, want.col_idx) << where;
        EXPECT_EQ(got.rows.values, want.values) << where;
      }
    }
  }
  // Weighted by (say) measured speeds: rank r's nonzeros in proportion to 1 + 3 (r mod 2).
  const auto a = with_values<std::complex<double>>(generators::stencil_3d<double, std::int64_t>(9, 8, 7, 7));
  std::vector<double> weights;
  for (int r = 0; r < n; ++r) weights.push_back(1.0 + 3.0 * (r % 2));
  const auto got = distributed::scatter_rows<std::complex<double>>(*comm, me == 0 ? a : Csr<std::complex<double>, std::int64_t>{}, RowCut::nonzeros, 0, weights);
  const RowPartition expected = distributed::weighted_rows(a.row_ptr, weights);
  EXPECT_EQ(got.partition.offsets, expected.offsets) << "weighted, rank " << me;
  EXPECT_EQ(got.rows.values, distributed::row_block(a, expected.begin(me), expected.begin(me) + expected.size(me)).values) << "weighted, rank " << me;
  EXPECT_THROW(distributed::scatter_rows<double>(*comm, me == 0 ? generators::stencil_3d<double, std::int64_t>(9, 8, 7, 7) : Csr<double, std::int64_t>{}, RowCut::rows, 0, weights),
               Error);  // weights cut nonzeros
  // A partition the root chose (rank r's rows in proportion to r + 1; the others pass none).
  RowPartition chosen;
  for (int r = 0; r < n; ++r) chosen.offsets.push_back(chosen.offsets.back() + (r + 1) * a.rows / (n * (n + 1) / 2));
  chosen.offsets.back() = a.rows;
  const auto given = distributed::scatter_rows<std::complex<double>>(*comm, me == 0 ? a : Csr<std::complex<double>, std::int64_t>{},
                                                                     me == 0 ? chosen : RowPartition{}, 0);
  EXPECT_EQ(given.partition.offsets, chosen.offsets) << "given partition, rank " << me;
  EXPECT_EQ(given.rows.col_idx, distributed::row_block(a, chosen.begin(me), chosen.begin(me) + chosen.size(me)).col_idx) << "given partition, rank " << me;
  // The root's matrix is invalid (a column beyond its size): every rank throws.
  Csr<double, std::int64_t> bad;
  bad.rows = bad.cols = 2;
  bad.row_ptr = {0, 1, 2};
  bad.col_idx = {0, 5};
  bad.values = {1.0, 2.0};
  EXPECT_THROW(distributed::scatter_rows<double>(*comm, me == 0 ? bad : Csr<double, std::int64_t>{}, RowCut::rows, 0), Error) << "rank " << me;
}

template void expect_distributed_product(const CommunicatorPtr&, const ExecutorPtr&, const std::string&, const Csr<double, std::int64_t>&,
                                         const RowPartition&, const RowPartition&, const DistributedSpmvOptions&);
template void expect_distributed_product(const CommunicatorPtr&, const ExecutorPtr&, const std::string&, const Csr<std::complex<double>, std::int64_t>&,
                                         const RowPartition&, const RowPartition&, const DistributedSpmvOptions&);

}  // namespace hsparse::test
