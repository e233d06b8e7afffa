#include "hsparse/formats/sell_c_sigma.hpp"
#include "traits_models.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "csr_from_rows.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/formats/padding.hpp"

namespace hsparse {

namespace {
constexpr std::int64_t kSellCountingSortRows = 1 << 16;  // wider windows sort by counting (sell_row_order)
}  // namespace

template <class V, class I>
void SellCSigma<V, I>::validate() const {
  const std::size_t n_chunks = chunk_len.size();
  if (chunk < 1 || chunk_ptr.size() != n_chunks + 1 || row_len.size() != n_chunks * static_cast<std::size_t>(chunk) ||
      perm.size() != static_cast<std::size_t>(rows) || static_cast<std::size_t>(chunk_ptr.back()) != values.size() ||
      col_idx.size() != values.size() || n_chunks * static_cast<std::size_t>(chunk) < static_cast<std::size_t>(rows)) {
    throw Error(ErrorCode::invalid_matrix, "SELL-C-sigma: inconsistent sizes");
  }
  for (std::size_t c = 0; c < n_chunks; ++c) {
    if (chunk_ptr[c + 1] - chunk_ptr[c] != chunk_len[c] * chunk) throw Error(ErrorCode::invalid_matrix, "SELL-C-sigma: chunk_ptr and chunk_len disagree at chunk " + std::to_string(c));
    for (int j = 0; j < chunk; ++j) {
      if (row_len[c * chunk + j] > chunk_len[c]) throw Error(ErrorCode::invalid_matrix, "SELL-C-sigma: a row is longer than its chunk");
    }
  }
  const I col_limit = permuted_columns ? rows : cols;
  for (I c : col_idx) {
    if (c < 0 || (c >= col_limit && col_limit > 0)) throw Error(ErrorCode::invalid_matrix, "SELL-C-sigma: column index out of range");
  }
}

template <class V, class I>
std::vector<I> sell_row_order(const Csr<V, I>& a, std::int64_t sigma) {
  const std::int64_t rows = a.rows;
  std::vector<I> order(static_cast<std::size_t>(rows));
  std::iota(order.begin(), order.end(), I(0));
  if (sigma <= 1 || rows < 2) return order;
  auto length = [&](I r) { return a.row_ptr[r + 1] - a.row_ptr[r]; };
  const std::int64_t windows = (rows + sigma - 1) / sigma;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t w = 0; w < windows; ++w) {
    const auto first = order.begin() + w * sigma, last = order.begin() + std::min(rows, (w + 1) * sigma);
    if (last - first <= kSellCountingSortRows) {
      std::stable_sort(first, last, [&](I x, I y) { return length(x) > length(y); });
      continue;
    }
    // A wide window (a global sort of millions of rows): by counting, in
    // time linear in its rows and longest row, and stable as well (build
    // machine, one thread: circuit n = 2.2e6 10-17 ms against std::stable_sort's
    // 44; power law 0.9e6 rows 3-7 against 35-38).
    I longest = 0;
    for (auto r = first; r != last; ++r) longest = std::max(longest, length(*r));
    std::vector<std::int64_t> start(static_cast<std::size_t>(longest) + 2, 0);
    for (auto r = first; r != last; ++r) ++start[static_cast<std::size_t>(longest - length(*r)) + 1];
    for (std::size_t k = 1; k < start.size(); ++k) start[k] += start[k - 1];
    const std::vector<I> rows_in(first, last);
    for (const I r : rows_in) first[start[static_cast<std::size_t>(longest - length(r))]++] = r;
  }
  return order;
}

