// Row partitions (distributed/row_partition.hpp).
#include "hsparse/distributed/row_partition.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "hsparse/core/error.hpp"

namespace hsparse::distributed {

void RowPartition::validate() const {
  if (offsets.size() < 2) throw Error(ErrorCode::invalid_argument, "row partition: at least one rank is needed (" + std::to_string(offsets.size()) + " offsets)");
  if (offsets.front() != 0) throw Error(ErrorCode::invalid_argument, "row partition: the first offset is " + std::to_string(offsets.front()) + ", not 0");
  for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
    if (offsets[r + 1] < offsets[r]) {
      throw Error(ErrorCode::invalid_argument, "row partition: offset of rank " + std::to_string(r + 1) + " (" + std::to_string(offsets[r + 1]) +
                                                   ") is below rank " + std::to_string(r) + "'s (" + std::to_string(offsets[r]) + ")");
    }
  }
}

int RowPartition::owner(std::int64_t row) const {
  if (row < 0 || row >= rows()) {
    throw Error(ErrorCode::invalid_argument, "row partition: row " + std::to_string(row) + " outside 0.." + std::to_string(rows() - 1));
  }
  // The last offset <= row; among equal offsets (ranks owning nothing) the
  // last one, whose rank owns the row.
  const auto it = std::upper_bound(offsets.begin(), offsets.end(), row);
  return static_cast<int>(it - offsets.begin()) - 1;
}

RowPartition contiguous_rows(std::int64_t rows, int ranks) {
  if (ranks < 1) throw Error(ErrorCode::invalid_argument, "row partition: ranks must be at least 1, not " + std::to_string(ranks));
  if (rows < 0) throw Error(ErrorCode::invalid_argument, "row partition: rows must be at least 0, not " + std::to_string(rows));
  RowPartition p;
  p.offsets.resize(static_cast<std::size_t>(ranks) + 1);
  const std::int64_t base = rows / ranks, extra = rows % ranks;
  for (int r = 0; r < ranks; ++r) p.offsets[static_cast<std::size_t>(r) + 1] = p.offsets[static_cast<std::size_t>(r)] + base + (r < extra ? 1 : 0);
  return p;
}

RowPartition weighted_rows(std::span<const std::int64_t> row_ptr, std::span<const double> weights) {
  if (weights.empty()) throw Error(ErrorCode::invalid_argument, "row partition: no weights (one per rank)");
  if (row_ptr.empty()) throw Error(ErrorCode::invalid_argument, "row partition: the row pointer needs rows + 1 entries (none given)");
  for (std::size_t r = 0; r < weights.size(); ++r) {
    if (!(weights[r] >= 0)) throw Error(ErrorCode::invalid_argument, "row partition: weight of rank " + std::to_string(r) + " is not a number >= 0");
  }
  const double total_weight = std::accumulate(weights.begin(), weights.end(), 0.0);
  if (!(total_weight > 0)) throw Error(ErrorCode::invalid_argument, "row partition: the weights sum to 0");
  if (!std::is_sorted(row_ptr.begin(), row_ptr.end())) throw Error(ErrorCode::invalid_argument, "row partition: the row pointer decreases");
  const auto rows = static_cast<std::int64_t>(row_ptr.size()) - 1;
  const double work = static_cast<double>(row_ptr.back() - row_ptr.front());
  if (work == 0) return contiguous_rows(rows, static_cast<int>(weights.size()));  // no work to weigh: the rows evenly
  RowPartition p;
  p.offsets.assign(weights.size() + 1, 0);
  double share = 0;
  for (std::size_t r = 0; r + 1 < weights.size(); ++r) {
    share += weights[r] / total_weight;
    const double target = static_cast<double>(row_ptr.front()) + share * work;
    // The row boundary nearest the target, never before the previous cut.
    auto it = std::lower_bound(row_ptr.begin() + p.offsets[r], row_ptr.end(), target,
                               [](std::int64_t v, double t) { return static_cast<double>(v) < t; });
    std::int64_t cut = static_cast<std::int64_t>(it - row_ptr.begin());
    if (cut > p.offsets[r] && cut <= rows &&
        target - static_cast<double>(row_ptr[static_cast<std::size_t>(cut) - 1]) < static_cast<double>(row_ptr[static_cast<std::size_t>(std::min(cut, rows))]) - target) {
      --cut;
    }
    p.offsets[r + 1] = std::min(cut, rows);
  }
  p.offsets.back() = rows;
  return p;
}

}  // namespace hsparse::distributed
