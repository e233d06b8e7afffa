#pragma once
/// @file
/// How a batch of tridiagonal systems is stored (the layouts, the views of
/// the three diagonals), its checks, and the residual solutions are held
/// to. The solvers are in kernels/tridiagonal.hpp (per backend) and
/// solvers/tridiagonal.hpp (the executor-taking entry point).
///
/// Layouts (the same for a, b, c, d and x):
///   contiguous   entry i of system k at k*size + i   (cuSPARSE gtsv2StridedBatch with stride = size)
///   interleaved  entry i of system k at i*count + k  (cuSPARSE gtsvInterleavedBatch)
#include <cstdint>
#include <span>
#include <string>

namespace hsparse {


/// How a batch is stored (see the file description): contiguous or interleaved.
enum class TridiagonalLayout { contiguous, interleaved };
/// "contiguous" or "interleaved".
const char* to_string(TridiagonalLayout layout);

/// Views of the three diagonals (host or device pointers, size*count entries each).
template <class V>
struct TridiagonalSystems {
  long long size = 0;   ///< unknowns per system
  long long count = 0;  ///< number of systems
  TridiagonalLayout layout = TridiagonalLayout::contiguous;  ///< how the entries of the batch are ordered
  const V* a = nullptr;  ///< sub-diagonal
  const V* b = nullptr;  ///< diagonal
  const V* c = nullptr;  ///< super-diagonal
  /// size * count.
  long long entries() const { return size * count; }
  /// Where entry `row` of system `system` is in each array.
  long long index(long long system, long long row) const {
    return layout == TridiagonalLayout::contiguous ? system * size + row : row * count + system;
  }
};

/// Error(invalid_argument) for negative sizes, size*count overflowing, or
/// null arrays with entries.
template <class V>
void check_tridiagonal_shape(const TridiagonalSystems<V>& s);

/// Whether a batch is diagonally dominant (then no pivoting is safe).
struct DiagonalDominance {
  bool dominant = true;       ///< |b_i| >= |a_i| + |c_i| in every row
  long long system = -1;      ///< the first system where it fails (-1: none)
  long long row = -1;         ///< that system's first failing row
  double worst_ratio = 0;     ///< max over rows of (|a_i| + |c_i|) / |b_i|
};
template <class V>
/// Checks every row of host arrays.
DiagonalDominance check_diagonal_dominance(const TridiagonalSystems<V>& s);

/// "tridiagonal system K, row I: zero pivot ..." (what every backend throws).
[[noreturn]] void throw_zero_pivot(long long system, long long row, const std::string& where);



/// ||A x - d|| / ||d|| over the whole batch, in double (the tests' and the CLI's check).
template <class V>
double tridiagonal_relative_residual(const TridiagonalSystems<V>& s, std::span<const V> d, std::span<const V> x);

namespace detail {
/// Error(invalid_argument) unless d and x hold the batch's entries.
template <class V>
void check_tridiagonal_sizes(const TridiagonalSystems<V>& s, std::size_t d, std::size_t x);
}  // namespace detail

}  // namespace hsparse