template <class V, class I>
SellCSigma<V, I> sell_layout(const Csr<V, I>& a, const SellOptions& o) {
  if (o.chunk < 1 || o.chunk > 1024) throw Error(ErrorCode::invalid_argument, "SELL-C-sigma: chunk height C must be in [1, 1024]");
  if (o.sigma < 1) throw Error(ErrorCode::invalid_argument, "SELL-C-sigma: sorting scope sigma must be >= 1");
  if (o.permute_columns && a.rows != a.cols) {
    throw Error(ErrorCode::invalid_argument, "SELL-C-sigma: permuting columns (P A P^T) needs a square matrix");
  }
  SellCSigma<V, I> s;
  s.rows = a.rows;
  s.cols = a.cols;
  s.chunk = o.chunk;
  s.nnz = a.nnz();
  s.permuted_columns = o.permute_columns;
  const std::int64_t C = o.chunk, rows = a.rows;
  // sigma: 1 (no sorting) or a multiple of C, at most the padded row count
  // (a larger sigma means a global sort, as the paper's pJDS limit).
  std::int64_t sigma = 1;
  if (o.sigma > 1) {
    const std::int64_t padded = (rows + C - 1) / C * C;
    sigma = std::max<std::int64_t>(C, std::min<std::int64_t>((o.sigma + C - 1) / C * C, std::max<std::int64_t>(padded, C)));
  }
  s.sigma = static_cast<I>(sigma);

  s.perm = sell_row_order(a, sigma);
  auto length = [&](I r) { return a.row_ptr[r + 1] - a.row_ptr[r]; };
  const std::int64_t n_chunks = (rows + C - 1) / C;
  s.chunk_len.assign(static_cast<std::size_t>(n_chunks), 0);
  s.row_len.assign(static_cast<std::size_t>(n_chunks * C), 0);
  for (std::int64_t i = 0; i < rows; ++i) {
    const I len = length(s.perm[i]);
    s.row_len[static_cast<std::size_t>(i)] = len;
    auto& width = s.chunk_len[static_cast<std::size_t>(i / C)];
    width = std::max(width, len);
  }
  s.chunk_ptr.assign(static_cast<std::size_t>(n_chunks) + 1, 0);
  std::uint64_t total = 0;
  for (std::int64_t c = 0; c < n_chunks; ++c) {
    total += static_cast<std::uint64_t>(s.chunk_len[c]) * static_cast<std::uint64_t>(C);
    if (!fits_index<I>(total)) throw Error(ErrorCode::overflow, std::string("SELL-C-sigma: padded size overflows ") + type_name<I>() + " offsets");
    s.chunk_ptr[c + 1] = static_cast<I>(total);
  }
  return s;
}

template <class V, class I>
SellCSigma<V, I> sell_from_csr(const Csr<V, I>& a, const SellOptions& o) {
  SellCSigma<V, I> s = sell_layout(a, o);
  const std::int64_t C = o.chunk, rows = a.rows;
  const auto n_chunks = static_cast<std::int64_t>(s.chunks());
  auto length = [&](I r) { return a.row_ptr[r + 1] - a.row_ptr[r]; };
  std::vector<I> inverse;
  if (o.permute_columns) {
    inverse.resize(static_cast<std::size_t>(rows));
    for (std::int64_t i = 0; i < rows; ++i) inverse[static_cast<std::size_t>(s.perm[i])] = static_cast<I>(i);
  }
  const auto total = static_cast<std::size_t>(s.chunk_ptr.back());
  s.col_idx.resize(total);
  s.values.resize(total);
#pragma omp parallel for schedule(dynamic, 64)
  for (std::int64_t c = 0; c < n_chunks; ++c) {
    for (std::int64_t j = 0; j < C; ++j) {
      const std::int64_t i = c * C + j;
      const I src = i < rows ? s.perm[i] : 0;
      const I begin = i < rows ? a.row_ptr[src] : 0, len = i < rows ? length(src) : 0;
      auto map = [&](I col) { return o.permute_columns ? inverse[static_cast<std::size_t>(col)] : col; };
      const I pad_col = len > 0 ? map(a.col_idx[begin + len - 1]) : 0;
      for (I k = 0; k < s.chunk_len[c]; ++k) {
        const std::size_t slot = static_cast<std::size_t>(s.chunk_ptr[c]) + static_cast<std::size_t>(k) * C + static_cast<std::size_t>(j);
        s.col_idx[slot] = k < len ? map(a.col_idx[begin + k]) : pad_col;
        s.values[slot] = k < len ? stored_entry(a.values[begin + k]) : V(0);  // formats/padding.hpp
      }
    }
  }
  return s;
}

