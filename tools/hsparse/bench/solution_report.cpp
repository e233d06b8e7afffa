// solutions.md and solutions.json of hsparse bench --solvers' time-to-solution
// part (solution_parts.hpp): a table of solves per problem, the pairs with
// PETSc, the triangular comparison, and the goals, computed once for both files.
#include <algorithm>
#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "hsparse/io/atomic_file.hpp"
#include "number_format.hpp"
#include "solution_parts.hpp"

namespace hsparse::bench {

namespace {

using json = nlohmann::json;

// A goal: cuSPARSE's (or the slower variant's) time over hsparse's against
// the ratio wanted; `ratio` is empty where a side is missing (`missing` says why).
struct Goal {
  std::string what;
  double goal = 0;
  std::optional<double> ratio;
  std::string missing;
  std::string verdict() const { return !ratio ? "not measured" : *ratio >= goal ? "met" : "missed"; }
};

// The largest SPD problem's rows (CG runs on SPD problems only): the goals are stated for the 10^7-unknown Poisson problem.
std::vector<SolveRow> largest_spd_problem(const SolutionResults& r) {
  const SolveRow* largest = nullptr;
  for (const auto& s : r.solves) {
    if (s.solver == "cg" && (!largest || s.unknowns > largest->unknowns)) largest = &s;
  }
  std::vector<SolveRow> rows;
  for (const auto& s : r.solves) {
    if (largest && s.problem == largest->problem) rows.push_back(s);
  }
  return rows;
}

// The fastest converged row that `wanted` picks, or why there is none.
struct Pick {
  const SolveRow* row = nullptr;
  std::string missing;
};

Pick fastest(const std::vector<SolveRow>& rows, const std::string& name, const std::function<bool(const SolveRow&)>& wanted) {
  Pick p;
  bool ran = false;
  for (const auto& s : rows) {
    if (!wanted(s)) continue;
    ran = true;
    if (s.converged() && (!p.row || s.total_s() < p.row->total_s())) p.row = &s;
  }
  if (!p.row) p.missing = name + (ran ? " did not converge" : " did not run");
  return p;
}

std::string row_name(const SolveRow& s) { return s.solver + " + " + s.preconditioner + " (" + fmt("%.3f s", s.total_s()) + ")"; }

Goal speedup_goal(double goal, const Pick& ours, const Pick& theirs, const std::string& against) {
  Goal g{"best preconditioned hsparse solve against " + against, goal, std::nullopt, ours.row ? theirs.missing : ours.missing};
  if (ours.row && theirs.row) {
    g.what = "best preconditioned hsparse solve, " + row_name(*ours.row) + ", against " + against + ", " + row_name(*theirs.row);
    g.ratio = theirs.row->total_s() / ours.row->total_s();
  }
  return g;
}

std::vector<Goal> solve_goals(const SolutionResults& r) {
  const auto rows = largest_spd_problem(r);
  const std::string cg = "unpreconditioned hsparse CG", pcg = "cuSPARSE PCG with IC(0)";
  const Pick best = fastest(rows, "the preconditioned hsparse solves", [](const SolveRow& s) { return !s.baseline() && s.preconditioner != "none"; });
  std::vector<Goal> goals = {
      speedup_goal(2.0, best, fastest(rows, cg, [](const SolveRow& s) { return !s.baseline() && s.solver == "cg" && s.preconditioner == "none"; }), cg),
      speedup_goal(3.0, best, fastest(rows, pcg, [](const SolveRow& s) { return s.library == "cuSPARSE" && s.preconditioner == "ic0"; }), pcg)};
  const std::string where = rows.empty() ? "" : " on " + rows.front().problem;
  for (auto& g : goals) g.what += where;
  return goals;
}

// An hsparse row and PETSc's beside it (same problem, method and
// preconditioner), against the CPU goal: hsparse's total at most
// 1/kPetscSpeedupGoal of PETSc's. Compared where both converged.
struct PetscPair {
  const SolveRow* ours = nullptr;
  const SolveRow* petsc = nullptr;
  std::optional<double> ratio;  // hsparse's total over PETSc's
  std::string missing;          // why there is no ratio
  // The goal is judged on equal resources only: PETSc runs one process on
  // one core, so hsparse on more threads is shown but not judged.
  bool like_for_like = true;
  std::string verdict() const {
    if (!ratio) return "not compared";
    if (!like_for_like) return "not judged (hsparse on more threads)";
    return *ratio <= 1.0 / kPetscSpeedupGoal ? "met" : "missed";
  }
};

std::vector<PetscPair> petsc_pairs(const std::vector<SolveRow>& rows, int hsparse_threads) {
  std::vector<PetscPair> pairs;
  for (const auto& t : rows) {
    if (t.library != "PETSc") continue;
    const auto ours = std::find_if(rows.begin(), rows.end(), [&](const SolveRow& s) {
      return !s.baseline() && s.problem == t.problem && s.solver == t.pairs_with && s.preconditioner == t.preconditioner;
    });
    if (ours == rows.end()) continue;
    PetscPair p{&*ours, &t, std::nullopt, ""};
    p.like_for_like = hsparse_threads == 1;
    if (!ours->converged()) p.missing = "hsparse: " + ours->status;
    else if (!t.converged()) p.missing = "PETSc: " + t.status;
    else p.ratio = ours->total_s() / t.total_s();
    pairs.push_back(p);
  }
  return pairs;
}

double geometric_mean(const std::vector<double>& v) {
  double log_sum = 0;
  for (double x : v) log_sum += std::log(x);
  return v.empty() ? 0 : std::exp(log_sum / static_cast<double>(v.size()));
}

struct TriangularSummary {
  int compared = 0, apply_below_one = 0;
  double total_mean = 0, apply_mean = 0;  // geometric means of cuSPARSE / hsparse
  std::vector<Goal> goals;
};

TriangularSummary summarize_triangular(const std::vector<TriangularRow>& rows) {
  std::vector<double> total, apply;
  TriangularSummary s;
  for (const auto& t : rows) {
    if (!t.compared()) continue;
    total.push_back(t.total_ratio());
    apply.push_back(t.apply_ratio());
    s.apply_below_one += t.apply_ratio() < 1.0 ? 1 : 0;
  }
  s.compared = static_cast<int>(total.size());
  s.total_mean = geometric_mean(total);
  s.apply_mean = geometric_mean(apply);
  if (s.compared == 0) return s;
  s.goals.push_back({"geometric mean of setup + apply, cuSPARSE / hsparse", 1.5, s.total_mean, ""});
  s.goals.push_back({"every apply at least cuSPARSE's speed (" + std::to_string(s.apply_below_one) + " of " + std::to_string(s.compared) +
                         " below 1.0x; the lowest as the ratio)",
                     1.0, *std::min_element(apply.begin(), apply.end()), ""});
  return s;
}

json to_json(const SolveRow& s) {
  json j = {{"problem", s.problem},  {"unknowns", s.unknowns},     {"nonzeros", s.nonzeros},   {"library", s.library},
            {"solver", s.solver},    {"preconditioner", s.preconditioner}, {"description", s.description}, {"baseline", s.baseline()},
            {"setup_s", s.setup_s},  {"solve_s", s.solve_s},      {"total_s", s.total_s()},   {"iterations", s.iterations},
            {"status", s.status},    {"true_relative_residual", s.true_residual}};
  if (!s.pairs_with.empty()) j["pairs_with"] = s.pairs_with;
  return j;
}

json to_json(const PetscPair& p) {
  json j = {{"problem", p.ours->problem},
            {"solver", p.ours->solver},
            {"preconditioner", p.ours->preconditioner},
            {"petsc", p.petsc->description},
            {"hsparse_total_s", p.ours->total_s()},
            {"petsc_total_s", p.petsc->total_s()},
            {"hsparse_iterations", p.ours->iterations},
            {"petsc_iterations", p.petsc->iterations},
            {"goal_ratio", 1.0 / kPetscSpeedupGoal},
            {"verdict", p.verdict()}};
  if (p.ratio) j["hsparse_over_petsc"] = *p.ratio;
  else j["missing"] = p.missing;
  return j;
}

json to_json(const TriangularRow& t) {
  json j = {{"matrix", t.matrix}, {"rows", t.rows}, {"nonzeros", t.nonzeros}, {"factorisation", t.factorisation}, {"failure", t.failure}};
  if (t.compared()) {
    j.update({{"hsparse_setup_s", t.ours_setup_s},
              {"hsparse_apply_s", t.ours_apply_s},
              {"cusparse_setup_s", t.cusparse_setup_s},
              {"cusparse_apply_s", t.cusparse_apply_s},
              {"setup_plus_apply_ratio", t.total_ratio()},
              {"apply_ratio", t.apply_ratio()}});
  }
  return j;
}

json to_json(const Goal& g) {
  json j = {{"what", g.what}, {"goal", g.goal}, {"verdict", g.verdict()}};
  if (g.ratio) j["ratio"] = *g.ratio;
  if (!g.missing.empty()) j["missing"] = g.missing;
  return j;
}

json report_json(const SolutionResults& r, const std::vector<Goal>& goals, const std::vector<PetscPair>& pairs, const TriangularSummary& t) {
  json j = {{"device", r.device}, {"quick", r.quick}, {"tolerance", kSolutionTolerance}, {"max_iterations", kSolutionMaxIterations},
            {"solves", json::array()}, {"petsc_note", r.petsc_note}, {"petsc_pairs", json::array()}, {"triangular", json::array()},
            {"triangular_skipped", r.skipped}, {"triangular_note", r.triangular_note}, {"goals", json::array()}};
  for (const auto& s : r.solves) j["solves"].push_back(to_json(s));
  for (const auto& p : pairs) j["petsc_pairs"].push_back(to_json(p));
  for (const auto& x : r.triangular) j["triangular"].push_back(to_json(x));
  for (const auto& g : goals) j["goals"].push_back(to_json(g));
  for (const auto& g : t.goals) j["goals"].push_back(to_json(g));
  j["triangular_geometric_mean"] = {{"setup_plus_apply_ratio", t.total_mean}, {"apply_ratio", t.apply_mean}, {"matrices", t.compared}};
  return j;
}

// A table cell: an error message may hold the table's separator.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}

void write_goal(std::ostream& md, const Goal& g) {
  md << "- " << g.what << ": ";
  if (g.ratio) md << fmt("%.2fx", *g.ratio) << " (goal " << fmt("%.1fx", g.goal) << "): " << g.verdict() << "\n";
  else md << "not measured (" << g.missing << ")\n";
}

void write_solve_tables(std::ostream& md, const std::vector<SolveRow>& rows) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const SolveRow& s = rows[i];
    if (i == 0 || rows[i - 1].problem != s.problem) {
      md << "\n## " << s.problem << "\n\n" << s.unknowns << " unknowns, " << s.nonzeros << " nonzeros.\n\n"
         << "| solver | preconditioner | setup (s) | solve (s) | total (s) | iterations | status | true residual | M^-1 |\n"
         << "|---|---|---:|---:|---:|---:|---|---:|---|\n";
    }
    md << "| " << s.solver << " | " << s.preconditioner << " | ";
    if (s.status.starts_with("error")) {
      md << "- | - | - | - | " << cell(s.status) << " | - | |\n";  // nothing was measured
      continue;
    }
    md << fmt("%.3f", s.setup_s) << " | " << fmt("%.3f", s.solve_s) << " | " << fmt("%.3f", s.total_s()) << " | " << s.iterations << " | "
       << cell(s.status) << " | " << fmt("%.1e", s.true_residual) << " | " << cell(s.description) << " |\n";
  }
}

