#pragma once
// The distributed product's checks, written once and run wherever ranks are
// at hand: under mpirun (tests/mpi/), on ranks as threads (tests/unit/,
// tests/gpu/). Every call is collective: each rank of `comm` makes it.
#include <cstdint>
#include <string>

#include "hsparse/core/communicator.hpp"
#include "hsparse/core/executor.hpp"
#include "hsparse/distributed/distributed_spmv.hpp"

namespace hsparse::test {

// Each rank's rows of DistributedSpmv's y = alpha A x + beta y, overlapped
// and sequential, against the serial product of the whole matrix `a`, row
// by row within n_i (u + u_values) sum |alpha a_ij x_j| + |beta y_i| u
// (u_values: the stored formats' value rounding). y is poisoned with NaN
// where beta == 0.
template <class V>
void expect_distributed_product(const CommunicatorPtr& comm, const ExecutorPtr& ex, const std::string& name, const Csr<V, std::int64_t>& a,
                                const distributed::RowPartition& rows, const distributed::RowPartition& columns,
                                const distributed::DistributedSpmvOptions& options);

// The suite: the edge-case matrices under contiguous and uneven partitions
// (ranks owning no rows among them), rectangular ones with their own column
// partition, complex values, and every format registered on ex's backend as
// both parts.
void expect_distributed_products_match(const CommunicatorPtr& comm, const ExecutorPtr& ex);

// scatter_rows from the first and from the last rank, cut by rows and by
// nonzeros: every rank's rows equal row_block of the whole matrix, the
// partition is the same on every rank, and a root holding an invalid
// matrix fails every rank.
void expect_scatter_rows_matches(const CommunicatorPtr& comm);

}  // namespace hsparse::test
