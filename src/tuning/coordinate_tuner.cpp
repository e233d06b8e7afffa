#include "hsparse/tuning/coordinate_tuner.hpp"

#include <algorithm>

#include "hsparse/core/error.hpp"

namespace hsparse {

CoordinateTuner::CoordinateTuner(std::vector<TunerAxis> axes, double min_gain, double confirm_gain, int max_sweeps, int pair_rounds)
    : axes_(std::move(axes)), min_gain_(min_gain), confirm_gain_(confirm_gain), max_sweeps_(max_sweeps), pair_rounds_(pair_rounds) {
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
  const long long last = static_cast<long long>(a.values.size()) - 1;
  long long i = static_cast<long long>(best_[axis_]) + static_cast<long long>(direction_) * stride_;
  if (stride_ > 1) i = std::clamp(i, 0LL, last);  // a long stride stops at the end of the axis
  if (i < 0 || i > last || i == static_cast<long long>(best_[axis_])) return false;
  candidate_[axis_] = static_cast<std::size_t>(i);
  return true;
}

void CoordinateTuner::advance_axis() {
  // Within an axis: after a failed first step, try the other direction once.
  while (true) {
    stride_ = 1;
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
        start_pairs();
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

void CoordinateTuner::start_pairs() {
  in_pairs_ = pair_rounds_done_ < pair_rounds_ && axes_.size() >= 2;
  pair_move_ = 0;
  if (in_pairs_ && propose_pair()) return;
  in_pairs_ = false;
  converged_ = true;
  candidate_ = best_;
}

bool CoordinateTuner::propose_pair() {
  // Moves enumerated as (i < j, sign of i, sign of j): 4 per pair of axes.
  const std::size_t n = axes_.size();
  for (; pair_move_ < n * n * 4; ++pair_move_) {
    const std::size_t pair = pair_move_ / 4, i = pair / n, j = pair % n;
    if (i >= j) continue;
    const int si = (pair_move_ & 1) ? -1 : 1, sj = (pair_move_ & 2) ? -1 : 1;
    const long long ni = static_cast<long long>(best_[i]) + si, nj = static_cast<long long>(best_[j]) + sj;
    if (ni < 0 || nj < 0 || ni >= static_cast<long long>(axes_[i].values.size()) || nj >= static_cast<long long>(axes_[j].values.size())) continue;
    candidate_ = best_;
    candidate_[i] = static_cast<std::size_t>(ni);
    candidate_[j] = static_cast<std::size_t>(nj);
    return true;
  }
  return false;
}

void CoordinateTuner::accept() {
  best_ = candidate_;
  ++steps_taken_;
  changed_in_sweep_ = true;
  if (in_pairs_) {  // a pair move won: walk the axes again from here
    in_pairs_ = false;
    ++pair_rounds_done_;
    sweep_ = 0;
    axis_ = 0;
    changed_in_sweep_ = false;
    direction_ = axes_[0].first_direction;
    steps_taken_ = 0;
    turned_ = 0;
    stride_ = 1;
    if (!propose_step()) advance_axis();
    return;
  }
  stride_ *= 2;  // a run of wins in one direction: longer strides (repeat 170 -> 1 in four steps, not eight)
  if (!propose_step()) {
    stride_ = 1;
    if (!propose_step()) advance_axis();
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
      best_time_ = confirmed;
      accept();
    } else {
      reject();
    }
    return;
  }
  if (gain > min_gain_ && gain < confirm_gain_) {  // small gain: measure again before trusting it
    confirming_ = true;
    pending_time_ = seconds;
    return;
  }
  if (gain >= confirm_gain_) {
    best_time_ = seconds;
    accept();
    return;
  }
  reject();
}

void CoordinateTuner::reject() {
  if (!in_pairs_ && stride_ > 1) {  // the long stride overshot: one step from the best instead
    stride_ = 1;
    if (propose_step()) return;
  }
  if (in_pairs_) {
    ++pair_move_;
    if (!propose_pair()) {
      in_pairs_ = false;
      converged_ = true;
      candidate_ = best_;
    }
    return;
  }
  advance_axis();
}

}  // namespace hsparse
