#pragma once
// The exhaustive search over a tuning space (tuning/tuning_spaces.hpp):
// every configuration of the axes timed, the yardstick that fixed rules
// and the run-time tuner are measured against (`hsparse tune`, Reguly
// section 6's tables), and the tuner's walk replayed on the measured
// table (the steps a handle would take, without timing again).
#include <functional>
#include <optional>
#include <vector>

#include "hsparse/tuning/coordinate_tuner.hpp"

namespace hsparse {

struct SearchPoint {
  std::vector<int> configuration;  // one value per axis
  double seconds = 0;
};

struct SearchTable {
  std::vector<TunerAxis> axes;
  std::vector<SearchPoint> points;  // measured ones; skipped and refused configurations are absent
  int refused = 0;                  // configurations whose timing threw Error (a plan refusing them)
  const SearchPoint* best() const;  // null when nothing was measured
  std::optional<double> seconds_at(const std::vector<int>& configuration) const;
};

// Times every configuration of `axes` (the first axis outermost) that
// `skip` does not exclude. `time` returns seconds; an Error thrown by it
// counts the configuration as refused (fill limits, a kernel not built for
// a block size), any other exception propagates.
SearchTable exhaustive_search(const std::vector<TunerAxis>& axes, const std::function<double(const std::vector<int>&)>& time,
                              const std::function<bool(const std::vector<int>&)>& skip = {});

// The coordinate tuner from the axes' starts, fed the table's times (a
// configuration not in the table counts as lost), for at most max_steps
// steps; `steps` receives the number taken. Returns the tuner's best.
std::vector<int> replay_tuner(const SearchTable& table, int max_steps, int* steps = nullptr);

}  // namespace hsparse