void write_petsc_pairs(std::ostream& md, const SolutionResults& r, const std::vector<PetscPair>& pairs) {
  md << "\n## Against PETSc: time to solution on the CPU\n\n" << (r.petsc_note.empty() ? "No PETSc row ran." : r.petsc_note) << "\n";
  if (pairs.empty()) return;
  int met = 0, compared = 0;
  for (const auto& p : pairs) {
    compared += p.ratio ? 1 : 0;
    met += p.verdict() == "met" ? 1 : 0;
  }
  md << "\nEach hsparse variant beside PETSc's KSP with the same method, preconditioner and stopping test (the PETSc rows above). Goal: "
     << "hsparse <= 1/" << fmt("%.1f", kPetscSpeedupGoal) << " of PETSc's time to solution (hsparse / PETSc <= " << fmt("%.2f", 1.0 / kPetscSpeedupGoal)
     << "), in total time (setup + solve), judged on equal resources only (PETSc: one process, one core). "
     << (r.hsparse_threads == 1 ? "Met in " + std::to_string(met) + " of " + std::to_string(compared) + " pairs compared."
                                : "hsparse ran on " + std::to_string(r.hsparse_threads) +
                                      " threads here, so nothing is judged: run with OMP_NUM_THREADS=1 for the like-for-like figure.")
     << "\n\n"
     << "| problem | hsparse | PETSc | hsparse total (s) | PETSc total (s) | hsparse / PETSc | goal | iterations (hsparse / PETSc) |\n"
     << "|---|---|---|---:|---:|---:|---|---:|\n";
  for (const auto& p : pairs) {
    md << "| " << p.ours->problem << " | " << p.ours->solver << " + " << p.ours->preconditioner << " | " << cell(p.petsc->description) << " | ";
    if (!p.ratio) {
      md << "- | - | - | not compared (" << cell(p.missing) << ") | " << p.ours->iterations << " / " << p.petsc->iterations << " |\n";
      continue;
    }
    md << fmt("%.3f", p.ours->total_s()) << " | " << fmt("%.3f", p.petsc->total_s()) << " | " << fmt("%.2f", *p.ratio) << " | " << p.verdict() << " | "
       << p.ours->iterations << " / " << p.petsc->iterations << " |\n";
  }
}

