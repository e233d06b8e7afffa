#pragma once
// Run-time parameter tuning over repeated products with the same matrix
// (Reguly and Giles, section 6), generalised from CSR vector's (repeat,
// coop, blockSize) to any kernel's discrete parameters: SELL's C and sigma,
// BCSR's algorithm, CSR vector's three. Backend-free: the caller runs the
// configuration next() names, times it, and report()s the time.
//
// The walk, one parameter (axis) at a time in the given order, as the paper
// does (repeat first, then coop, then block size):
//  - from the best configuration so far, step the axis one value in its
//    preferred direction (the paper: halve repeat, double coop, grow the
//    block by 32);
//  - a step that is faster by more than `min_gain` is taken and the walk
//    goes on in that direction with a doubled stride (1, 2, 4 values: the
//    paper halves repeat one step at a time, which takes eight products to
//    go from the fixed rule's 170 to the H200's best of 1); a longer
//    stride that loses is retried as a single step; a gain below `confirm_gain` is measured a
//    second time first and taken only if the repeat agrees (a single noisy
//    fast run must not steer the search);
//  - a step that is not faster turns the walk around once (if the first
//    step already failed), then moves to the next axis;
//  - after the last axis, one more sweep if anything changed (at most
//    `max_sweeps`);
//  - then pair moves: two axes stepped together (every pair, every sign),
//    for optima that one axis at a time cannot reach (SELL's C and sigma:
//    a smaller C pays only with a smaller sigma). A pair move that wins
//    restarts the walk from there (at most `pair_rounds` times); then
//    converged: next() keeps naming the best.
#include <cstddef>
#include <string>
#include <vector>

namespace hsparse {

struct TunerAxis {
  std::string name;
  std::vector<int> values;  // ordered
  std::size_t start = 0;    // index of the first guess (the fixed rule's choice)
  int first_direction = +1; // +1: towards larger values first
};

class CoordinateTuner {
 public:
  explicit CoordinateTuner(std::vector<TunerAxis> axes, double min_gain = 0.02, double confirm_gain = 0.05, int max_sweeps = 2,
                           int pair_rounds = 1);

  // The configuration to run now: one value per axis.
  std::vector<int> next() const;
  // The measured time of the configuration next() named.
  void report(double seconds);

  bool converged() const { return converged_; }
  // Stops the walk now (a budget ran out): next() names the best measured.
  void finish() {
    converged_ = true;
    candidate_ = best_;
  }
  std::vector<int> best() const;  // values of the best configuration measured
  double best_seconds() const { return best_time_; }
  int measurements() const { return measurements_; }
  const std::vector<TunerAxis>& axes() const { return axes_; }

 private:
  void advance_axis();     // next axis, or the next sweep, or the pair moves, or converged
  bool propose_step();     // set candidate_ one step along axis_/direction_; false if at the end
  void start_pairs();      // the pair moves from best_, or converged
  bool propose_pair();     // candidate_ = the next valid pair move; false when none is left
  void accept();           // candidate_ becomes best_
  void reject();           // candidate_ lost: the next step, axis or pair move
  std::vector<int> values_of(const std::vector<std::size_t>& index) const;

  std::vector<TunerAxis> axes_;
  double min_gain_, confirm_gain_;
  int max_sweeps_, pair_rounds_;
  bool in_pairs_ = false;
  std::size_t pair_move_ = 0;  // index into the (i, j, si, sj) moves
  int pair_rounds_done_ = 0;
  std::vector<std::size_t> best_, candidate_;
  double best_time_ = 0, pending_time_ = 0;
  bool have_best_ = false, confirming_ = false, converged_ = false, changed_in_sweep_ = false;
  std::size_t axis_ = 0;
  int direction_ = +1, steps_taken_ = 0, turned_ = 0, sweep_ = 0, measurements_ = 0;
  long long stride_ = 1;  // values per step along the axis: doubles after each win, back to 1 after a miss
};

}  // namespace hsparse
