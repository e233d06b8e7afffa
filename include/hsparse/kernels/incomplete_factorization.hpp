#pragma once
/// @file
/// Incomplete factorisations without fill, ILU(0) and IC(0), and the sparse
/// triangular solves that apply them as preconditioners.
///
/// ILU(0) (Saad, Iterative Methods for Sparse Linear Systems, 2nd ed.,
/// section 10.3.2, Algorithm 10.4, the IKJ variant): L U = A on A's pattern,
/// L unit lower, U upper, both kept on A's pattern. IC(0) is its Hermitian
/// counterpart (Saad 10.3.2 with U = L^H): L L^H = A on the pattern of A's
/// lower triangle. Both work row by row: row i needs the finished rows k < i
/// it has an entry in, the same dependencies as a lower triangular solve
/// with A, so the parallel backends run them over triangular_levels().
///
/// One declaration, one implementation per backend:
///   hsparse::reference::*  src/backends/reference/incomplete_factorization.cpp  serial, the definition
///   hsparse::openmp::*     src/backends/openmp/incomplete_factorization.cpp     level-scheduled, rows of a level in parallel
///   hsparse::cuda::*       backends/cuda/triangular_solve.hpp                    on the GPU
/// Every backend checks its input the same way (the detail:: helpers below)
/// and throws the same Error: Error(invalid_argument) for a matrix that is
/// not square or vectors of the wrong length, Error(invalid_matrix) for
/// unsorted columns, a missing diagonal entry, an entry outside the
/// triangle, or a pivot that breaks the factorisation; the message names the
/// row (1-based) and what to try instead. A transpose (U^H from IC(0)'s L)
/// is formats/convert.hpp's transpose().
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "hsparse/formats/csr.hpp"