void write_triangular(std::ostream& md, const SolutionResults& r, const TriangularSummary& t) {
  md << "\n## Incomplete factorisation and triangular solves against cuSPARSE\n\n" << r.triangular_note << "\n";
  if (r.triangular.empty()) return;
  md << "\nIC(0) where the matrix is symmetric, else ILU(0). Setup: hsparse's PreconditionerPlan construction (factorisation, the solves' "
        "analysis, the upload) against cuSPARSE's factorisation and SpSV analyses; apply: one L then U solve (median of 10, CUDA events) "
        "against cuSPARSE's pair (average of 10 back to back). Each side runs twice, the second measured. Ratios: cuSPARSE's time over "
        "hsparse's (above 1: hsparse faster).\n\n"
     << "| matrix | rows | nonzeros | factorisation | setup (ms) | cuSPARSE setup (ms) | apply (us) | cuSPARSE apply (us) | setup + apply ratio | apply ratio |\n"
     << "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& x : r.triangular) {
    if (!x.compared()) continue;
    md << "| " << x.matrix << " | " << x.rows << " | " << x.nonzeros << " | " << x.factorisation << " | " << fmt("%.3f", x.ours_setup_s * 1e3) << " | "
       << fmt("%.3f", x.cusparse_setup_s * 1e3) << " | " << fmt("%.1f", x.ours_apply_s * 1e6) << " | " << fmt("%.1f", x.cusparse_apply_s * 1e6)
       << " | " << fmt("%.2fx", x.total_ratio()) << " | " << fmt("%.2fx", x.apply_ratio()) << " |\n";
  }
  md << "\nGeometric means over " << t.compared << " matrices: setup + apply " << fmt("%.2fx", t.total_mean) << ", apply " << fmt("%.2fx", t.apply_mean)
     << ".\n\n";
  for (const auto& x : r.triangular) {
    if (!x.compared()) md << "- not compared, " << x.matrix << " (" << x.factorisation << "): " << x.failure << "\n";
  }
  for (const auto& [why, count] : r.skipped) md << "- left out, " << why << ": " << count << " shared matrices\n";
}

