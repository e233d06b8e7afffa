#pragma once
// The pieces of hsparse bench's report shared by its files (private to the
// bench): per-matrix summaries and the goals (report_summary.cpp),
// results.json / results.csv (report_data.cpp) and the gnuplot plots
// (report_plots.cpp); report.cpp writes the console table, report.md and
// the comparison of two runs.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench.hpp"
#include "number_format.hpp"

namespace hsparse::bench::detail {

using json = nlohmann::json;

const char* baseline_name(const Report& r);

// Per matrix: the best hsparse result and the best baselines.
// "best hsparse" is exact storage only: a lossy format (csr16-single, its
// values rounded to single precision) is reported beside it, in the byte
// floor's section, never in the headline comparisons (issue 18's goals are
// on exact storage unless they say otherwise).
struct MatrixSummary {
  const MatrixInfo* info = nullptr;
  const Result* best_hsparse = nullptr;
  const Result* best_baseline = nullptr;
  const Result* best_baseline_csr = nullptr;
  const Result* best_block = nullptr;  // best hsparse BCSR or SELL
  // The same in the back-to-back timing mode (GPU; null where not measured).
  const Result* best_hsparse_back_to_back = nullptr;
  const Result* best_baseline_back_to_back = nullptr;
  // Below the byte floor: hsparse's best CSR, best CSR16 and best lossy kernel.
  const Result* best_csr = nullptr;
  const Result* best_csr16 = nullptr;
  const Result* best_lossy = nullptr;
};
bool is_lossy(const Result& x);
std::vector<MatrixSummary> summarize(const Report& r);
double ratio(const Result* a, const Result* b);
std::string short_name(const std::string& name);
bool is_regular(const MatrixInfo& m);

struct Goal {
  std::string what;
  bool met = false;
  std::string measured;
};
// A per-matrix bar: "n of m met; missed: name value; ..." (met when every
// matrix counted meets it, and at least one was counted).
struct Tally {
  int count = 0, met = 0;
  std::string misses;
  void add(bool ok, const MatrixSummary& s, const std::string& value);
  Goal goal(const std::string& what) const;
};
std::vector<Goal> check_goals(const Report& r, const std::vector<MatrixSummary>& sums);
// "auto"'s own overhead, the choice (analysis and model) apart from its
// setup, over the matrices it ran on, in one line; "" where auto did not run.
std::string auto_choice_text(const Report& r);
// Issue 18's "below the byte floor": the goals on CSR16 and csr16-single,
// and the report's section (bytes per nonzero, same-kernel ratios, error).
std::vector<Goal> byte_floor_goals(const std::vector<MatrixSummary>& sums);
void write_byte_floor_section(std::ostream& md, const std::vector<MatrixSummary>& sums);

json to_json(const Result& x);
json to_json(const Report& r);
void write_csv(const Report& r, const std::string& path);

// gnuplot data and scripts; the plots are drawn when gnuplot is installed.
// Returns why some were not drawn (empty: all were).
std::string write_plots(const Report& r, const std::vector<MatrixSummary>& sums, const std::string& dir);

}  // namespace hsparse::bench::detail
