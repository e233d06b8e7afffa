// The exhaustive search and the tuner's replay (tuning/exhaustive_search.hpp).
#include "hsparse/tuning/exhaustive_search.hpp"

#include <limits>

#include "hsparse/core/error.hpp"

namespace hsparse {

const SearchPoint* SearchTable::best() const {
  const SearchPoint* b = nullptr;
  for (const auto& p : points) {
    if (!b || p.seconds < b->seconds) b = &p;
  }
  return b;
}

std::optional<double> SearchTable::seconds_at(const std::vector<int>& c) const {
  for (const auto& p : points) {
    if (p.configuration == c) return p.seconds;
  }
  return std::nullopt;
}

SearchTable exhaustive_search(const std::vector<TunerAxis>& axes, const std::function<double(const std::vector<int>&)>& time,
                              const std::function<bool(const std::vector<int>&)>& skip) {
  SearchTable table;
  table.axes = axes;
  for (const auto& axis : axes) {
    if (axis.values.empty()) throw Error(ErrorCode::invalid_argument, "exhaustive search: axis '" + axis.name + "' has no values");
  }
  if (axes.empty()) return table;
  std::vector<std::size_t> index(axes.size(), 0);  // an odometer over the axes, the last one fastest
  while (true) {
    std::vector<int> c;
    for (std::size_t k = 0; k < axes.size(); ++k) c.push_back(axes[k].values[index[k]]);
    if (!skip || !skip(c)) {
      try {
        table.points.push_back({c, time(c)});
      } catch (const Error&) {
        ++table.refused;
      }
    }
    std::size_t k = axes.size();
    while (k > 0 && ++index[k - 1] == axes[k - 1].values.size()) index[--k] = 0;
    if (k == 0) break;
  }
  return table;
}

std::vector<int> replay_tuner(const SearchTable& table, int max_steps, int* steps) {
  CoordinateTuner tuner(table.axes);
  int n = 0;
  while (!tuner.converged() && n < max_steps) {
    const auto c = tuner.next();
    tuner.report(table.seconds_at(c).value_or(std::numeric_limits<double>::infinity()));
    ++n;
  }
  if (steps) *steps = n;
  return tuner.best();
}

}  // namespace hsparse