std::string report_markdown(const SolutionResults& r, const std::vector<Goal>& goals, const std::vector<PetscPair>& pairs, const TriangularSummary& t) {
  std::ostringstream md;
  md << "# Krylov solvers: time to solution\n\n"
     << "- " << r.device << ", double precision.\n"
     << "- Every solve starts from x = 0 with b = A x* (x* the tool's default vector) and stops when the solver's ||r|| / ||b|| <= "
     << fmt("%.0e", kSolutionTolerance) << " or after " << kSolutionMaxIterations
     << " iterations; the true residual ||b - A x|| / ||b|| is computed on the host afterwards.\n"
        "- Each variant is timed once, after one untimed warm-up solve.\n"
        "- Operator: CSR (hsparse's SpMV plan; cuSPARSE's SpMV in the cuSPARSE + cuBLAS baselines).\n"
        "- Setup: for hsparse the operator's upload, the preconditioner, the workspace and the first residual; for cuSPARSE the "
        "upload, the SpMV preprocessing, the factorisation, the triangular solves' analyses and the first residual; for PETSc the "
        "SeqAIJ matrix's creation from the CSR arrays and KSPSetUp (the factorisation).\n";
  write_solve_tables(md, r.solves);
  md << "\n## Goals: time to solution\n\n";
  for (const auto& g : goals) write_goal(md, g);
  if (r.gpu && r.quick) md << "\nThe goals are stated for the 10^7-unknown Poisson problem, which --quick leaves out.\n";
  if (!r.gpu) md << "\nThe goals are stated for a GPU and the 10^7-unknown Poisson problem; this CPU run solves smaller ones.\n";
  write_petsc_pairs(md, r, pairs);
  write_triangular(md, r, t);
  if (!t.goals.empty()) md << "\n### Goals: triangular solves\n\n";
  for (const auto& g : t.goals) write_goal(md, g);
  return md.str();
}

}  // namespace

void write_solution_report(const SolutionResults& results, const std::string& out_dir) {
  const auto goals = solve_goals(results);
  const auto triangular = summarize_triangular(results.triangular);
  const auto pairs = petsc_pairs(results.solves, results.hsparse_threads);
  // Each file complete or absent; a failed write is an error naming it (atomic_file.hpp).
  io::write_file_atomically(out_dir + "/solutions.json", report_json(results, goals, pairs, triangular).dump(1) + "\n");
  io::write_file_atomically(out_dir + "/solutions.md", report_markdown(results, goals, pairs, triangular));
}

}  // namespace hsparse::bench
