// hsparse's incomplete factorisations and triangular solves against
// cuSPARSE's (solution_parts.hpp): the setup (ours: PreconditionerPlan's
// construction, factorisation and the solves' analysis included; cuSPARSE's:
// csrilu02 / csric02 and the SpSV analyses) and one application, L then U.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <span>
#include <utility>

#include "hsparse/analysis/matrix_analysis.hpp"
#include "hsparse/backends/cuda/cusparse_baselines.hpp"
#include "hsparse/backends/cuda/timing.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/solvers/preconditioner.hpp"
#include "bench.hpp"
#include "right_hand_side.hpp"
#include "solution_parts.hpp"

namespace hsparse::bench {

namespace {

using V = double;
using I = std::int32_t;

// Applications per timing, each side: a triangular pair of a small matrix
// takes tens of microseconds, so one run says little.
constexpr int kApplyRepetitions = 10;
// The shared matrices compared: at most this many nonzeros (both triangles).
constexpr double kMaxSharedNonzeros = 5e6;

void measure_ours(const ExecutorPtr& ex, const Csr<V, I>& a, bool symmetric, const Array<V>& r, Array<V>& z, TriangularRow& row) {
  SolverOptions o;
  o.preconditioner = symmetric ? Preconditioner::ic0 : Preconditioner::ilu0;
  auto [plan, setup_s] = after_warm_up([&] {
    Stopwatch watch;
    PreconditionerPlan<V, I> p(ex, a, o);
    ex->synchronize();  // the factorisation may still be running on the device
    return std::pair(std::move(p), watch.seconds());
  });
  row.ours_setup_s = setup_s;
  row.ours_apply_s = cuda::time_on_device(cuda_executor(*ex, "the triangular comparison"), [&] { plan.apply(r.data(), z.data()); },
                                          kApplyRepetitions, 2).median_s;
}

void measure_cusparse(const ExecutorPtr& ex, const Csr<V, I>& a, bool symmetric, const Array<V>& r, Array<V>& z, TriangularRow& row) {
  const auto pre = symmetric ? cuda::BaselinePreconditioner::ic0 : cuda::BaselinePreconditioner::ilu0;
  const cuda::Executor& cex = cuda_executor(*ex, "the triangular comparison");
  const auto t = after_warm_up([&] { return cuda::cusparse_factor_and_apply<V>(cex, a, pre, r.data(), z.data(), kApplyRepetitions); });
  row.cusparse_setup_s = t.factor_seconds + t.analysis_seconds;
  row.cusparse_apply_s = t.triangular_pair_seconds;
}

// Runs one side; a failure (a zero pivot, a library error) joins the row's, naming the side.
template <class Measure>
void run_side(const char* side, TriangularRow& row, Measure&& measure) {
  try {
    measure();
  } catch (const std::exception& e) {
    row.failure += (row.failure.empty() ? "" : "; ") + std::string(side) + ": " + e.what();
  }
}

void print_triangular_row(const TriangularRow& t) {
  if (!t.compared()) {
    std::printf("  triangular %-40s %s: not compared (%s)\n", t.matrix.c_str(), t.factorisation.c_str(), t.failure.c_str());
  } else {
    std::printf("  triangular %-40s %s: setup %.3f ms (cuSPARSE %.3f), apply %.1f us (cuSPARSE %.1f): %.2fx, apply %.2fx\n", t.matrix.c_str(),
                t.factorisation.c_str(), t.ours_setup_s * 1e3, t.cusparse_setup_s * 1e3, t.ours_apply_s * 1e6, t.cusparse_apply_s * 1e6,
                t.total_ratio(), t.apply_ratio());
  }
  std::fflush(stdout);
}

// Why a shared matrix is left out, from its header alone ("" where it is
// taken): the file is read only for those that are.
std::string header_reason(const io::MatrixMarketHeader& h) {
  if (h.field != io::MmField::real) return std::string("field ") + io::to_string(h.field) + ", not real";
  if (h.rows != h.cols) return "not square";
  const double nonzeros = static_cast<double>(h.entries) * (h.symmetry == io::MmSymmetry::general ? 1 : 2);
  if (nonzeros > kMaxSharedNonzeros) return "more than 5e6 nonzeros";
  return "";
}

// A diagonal entry missing or zero: no ILU(0) / IC(0) on A's pattern (inverse_diagonal's check).
bool full_nonzero_diagonal(const Csr<V, I>& a) {
  try {
    static_cast<void>(inverse_diagonal(a));
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace

TriangularRow compare_triangular(const ExecutorPtr& ex, const Csr<V, I>& a, const std::string& name) {
  TriangularRow row;
  row.matrix = name;
  row.rows = a.rows;
  row.nonzeros = static_cast<long long>(a.nnz());
  // IC(0) reads one triangle: only an exactly symmetric matrix gets it.
  const bool symmetric = symmetry_defect(a).relative == 0;
  row.factorisation = symmetric ? "IC(0)" : "ILU(0)";
  const Array<V> r(ex, std::span<const V>(right_hand_side(a)));
  Array<V> z(ex, r.size());
  run_side("hsparse", row, [&] { measure_ours(ex, a, symmetric, r, z, row); });
  run_side("cuSPARSE", row, [&] { measure_cusparse(ex, a, symmetric, r, z, row); });
  print_triangular_row(row);
  return row;
}

void compare_shared_matrices(const ExecutorPtr& ex, SolutionResults& results, const std::atomic<bool>& stop) {
  const auto dir = shared_matrix_folder();
  if (!dir) {
    results.triangular_note = "The generated problems above only: no shared matrix folder (set HSPARSE_MATRICES, e.g. to ../shared/matrices).";
    std::printf("  triangular: %s\n", results.triangular_note.c_str());
    return;
  }
  results.triangular_note = "The generated problems above, and every real square matrix of " + *dir +
                            " with a full nonzero diagonal and at most 5e6 nonzeros.";
  for (const std::string& path : folder_matrices(*dir)) {
    if (stop) return;
    if (const std::string why = header_reason(io::read_matrix_market_header(path)); !why.empty()) {
      ++results.skipped[why];
      continue;
    }
    const auto a = io::load_matrix<V, I>(path);
    if (!full_nonzero_diagonal(a)) {
      ++results.skipped["a diagonal entry missing or zero"];
      continue;
    }
    const std::string file = std::filesystem::path(path).filename().string();
    results.triangular.push_back(compare_triangular(ex, a, file.substr(0, file.find(".mtx"))));
  }
}

}  // namespace hsparse::bench
