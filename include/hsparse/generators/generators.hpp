#pragma once
/// @file
/// Deterministic matrix generators that stand in for the large matrices of
/// the papers (which we cannot download). The same spec and seed give the
/// same matrix on every machine: randomness comes from a counter-based hash
/// (splitmix64 of seed, row, column), not from the standard library's random distributions,
/// whose output differs between standard libraries.
///
/// A generator spec is NAME[:key=value[,key=value...]], for example
///   stencil3d:n=160,points=27     fem:n=40,block=3     powerlaw:rows=1e6
/// `hsparse info --generators` lists every generator with its keys and defaults.
/// Symmetric structures (stencils, fem, banded, dense) get symmetric values
/// with a dominant diagonal, so they are SPD and usable by CG.
#include <cstdint>
#include <functional>
#include <utility>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "hsparse/formats/csr.hpp"

namespace hsparse::generators {

/// A parsed generator spec: NAME and its key=value pairs.
struct GeneratorSpec {
  std::string name;  ///< the generator, e.g. "stencil3d"
  std::map<std::string, std::string> params;  ///< key -> value, as written
};

/// A generator's entry in the catalogue.
struct GeneratorInfo {
  std::string name;  ///< e.g. "powerlaw"
  std::string description;  ///< one line
  std::vector<std::pair<std::string, std::string>> keys;  ///< key, default
};

/// Every generator with its keys and defaults.
const std::vector<GeneratorInfo>& generator_catalog();

/// Throws Error(parse) naming the spec and the problem (unknown generator or
/// key, an item that is not key=value, e.g. after a trailing comma, a key given twice).
GeneratorSpec parse_spec(std::string_view text);

/// True when `text` names a known generator (NAME or NAME:...).
bool is_generator_spec(std::string_view text);

template <class V, class I>
/// The matrix of a spec; Error(parse) for a bad spec or a value outside its
/// key's range (naming the spec, key, value and range), Error(overflow) when
/// a size product or the nonzeros' upper bound does not fit int64 or I, and
/// Error(out_of_memory) when that bound's bytes exceed the host budget: both
/// before any row is generated, naming the spec.
Csr<V, I> generate(std::string_view spec);

/// One rank's rows of a generated matrix (generate_rows).
template <class V>
struct GeneratedRows {
  Csr<V, std::int64_t> rows;     ///< rows [first_row, first_row + rows.rows), global column indices
  std::int64_t global_rows = 0;  ///< rows of the whole matrix
  std::int64_t first_row = 0;    ///< the first global row held
};

/// Rank `rank`'s block of the matrix generate(spec) gives, cut into `ranks`
/// contiguous blocks whose sizes differ by at most one, larger first
/// (distributed::contiguous_rows' cut): each rank of a distributed run
/// evaluates its own rows only, so no rank holds the whole matrix and the
/// size is bounded by the ranks' memory together. The same entries as
/// row_block(generate(spec), ...). The memory check counts the block's
/// exact nonzeros. (replicate, which is not built row by row, is generated
/// whole and cut.) Error(invalid_argument) unless 0 <= rank < ranks.
template <class V>
GeneratedRows<V> generate_rows(std::string_view spec, int ranks, int rank);

/// Given the matrix's row count, the block [first, end) to generate.
using RowBlock = std::function<std::pair<std::int64_t, std::int64_t>(std::int64_t global_rows)>;
/// The rows [first, end) that `block` names once the spec's row count is
/// known (a cut by the ranks' measured speeds, say). Error(invalid_argument)
/// for a block outside the matrix.
template <class V>
GeneratedRows<V> generate_rows(std::string_view spec, const RowBlock& block);

/// The individual generators.
template <class V, class I> Csr<V, I> stencil_2d(std::int64_t nx, std::int64_t ny, int points);
/// Convection-diffusion -Laplace(u) + w . grad(u) on the unit square's
/// nx x ny interior grid, Dirichlet boundary, central differences for both
/// terms (scaled by h^2: diagonal 4, neighbours -1 -+ c), w at 45 degrees
/// with |w| = peclet, the global Peclet number. Nonsymmetric for peclet > 0;
/// once the cell Peclet number peclet h / 2 passes 1 the diagonal no longer
/// dominates and the system grows hard for Krylov methods (Saad, Iterative
/// Methods, 2nd ed., section 2.2.5's model problem), the tunable test of
/// BiCGStab and ILU(0).
template <class V, class I> Csr<V, I> convection_diffusion_2d(std::int64_t nx, std::int64_t ny, double peclet);
/// The nx x ny x nz grid's 7- or 27-point Laplacian-like stencil (SPD).
template <class V, class I> Csr<V, I> stencil_3d(std::int64_t nx, std::int64_t ny, std::int64_t nz, int points);
/// A 3-D grid with `block` unknowns per node, 27-point node coupling in dense blocks (SPD).
template <class V, class I> Csr<V, I> fem_blocks(std::int64_t nx, std::int64_t ny, std::int64_t nz, int block, std::uint64_t seed);
/// The shape of power_law(): Pareto row lengths plus a few very long rows.
struct PowerLawOptions {
  std::int64_t rows = 1000000;  ///< rows (and columns)
  double min_length = 1;       ///< Pareto scale x_m
  double exponent = 1.5;       ///< Pareto shape a: P(len > x) = (x_m / x)^a, mean a x_m / (a - 1)
  std::int64_t long_rows = 2;  ///< extra very long rows (webbase/dc1-like)
  double long_fraction = 0.05; ///< each long row holds this fraction of the columns
  std::uint64_t seed = 1;  ///< seed of the hash
};
/// Rows of Pareto-distributed lengths at uniformly random columns.
template <class V, class I> Csr<V, I> power_law(const PowerLawOptions& options);
/// Circuit-like: a diagonal plus per_row couplings near the row, and
/// dense_rows hub rows (supply/ground nets) holding dense_fraction of the
/// columns each, every other row coupled to one hub.
template <class V, class I> Csr<V, I> circuit(std::int64_t n, std::int64_t per_row, std::int64_t dense_rows, double dense_fraction, std::uint64_t seed);
/// per_row entries per row at uniformly random columns.
template <class V, class I> Csr<V, I> random_uniform(std::int64_t rows, std::int64_t cols, std::int64_t per_row, std::uint64_t seed);
/// A symmetric band of half-bandwidth `half_bandwidth`, every band entry stored (SPD).
template <class V, class I> Csr<V, I> banded(std::int64_t n, std::int64_t half_bandwidth, std::uint64_t seed);
/// A dense matrix stored as CSR.
template <class V, class I> Csr<V, I> dense(std::int64_t rows, std::int64_t cols, std::uint64_t seed);
/// `copies` copies of `base` on the block diagonal, plus about `couplings`
/// random entries per copy linking it to the next copy (cyclically).
template <class V, class I> Csr<V, I> replicate(const Csr<V, I>& base, std::int64_t copies, std::int64_t couplings, std::uint64_t seed);

}  // namespace hsparse::generators