namespace hsparse {

/// Rows grouped into levels: the rows of one level depend only on rows of
/// earlier levels, so they can be computed in parallel (Saad 11.6.2,
/// "level scheduling").
struct LevelSchedule {
  std::vector<std::int64_t> level_ptr{0};  ///< levels() + 1 offsets into rows
  std::vector<std::int64_t> rows;          ///< row indices, level by level, ascending within a level
  /// The number of levels (0 for an empty matrix).
  std::int64_t levels() const { return static_cast<std::int64_t>(level_ptr.size()) - 1; }
};

/// Which triangle a triangular matrix holds.
enum class Triangle { lower, upper };

/// The dependency levels of a triangular solve with t: for lower, row i
/// depends on the rows j < i it stores an entry in (explicit zeros count);
/// for upper, on the rows j > i. Entries of the other triangle are ignored,
/// so the levels of ILU(0) and IC(0) are triangular_levels(a, lower) of A
/// itself. Error(invalid_argument) unless t is square; Error(invalid_matrix)
/// for a malformed t (Csr::validate).
template <class V, class I>
LevelSchedule triangular_levels(const Csr<V, I>& t, Triangle which);

/// Splits an ILU(0) result (one CSR on A's pattern) into L, its strictly
/// lower entries (the unit diagonal implied, not stored), and U, its
/// diagonal and upper entries.
template <class V, class I>
std::pair<Csr<V, I>, Csr<V, I>> split_lu(const Csr<V, I>& lu);

namespace reference {
/// ILU(0) of a, serial (Saad Algorithm 10.4): a CSR on A's pattern whose
/// strictly lower part holds L (unit diagonal, not stored) and whose
/// diagonal and upper part hold U, with (L U)(i, j) = A(i, j) for every
/// stored (i, j). Every diagonal entry must be stored; a zero or non-finite
/// pivot U(i, i) is an Error naming row i.
template <class V, class I>
Csr<V, I> ilu0(const Csr<V, I>& a);
/// IC(0) of a Hermitian positive definite a, serial: reads a's lower
/// triangle (diagonal included; the upper one is ignored) and returns L on
/// that pattern, with (L L^H)(i, j) = A(i, j) there. L's diagonal is stored,
/// real and positive; a pivot that is not > 0 is an Error naming the row.
template <class V, class I>
Csr<V, I> ic0(const Csr<V, I>& a);
/// x = T^-1 b by substitution in row order (lower: forward, upper:
/// backward). t holds entries of its triangle only; unit_diagonal: the
/// diagonal is 1 and not stored (a stored diagonal entry is then an error);
/// otherwise every diagonal entry must be stored and nonzero. x may be b.
template <class V, class I>
void triangular_solve(const Csr<V, I>& t, Triangle which, bool unit_diagonal, std::span<const V> b, std::span<V> x);
}  // namespace reference

/// The reference's kernels with the rows of each level of
/// triangular_levels() in parallel: the same row arithmetic in the same
/// order, so the same results bit for bit, and the same Errors (the lowest
/// failing row).
namespace openmp {
template <class V, class I> Csr<V, I> ilu0(const Csr<V, I>& a);  ///< reference::ilu0, level-scheduled
template <class V, class I> Csr<V, I> ic0(const Csr<V, I>& a);   ///< reference::ic0, level-scheduled
/// reference::triangular_solve over s, which must be triangular_levels(t, which). x may be b.
template <class V, class I>
void triangular_solve(const Csr<V, I>& t, const LevelSchedule& s, Triangle which, bool unit_diagonal, std::span<const V> b,
                      std::span<V> x);
/// The solve of a triangle checked once (detail::check_triangle) and
/// applied every iteration, a preconditioner's factor: `strict` its entries
/// off the diagonal, `dinv` the inverse of its diagonal (null: unit), s its
/// levels; x_i = (b_i - sum strict_ij x_j) dinv_i, no checks. Multiplying by
/// the stored inverse keeps a division (some 20 cycles) off the chain of
/// dependent rows, as PETSc's factors do.
template <class V, class I>
void triangular_solve_unchecked(const Csr<V, I>& strict, const V* dinv, const LevelSchedule& s, const V* b, V* x);
}  // namespace openmp

// The checks and row kernels every backend shares (defined in
// src/backends/reference/incomplete_factorization.cpp): one set of rules,
// one wording of the errors.
namespace detail {

enum class Factorization { ilu0, ic0 };
const char* to_string(Factorization f);  // "ILU(0)", "IC(0)"

// What a factorisation works on: the matrix it overwrites (a copy of A for
// ILU(0), A's lower triangle for IC(0)) and where each row's diagonal is.
template <class V, class I>
struct FactorizationInput {
  Csr<V, I> matrix;
  std::vector<I> diagonal;
};
// A factorisation on any backend: checks a (square, sorted, every diagonal
// entry stored), prepares the input, lets `sweep` factorise it in place
// (returning the lowest failing row, or -1) and throws that row's Error.
template <class V, class I>
Csr<V, I> factorize(const Csr<V, I>& a, Factorization f, const std::function<long long(FactorizationInput<V, I>&)>& sweep);
// Row i of the factorisation in place (the rows < i it depends on
// finished). False when its pivot fails: ILU(0) a zero or non-finite
// U(i, i); IC(0) a pivot d = A(i, i) - sum_k |L(i, k)|^2 that is not > 0,
// then stored in place of L(i, i) so that throw_pivot_error can quote it.
template <class V, class I>
bool factor_row(Factorization f, FactorizationInput<V, I>& in, I i);
// The Error of the first failing row (0-based here, 1-based in the message).
template <class V>
[[noreturn]] void throw_pivot_error(Factorization f, long long row, V pivot);

enum class TriangleFault { none, other_triangle, missing_diagonal, zero_diagonal, stored_unit_diagonal };
// What is wrong with row i of t as a triangular matrix (none: nothing).
template <class V, class I>
TriangleFault triangle_fault(const Csr<V, I>& t, I i, Triangle which, bool unit_diagonal);
[[noreturn]] void throw_triangle_fault(TriangleFault fault, long long row, Triangle which);
// Every row of t, square and sorted first; throws for the lowest faulty row.
template <class V, class I>
void check_triangle(const Csr<V, I>& t, Triangle which, bool unit_diagonal);
// x[i] = (b[i] - sum_j t(i, j) x[j]) / t(i, i) for a row without a fault.
// Entries are taken in any order: a row is read once, its diagonal found on the way.
template <class V, class I>
void solve_triangular_row(const Csr<V, I>& t, I i, bool unit_diagonal, const V* b, V* x);
// t's arrays, the lengths of b and x, and s (null: none) against t.
template <class V, class I>
void check_solve_sizes(const Csr<V, I>& t, std::size_t b, std::size_t x, const LevelSchedule* s);

}  // namespace detail

}  // namespace hsparse