template <class V, class I>
Csr<V, I> sell_to_csr(const SellCSigma<V, I>& s) {
  // Original row r is sorted row sorted_of[r]; its entries are that row's
  // first row_len slots, columns in original order (unmapped if permuted).
  std::vector<I> sorted_of(static_cast<std::size_t>(s.rows));
  for (I i = 0; i < s.rows; ++i) sorted_of[static_cast<std::size_t>(s.perm[i])] = i;
  const auto C = static_cast<std::size_t>(s.chunk);
  return detail::csr_from_rows<V, I>(s.rows, s.cols, [&](I r, auto&& fn) {
    const auto i = static_cast<std::size_t>(sorted_of[static_cast<std::size_t>(r)]);
    const std::size_t base = static_cast<std::size_t>(s.chunk_ptr[i / C]) + i % C;
    for (I k = 0; k < s.row_len[i]; ++k) {
      const I col = s.col_idx[base + static_cast<std::size_t>(k) * C];
      fn(s.permuted_columns ? s.perm[col] : col, s.values[base + static_cast<std::size_t>(k) * C]);
    }
  });
}

template <class V, class I>
std::vector<V> sell_permute(const SellCSigma<V, I>& s, std::span<const V> original) {
  if (original.size() != s.perm.size()) throw Error(ErrorCode::invalid_argument, "sell_permute: vector length differs from the row count");
  std::vector<V> sorted(original.size());
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < sorted.size(); ++i) sorted[i] = original[static_cast<std::size_t>(s.perm[i])];
  return sorted;
}

template <class V, class I>
std::vector<V> sell_unpermute(const SellCSigma<V, I>& s, std::span<const V> sorted) {
  if (sorted.size() != s.perm.size()) throw Error(ErrorCode::invalid_argument, "sell_unpermute: vector length differs from the row count");
  std::vector<V> original(sorted.size());
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < sorted.size(); ++i) original[static_cast<std::size_t>(s.perm[i])] = sorted[i];
  return original;
}

#define HSPARSE_INSTANTIATE(V, I)                                                         \
  template struct SellCSigma<V, I>;                                                       \
  template SellCSigma<V, I> sell_from_csr(const Csr<V, I>&, const SellOptions&);          \
  template SellCSigma<V, I> sell_layout(const Csr<V, I>&, const SellOptions&);            \
  template Csr<V, I> sell_to_csr(const SellCSigma<V, I>&);                                \
  template std::vector<V> sell_permute(const SellCSigma<V, I>&, std::span<const V>);      \
  template std::vector<V> sell_unpermute(const SellCSigma<V, I>&, std::span<const V>);    \
  template std::vector<I> sell_row_order(const Csr<V, I>&, std::int64_t);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse

namespace hsparse::detail {

// Its row of the format registry (formats/format.hpp): the byte model counts what the conversion above stores.
FormatTraits format_traits_sell() {
  return {Format::sell, "sell", "SELL-C-sigma",
          "chunks of C rows sorted by length within sigma rows, padded per chunk (Kreutzer et al. 2014)", 0, "",
          {{"--chunk", "C, rows per chunk (default: the SIMD width; 32 on the GPU)"}, {"--sigma", "sorting scope in rows"}}, true,
          [](const FormatFootprint& f, std::size_t vb, std::size_t ib) {
            // The container keeps the row permutation whatever sigma (identity at 1).
            return count(f.sell.stored) * (vb + ib) + count(2 * f.sell.chunks + 1) * ib + count(f.rows) * ib;
          },
          [](const FormatFootprint& f) { return f.sell.beta > 0 ? 1.0 / f.sell.beta : 1.0; },
          [](const FormatFootprint& f) { return "C " + std::to_string(f.sell.chunk) + ", sigma " + std::to_string(f.sell.sigma); }};
}

}  // namespace hsparse::detail
