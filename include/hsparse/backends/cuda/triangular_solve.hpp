#pragma once
/// @file
/// Sparse triangular solves and the ILU(0) / IC(0) factorisations on the
/// GPU (kernels/incomplete_factorization.hpp has the CPU backends, the
/// rules and the errors, which are the same here). Every value and index
/// type of hsparse (complex values as cuda::std::complex on the device).
///
/// Triangular solves, two algorithms, both analysed once on the host
/// (triangular_levels) with the rows uploaded in level order, the diagonal
/// apart from the other entries:
///   level_scheduled  one launch per level; a group of lanes per row (a
///                    power of two up to a warp, from the mean row length)
///                    strides over the row and the group's sum is reduced
///                    by shuffles. Launches cost a few microseconds each:
///                    for matrices of few wide levels.
///   sync_free        Liu, Li, Hou and Vinter, "A synchronization-free
///                    algorithm for parallel sparse triangular solves",
///                    Euro-Par 2016, in its CSR form: one launch, one warp
///                    per row; a warp waits on a per-row "done" flag of each
///                    row it depends on, then publishes its own. For long
///                    chains of dependencies (many levels).
///
/// The factorisations run level-scheduled: one launch per level of the
/// lower triangle's dependencies (row i needs the rows k < i with a_ik
/// stored), a warp per row, the (i, j) entries of row i found by binary
/// search in its sorted columns. Not sync-free: a row's update reads and
/// writes many entries of its row (a whole row of U per eliminated entry
/// for ILU(0)), which a warp holding its row for the whole sweep would do
/// with most of the GPU's warps waiting; and the per-level launches are
/// paid once per factorisation, where a preconditioner's solves run every
/// iteration.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/formats/csr.hpp"
#include "hsparse/kernels/incomplete_factorization.hpp"

namespace hsparse::cuda {

/// How TriangularSolve::solve runs (see the file description).
enum class TriangularAlgorithm { level_scheduled, sync_free };

/// A triangular matrix uploaded and analysed once, solved many times.
template <class V, class I>
class TriangularSolve {
 public:
  /// Checks t as reference::triangular_solve does (the same Errors), finds
  /// its levels and uploads it; synchronous. `ex` must outlive this object.
  TriangularSolve(const Executor& ex, const Csr<V, I>& t, Triangle which, bool unit_diagonal, TriangularAlgorithm algorithm);
  ~TriangularSolve();
  TriangularSolve(TriangularSolve&&) noexcept;             ///< takes o's device data
  TriangularSolve& operator=(TriangularSolve&&) noexcept;  ///< releases this one's and takes o's
  TriangularSolve(const TriangularSolve&) = delete;
  TriangularSolve& operator=(const TriangularSolve&) = delete;

  /// x = T^-1 b for device vectors of rows() entries (x != b), launched on
  /// the executor's stream without waiting for it. sync_free solves share
  /// the object's flags: one solve at a time per object (stream order).
  void solve(const V* b, V* x) const;
  /// The algorithm solve() runs.
  TriangularAlgorithm algorithm() const;
  /// The number of levels of the dependencies.
  std::int64_t levels() const;
  /// Rows (and columns) of the matrix.
  std::int64_t rows() const;
  /// Device memory held (the matrix in level order, its diagonal, the flags).
  std::size_t bytes() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// ILU(0) of a computed on the device (see the file description): the
/// result of reference::ilu0 within rounding, returned to the host, and
/// the same Errors (the lowest failing row). Synchronous.
template <class V, class I>
Csr<V, I> ilu0(const Executor& ex, const Csr<V, I>& a);
/// IC(0) of a on the device: the result of reference::ic0 within rounding.
template <class V, class I>
Csr<V, I> ic0(const Executor& ex, const Csr<V, I>& a);

}  // namespace hsparse::cuda
