// Irregular generators: power-law rows, uniform random, and replication of a
// real matrix on the block diagonal.
#include <algorithm>
#include <cmath>
#include <limits>

#include "hsparse/generators/generators.hpp"
#include "row_builder.hpp"

namespace hsparse::generators {

namespace {

double signed_value(std::uint64_t seed, std::int64_t r, std::int64_t c) {
  return 2.0 * hash_uniform(seed ^ 0x5bd1e995ULL, static_cast<std::uint64_t>(r), static_cast<std::uint64_t>(c)) - 1.0;
}

// `count` distinct-ish random columns of [0, cols): sampled with replacement
// when sparse (repeats are merged by build_rows), or by one Bernoulli pass
// over all columns when dense, so a long row never loops for long.
void random_columns(std::uint64_t seed, std::int64_t r, std::int64_t count, std::int64_t cols, RowEntries& e) {
  if (cols == 0 || count <= 0) return;
  if (count > cols / 8) {  // count * 8 > cols, without overflow for a huge count
    const double p = std::min(1.0, static_cast<double>(count) / static_cast<double>(cols));
    for (std::int64_t c = 0; c < cols; ++c) {
      if (hash_uniform(seed, static_cast<std::uint64_t>(r), static_cast<std::uint64_t>(c) | (1ULL << 62)) < p) {
        e.emplace_back(c, signed_value(seed, r, c));
      }
    }
    return;
  }
  for (std::int64_t k = 0; k < count; ++k) {
    const auto c = static_cast<std::int64_t>(hash_uniform(seed, static_cast<std::uint64_t>(r), static_cast<std::uint64_t>(k)) * static_cast<double>(cols));
    e.emplace_back(c, signed_value(seed, r, c));
  }
}

// The most entries random_columns can emit: `count` samples, or, past
// cols / 8, one Bernoulli draw per column, where a row may get more than
// `count` (up to all columns; 8 count at most, as count > cols / 8).
std::int64_t random_columns_bound(std::int64_t count, std::int64_t cols) {
  if (cols == 0 || count <= 0) return 0;
  return count > cols / 8 ? cols : count;
}

// Entries of power_law's row r before merging: a long row's sample count or
// its Pareto length x_m * u^(-1/a), capped at n. One hash and one pow: the
// generator's bound sums it over the rows without emitting any entry.
std::int64_t power_law_row_count(const PowerLawOptions& o, std::int64_t r, bool* is_long) {
  const std::int64_t n = o.rows;
  // The long rows sit at hash-chosen positions (spread, not clustered at the top).
  const auto long_slot = hash3(o.seed, 7, static_cast<std::uint64_t>(r)) % static_cast<std::uint64_t>(n);
  *is_long = static_cast<std::int64_t>(long_slot) < o.long_rows;
  if (*is_long) return static_cast<std::int64_t>(o.long_fraction * static_cast<double>(n));
  const double u = 1.0 - hash_uniform(o.seed, 11, static_cast<std::uint64_t>(r));
  return static_cast<std::int64_t>(std::min(static_cast<double>(n), std::floor(o.min_length * std::pow(u, -1.0 / o.exponent))));
}

}  // namespace

template <class V, class I>
Csr<V, I> random_uniform(std::int64_t rows, std::int64_t cols, std::int64_t per_row, std::uint64_t seed) {
  if (rows < 0 || cols < 0 || per_row < 0) throw Error(ErrorCode::invalid_argument, "random: rows, cols and per_row must be non-negative");
  const std::int64_t bound = checked_product({rows, random_columns_bound(per_row, cols)}, "random: rows * entries per row");
  return build_rows<V, I>(rows, cols, bound, [=](std::int64_t r, RowEntries& e) { random_columns(seed, r, per_row, cols, e); });
}

template <class V, class I>
Csr<V, I> power_law(const PowerLawOptions& o) {
  if (o.exponent <= 0 || o.min_length < 0 || o.long_rows < 0 || o.long_fraction < 0 || o.long_fraction > 1) {
    throw Error(ErrorCode::invalid_argument, "powerlaw: need exponent > 0, min_length >= 0, long_rows >= 0, long_fraction in [0, 1]");
  }
  const std::int64_t n = o.rows;
  // The lengths are heavy-tailed, so no upper bound from the parameters
  // alone is tight: the bound is their sum, one O(rows) pass that emits no
  // entry. Before it, a lower bound is checked so that a spec far too large
  // is refused at once: with min >= 1 every ordinary row keeps an entry, and
  // so does a long row drawn by sampling (1 <= its count <= n / 8).
  const auto long_count = static_cast<std::int64_t>(o.long_fraction * static_cast<double>(n));
  const bool every_row_kept = o.min_length >= 1 && (o.long_rows == 0 || (long_count >= 1 && long_count <= n / 8));
  require_generator_size<V, I>(n, n, every_row_kept ? n : 0, true);
  std::uint64_t bound = 0;  // saturating: n * n passes 2^64 for n > 4e9
#pragma omp parallel
  {
    std::uint64_t part = 0;
#pragma omp for schedule(static) nowait
    for (std::int64_t r = 0; r < n; ++r) {
      bool is_long = false;
      const std::int64_t count = power_law_row_count(o, r, &is_long);
      // A long row past n / 8 is drawn column by column and may exceed its count.
      part = saturating_sum(part, static_cast<std::uint64_t>(is_long ? random_columns_bound(count, n) : count));
    }
#pragma omp critical
    bound = saturating_sum(bound, part);
  }
  if (bound > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    throw Error(ErrorCode::overflow, "powerlaw: the row lengths' sum does not fit a 64-bit integer");
  }
  return build_rows<V, I>(n, n, static_cast<std::int64_t>(bound), [=](std::int64_t r, RowEntries& e) {
    if (n == 0) return;
    bool is_long = false;
    const std::int64_t count = power_law_row_count(o, r, &is_long);
    if (is_long) {
      random_columns(o.seed, r, count, n, e);
      return;
    }
    // Web-graph-like columns: 3/4 near the row (locality), 1/4 skewed towards
    // low "popular" columns (u^3), so some columns are hit very often.
    for (std::int64_t k = 0; k < count; ++k) {
      const double v = hash_uniform(o.seed, static_cast<std::uint64_t>(r), static_cast<std::uint64_t>(k));
      std::int64_t c;
      if (k % 4 != 3) {
        c = r + static_cast<std::int64_t>((v - 0.5) * 256.0);
        c = std::clamp<std::int64_t>(c, 0, n - 1);
      } else {
        c = static_cast<std::int64_t>(v * v * v * static_cast<double>(n));
      }
      e.emplace_back(c, signed_value(o.seed, r, c));
    }
  });
}

template <class V, class I>
Csr<V, I> circuit(std::int64_t n, std::int64_t per_row, std::int64_t dense_rows, double dense_fraction, std::uint64_t seed) {
  if (n < 0 || per_row < 0 || dense_rows < 0 || dense_fraction < 0 || dense_fraction > 1) {
    throw Error(ErrorCode::invalid_argument, "circuit: need n, per_row, dense_rows >= 0 and dense_fraction in [0, 1]");
  }
  // Hub nodes (supply and ground nets), one at a hash-chosen row of each of
  // dense_rows equal stretches: their rows hold dense_fraction of all
  // columns, and every other row couples to one hub (the hubs' dense
  // columns), as in circuit matrices like G3_circuit or memchip.
  std::vector<std::int64_t> hubs;
  const std::int64_t stretch = dense_rows > 0 ? n / dense_rows : 0;
  for (std::int64_t k = 0; k < dense_rows && stretch > 0; ++k) {
    hubs.push_back(k * stretch + static_cast<std::int64_t>(hash3(seed, 13, static_cast<std::uint64_t>(k)) % static_cast<std::uint64_t>(stretch)));
  }
  auto is_hub = [hubs](std::int64_t r) { return std::binary_search(hubs.begin(), hubs.end(), r); };
  // Hub rows: their samples and the diagonal; other rows: the diagonal,
  // per_row couplings and one hub. Entries before merging, as they are emitted.
  const auto h = static_cast<std::int64_t>(hubs.size());
  const std::int64_t hub_row = random_columns_bound(static_cast<std::int64_t>(dense_fraction * static_cast<double>(n)), n) + 1;
  const std::int64_t other_row = checked_sum(per_row, h > 0 ? 2 : 1, "circuit: per_row + 2");
  const std::int64_t bound = checked_sum(checked_product({h, hub_row}, "circuit: hubs * hub row"),
                                         checked_product({n - h, other_row}, "circuit: other rows * (per_row + 2)"), "circuit: entries");
  return build_rows<V, I>(n, n, bound, [=](std::int64_t r, RowEntries& e) {
    if (n == 0) return;
    if (is_hub(r)) {
      random_columns(seed, r, static_cast<std::int64_t>(dense_fraction * static_cast<double>(n)), n, e);
      e.emplace_back(r, 4.0);
      return;
    }
    e.emplace_back(r, 4.0);  // diagonal
    // Local couplings: netlists numbered roughly by placement, so neighbours are near.
    for (std::int64_t k = 0; k < per_row; ++k) {
      const double v = hash_uniform(seed, static_cast<std::uint64_t>(r), static_cast<std::uint64_t>(k));
      const std::int64_t c = std::clamp<std::int64_t>(r + static_cast<std::int64_t>((v - 0.5) * 2000.0), 0, n - 1);
      e.emplace_back(c, signed_value(seed, r, c));
    }
    if (!hubs.empty()) {
      const auto h = hubs[hash3(seed, 17, static_cast<std::uint64_t>(r)) % hubs.size()];
      e.emplace_back(h, signed_value(seed, r, h));
    }
  });
}

template <class V, class I>
Csr<V, I> replicate(const Csr<V, I>& base, std::int64_t copies, std::int64_t couplings, std::uint64_t seed) {
  if (copies < 1 || couplings < 0) throw Error(ErrorCode::invalid_argument, "replicate: need copies >= 1 and couplings >= 0");
  const std::int64_t br = base.rows, bc = base.cols;
  const std::int64_t rows = checked_product({br, copies}, "replicate: rows * copies");
  const std::int64_t cols = checked_product({bc, copies}, "replicate: cols * copies");
  // The copies' entries plus at most one coupling per row: known from the file's nnz before any pass.
  const std::int64_t most_entries = checked_sum(checked_product({static_cast<std::int64_t>(base.nnz()), copies}, "replicate: nnz * copies"), rows, "replicate: entries");
  require_generator_size<V, I>(rows, cols, most_entries);
  // Built directly (not through build_rows) so complex values are copied whole.
  // Row r of copy k may get one coupling entry, with probability couplings / rows
  // of the base, into a hash-chosen column of copy k+1 (cyclically).
  const double p = br > 0 ? std::min(1.0, static_cast<double>(couplings) / static_cast<double>(br)) : 0.0;
  auto coupling_column = [&](std::int64_t r) -> std::int64_t {
    if (copies == 1 || bc == 0 || hash_uniform(seed, 3, static_cast<std::uint64_t>(r)) >= p) return -1;
    const std::int64_t next = (r / br + 1) % copies;
    return next * bc + static_cast<std::int64_t>(hash_uniform(seed, 5, static_cast<std::uint64_t>(r)) * static_cast<double>(bc));
  };
  Csr<V, I> a;
  a.rows = static_cast<I>(rows);
  a.cols = static_cast<I>(cols);
  a.row_ptr.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (std::int64_t r = 0; r < rows; ++r) {
    a.row_ptr[r + 1] = a.row_ptr[r] + base.row_length(static_cast<I>(r % br)) + (coupling_column(r) >= 0 ? 1 : 0);
  }
  a.col_idx.resize(static_cast<std::size_t>(a.row_ptr[rows]));
  a.values.resize(a.col_idx.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t copy = r / br, local = r % br, coupling = coupling_column(r);
    I k = a.row_ptr[r];
    auto put = [&](std::int64_t c, V v) { a.col_idx[k] = static_cast<I>(c); a.values[k] = v; ++k; };
    const bool coupling_first = coupling >= 0 && coupling < copy * bc;  // wrapped around to copy 0
    if (coupling_first) put(coupling, V(static_cast<real_type_t<V>>(signed_value(seed, r, coupling))));
    for (I j = base.row_ptr[local]; j < base.row_ptr[local + 1]; ++j) put(copy * bc + base.col_idx[j], base.values[j]);
    if (coupling >= 0 && !coupling_first) put(coupling, V(static_cast<real_type_t<V>>(signed_value(seed, r, coupling))));
  }
  return a;
}

#define HSPARSE_INSTANTIATE(V, I)                                                                     \
  template Csr<V, I> random_uniform<V, I>(std::int64_t, std::int64_t, std::int64_t, std::uint64_t); \
  template Csr<V, I> power_law<V, I>(const PowerLawOptions&);                                         \
  template Csr<V, I> circuit<V, I>(std::int64_t, std::int64_t, std::int64_t, double, std::uint64_t);  \
  template Csr<V, I> replicate(const Csr<V, I>&, std::int64_t, std::int64_t, std::uint64_t);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::generators
