#include "hsparse/tuning/coordinate_tuner.hpp"

#include <algorithm>

#include "hsparse/core/error.hpp"

namespace hsparse {

CoordinateTuner::CoordinateTuner(std::vector<TunerAxis> axes, double min_gain, double confirm_gain, int max_sweeps)
    : axes_(std::move(axes)), min_gain_(min_gain), confirm_gain_(confirm_gain), max_sweeps_(max_sweeps) {
  for (const auto& a : axes_) {
    if (a.values.empty() || a.start >= a.values.size() || (a.first_direction != 1 && a.first_direction != -1)) {
      throw Error(ErrorCode::invalid_argument, "tuner axis '" + a.name + "': needs values, a start index inside them and a direction of +1 or -1");
    }
  }
  for (const auto& a : axes_) best_.push_back(a.start);
  candidate_ = best_;  // the first measurement is the starting point
  converged_ = axes_.empty();
}

std::vector<int> CoordinateTuner::values_of(const std::vector<std::size_t>& index) const {
  std::vector<int> v;
  for (std::size_t i = 0; i < axes_.size(); ++i) v.push_back(axes_[i].values[index[i]]);
  return v;
}

std::vector<int> CoordinateTuner::next() const { return values_of(converged_ ? best_ : candidate_); }
std::vector<int> CoordinateTuner::best() const { return values_of(best_); }

bool CoordinateTuner::propose_step() {
  candidate_ = best_;
  const auto& a = axes_[axis_];
  const long long i = static_cast<long long>(best_[axis_]) + direction_;
  if (i < 0 || i >= static_cast<long long>(a.values.size())) return false;
  candidate_[axis_] = static_cast<std::size_t>(i);
  return true;
}

void CoordinateTuner::advance_axis() {
  // Within an axis: after a failed first step, try the other direction once.
  while (true) {
    if (steps_taken_ == 0 && turned_ == 0) {
      turned_ = 1;
      direction_ = -direction_;
      if (propose_step()) return;
    }
    // Next axis (or the next sweep).
    ++axis_;
    if (axis_ >= axes_.size()) {
      ++sweep_;
      if (!changed_in_sweep_ || sweep_ >= max_sweeps_) {
        converged_ = true;
        candidate_ = best_;
        return;
      }
      axis_ = 0;
      changed_in_sweep_ = false;
    }
    direction_ = axes_[axis_].first_direction;
    steps_taken_ = 0;
    turned_ = 0;
    if (propose_step()) return;
  }
}

void CoordinateTuner::report(double seconds) {
  if (converged_) return;
  ++measurements_;
  if (!have_best_) {  // the starting point
    have_best_ = true;
    best_time_ = seconds;
    axis_ = 0;
    if (axes_.empty()) {
      converged_ = true;
      return;
    }
    direction_ = axes_[0].first_direction;
    if (!propose_step()) advance_axis();
    return;
  }
  const double gain = best_time_ / seconds - 1;  // > 0: the candidate is faster
  if (confirming_) {
    confirming_ = false;
    const double confirmed = std::max(seconds, pending_time_);  // both runs must be fast
    if (best_time_ / confirmed - 1 > min_gain_) {
      best_ = candidate_;
      best_time_ = confirmed;
      ++steps_taken_;
      changed_in_sweep_ = true;
      if (!propose_step()) advance_axis();
    } else {
      advance_axis();
    }
    return;
  }
  if (gain > min_gain_ && gain < confirm_gain_) {  // small gain: measure again before trusting it
    confirming_ = true;
    pending_time_ = seconds;
    return;
  }
  if (gain >= confirm_gain_) {
    best_ = candidate_;
    best_time_ = seconds;
    ++steps_taken_;
    changed_in_sweep_ = true;
    if (!propose_step()) advance_axis();
    return;
  }
  advance_axis();
}

}  // namespace hsparse
