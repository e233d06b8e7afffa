// hsparse bench --fem (fem_bench.hpp).
#include "fem_bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <limits>
#include <type_traits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <vector>

#include "../default_vector.hpp"
#include "../option_checks.hpp"
#include "gnuplot.hpp"
#include "number_format.hpp"
#include "hsparse/io/atomic_file.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/executor.hpp"
#include "hsparse/fem/element_operators.hpp"
#include "hsparse/fem/poisson.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/solvers/krylov.hpp"
#include "baseline_cg.hpp"
#include "hsparse/backends/cuda/device.hpp"

namespace hsparse::bench {

namespace {


struct FemRow {
  std::string precision, op, solver;  // solver: cg, or pipecg (our pipelined CG)
  int degree = 0;
  long long unknowns = 0, iterations = 0;
  double seconds = 0, its = 0, bytes = 0;  // per CG iteration: seconds; operator bytes per product (model)
  std::string status = "ok";
};

struct Context {
  ExecutorPtr ex;
  bool gpu = false, quick = false;
  int iterations = 100;
  const std::atomic<bool>* stop = nullptr;
  std::vector<FemRow> rows;
  int status = 0;
};

// Median of 3 fixed-iteration solves: seconds per iteration and iterations run.
std::pair<double, long long> time_cg(const std::function<SolverResult()>& run) {
  std::vector<double> per;
  long long its = 0;
  for (int rep = 0; rep < 3; ++rep) {
    const SolverResult r = run();
    its = r.iterations;
    per.push_back(r.iterations > 0 ? r.seconds / r.iterations : 0);
  }
  std::sort(per.begin(), per.end());
  return {per[1], its};
}

// The operator's y = A x against the assembled CSR reference on the host.
template <class V>
std::string check_product(const std::function<void(const V*, V*)>& apply, const Csr<V, std::int32_t>& a, const ExecutorPtr& ex) {
  const auto xh = tool::default_x<V>(static_cast<std::size_t>(a.rows));
  std::vector<V> expect(xh.size());
  reference::csr_spmv<V, std::int32_t>(V(1), a, xh, V(0), expect);
  const Array<V> x(ex, std::span<const V>(xh));
  Array<V> y(ex, std::span<const V>(std::vector<V>(xh.size(), std::numeric_limits<V>::quiet_NaN())));
  apply(x.data(), y.data());
  ex->synchronize();
  const auto got = y.to_host();
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::abs(static_cast<double>(got[i]) - static_cast<double>(expect[i])) / std::max(1.0, std::abs(static_cast<double>(expect[i]))));
  const double bound = std::is_same_v<V, float> ? 1e-4 : 1e-10;
  return worst <= bound ? "ok" : "wrong: relative difference " + std::to_string(worst) + " from the CSR product";
}

template <class V>
void bench_degree(Context& c, int p) {
  using I = std::int32_t;
  const char* precision = std::is_same_v<V, float> ? "single" : "double";
  // Unknowns (pN - 1)^2 near the target: 4 M on the GPU (the paper's size), 250 k on the CPU.
  const double target = c.quick ? 5e3 : c.gpu ? 4e6 : 2.5e5;
  const long long n = std::max(1LL, std::llround((std::sqrt(target) + 1) / p));
  const auto pr = fem::assemble_poisson<V, I>({p, n, 0.1});
  std::printf("  %s Q%d: %lld x %lld elements, %lld unknowns, %zu nonzeros\n", precision, p, n, n, pr.unknowns(), pr.matrix.nnz());
  const auto bh = tool::default_x<V>(pr.load.size());
  const Array<V> b(c.ex, std::span<const V>(bh));
  Array<V> x(c.ex, bh.size());
  SolverOptions so;
  so.tolerance = 0;  // a fixed number of iterations
  so.max_iterations = c.iterations;
  so.record_history = false;
  // One row per operator with CG; with `pipelined`, a second with our
  // pipelined CG (fused vector operations: the best hsparse solver).
  const auto add = [&](const std::string& op, double bytes, const std::string& status, const std::function<SolverResult(const SolverOptions&)>& run,
                       bool pipelined = false) {
    for (const KrylovMethod method : {KrylovMethod::cg, KrylovMethod::pipelined_cg}) {
      if (method == KrylovMethod::pipelined_cg && !pipelined) break;
      FemRow r{precision, op, method == KrylovMethod::cg ? "cg" : "pipecg", p, pr.unknowns()};
      r.bytes = bytes;
      r.status = status;
      SolverOptions o = so;
      o.method = method;
      if (status == "ok") {
        const auto [s, its] = time_cg([&] {
          c.ex->fill_zero(x.data(), x.size() * sizeof(V));
          return run(o);
        });
        r.seconds = s;
        r.iterations = its;
        r.its = s > 0 ? 1 / s : 0;
      } else {
        c.status = 1;
      }
      std::printf("    %-26s %10.1f iterations/s  %.3g bytes/product  %s\n", (r.solver == "cg" ? r.op : r.op + " pipecg").c_str(), r.its, bytes,
                  r.status.c_str());
      c.rows.push_back(r);
    }
  };
  for (Format f : {Format::csr, Format::ell, Format::sell}) {
    if (*c.stop) return;
    SpmvOptions o;
    o.format = f;
    std::optional<SpmvPlan<V, I>> plan;
    try {
      plan.emplace(c.ex, pr.matrix, o);
    } catch (const Error& e) {
      std::printf("    %-22s refused: %s\n", to_string(f), e.what());
      continue;
    }
    const std::string status = check_product<V>([&](const V* xx, V* yy) { plan->apply(V(1), xx, V(0), yy); }, pr.matrix, c.ex);
    add(to_string(f), static_cast<double>(plan->matrix_bytes()) + 3.0 * static_cast<double>(pr.unknowns()) * sizeof(V), status,
        [&](const SolverOptions& o) { return solve(pr.matrix, *plan, b, x, o); }, true);
  }
  const std::vector<LmaScatter> scatters = c.gpu ? std::vector<LmaScatter>{LmaScatter::atomics, LmaScatter::colouring} : std::vector<LmaScatter>{LmaScatter::colouring};
  // LMA as the paper stores it (lma-*), and its upper triangles (lma-sym-*).
  const auto packed = fem::upper_triangle(pr.local);
  for (const auto* local : {&pr.local, &packed}) {
    for (const LmaScatter scatter : scatters) {
      if (*c.stop) return;
      const fem::LmaOperator<V, I> lma(c.ex, *local, scatter);
      const LinearOperator<V> op = lma.op();
      const std::string status = check_product<V>([&](const V* xx, V* yy) { op.apply(V(1), xx, V(0), yy); }, pr.matrix, c.ex);
      add(std::string(local->symmetric ? "lma-sym-" : "lma-") + to_string(scatter), lma.bytes_per_product(), status,
          [&](const SolverOptions& o) { return solve(op, {}, b, x, o); }, true);
    }
  }
  if (!*c.stop) {  // the matrix-free, sum-factorised operator (the stretch): atomics on the GPU, colouring on the CPU
    const fem::PaOperator<V, I> pa(c.ex, fem::partial_assembly(pr), c.gpu ? LmaScatter::atomics : LmaScatter::colouring);
    const LinearOperator<V> op = pa.op();
    const std::string status = check_product<V>([&](const V* xx, V* yy) { op.apply(V(1), xx, V(0), yy); }, pr.matrix, c.ex);
    add("pa", pa.bytes_per_product(), status, [&](const SolverOptions& o) { return solve(op, {}, b, x, o); }, true);
  }
  if (c.gpu) {
    const double bytes = static_cast<double>(pr.matrix.bytes()) + 3.0 * static_cast<double>(pr.unknowns()) * sizeof(V);
    add("cusparse-cg", bytes, "ok",
        [&](const SolverOptions& o) { return cusparse_cublas_cg<V>(*c.ex, pr.matrix, b.data(), x.data(), o); });
  }
}

// One table: iterations/s per degree for every operator with `solver` (and
// the cuSPARSE CG baseline), with the LMA / assembled ratios (same solver)
// and the crossover degrees. Adds each degree's best and the baseline to
// best_any / baseline. False when there are no such rows.
bool write_fem_table(std::ostream& md, const Context& c, const std::string& precision, const std::string& solver, std::map<int, double>& best_any,
                     std::map<int, double>& baseline) {
  const auto in = [&](const FemRow& r) { return r.precision == precision && (r.solver == solver || r.op == "cusparse-cg"); };
  std::set<std::string> ops;
  for (const auto& r : c.rows) if (in(r)) ops.insert(r.op);
  if (ops.empty()) return false;
  md << "\n## " << precision << ", " << (solver == "cg" ? "CG" : "pipelined CG (the cuSPARSE baseline: CG)") << "\n\n| degree | unknowns |";
  for (const auto& op : ops) md << " " << op << " |";
  md << " paper's LMA / best assembled | best LMA / best assembled | best hsparse / cuSPARSE CG |\n|---:|---:|";
  for (std::size_t i = 0; i < ops.size() + 3; ++i) md << "---:|";
  md << "\n";
  int crossover = 0, paper_crossover = 0;
  for (int p = 1; p <= 4; ++p) {
    std::map<std::string, const FemRow*> at;
    for (const auto& r : c.rows) if (in(r) && r.degree == p && r.status == "ok") at[r.op] = &r;
    if (at.empty()) continue;
    md << "| " << p << " | " << at.begin()->second->unknowns << " |";
    for (const auto& op : ops) md << " " << (at.count(op) ? std::to_string(std::lround(at[op]->its)) : "-") << " |";
    double best_assembled = 0, best_lma = 0, paper_lma = 0, best_ours = 0, base = 0;
    for (const auto& [op, r] : at) {
      if (op == "cusparse-cg") {
        base = r->its;
        continue;
      }
      best_ours = std::max(best_ours, r->its);
      if (op.rfind("lma", 0) == 0) {
        best_lma = std::max(best_lma, r->its);
        if (op.rfind("lma-sym", 0) != 0) paper_lma = std::max(paper_lma, r->its);
      } else if (op != "pa") {
        best_assembled = std::max(best_assembled, r->its);  // pa: matrix-free, neither assembled nor LMA
      }
    }
    const double lma_ratio = best_assembled > 0 ? best_lma / best_assembled : 0, paper_ratio = best_assembled > 0 ? paper_lma / best_assembled : 0;
    if (lma_ratio > 1 && crossover == 0) crossover = p;
    if (paper_ratio > 1 && paper_crossover == 0) paper_crossover = p;
    md << " " << fmt("%.2fx", paper_ratio) << " | " << fmt("%.2fx", lma_ratio) << " | " << (base > 0 ? fmt("%.2fx", best_ours / base) : "-") << " |\n";
    best_any[p] = std::max(best_any[p], best_ours);
    if (base > 0) baseline[p] = base;
  }
  const auto from = [](int p) { return p ? std::to_string(p) : std::string("- (not at 1..4)"); };
  md << "\nThe paper's LMA (full local matrices) overtakes the best assembled format from degree " << from(paper_crossover)
     << "; the best LMA (either storage) from degree " << from(crossover) << ".\n";
  return true;
}

void write_fem_report(const Context& c, const std::string& dir, const std::string& device) {
  io::prepare_output_folder(dir + "/plots");
  nlohmann::json j;
  j["device"] = device;
  j["iterations"] = c.iterations;
  for (const auto& r : c.rows) {
    j["results"].push_back({{"precision", r.precision}, {"operator", r.op}, {"solver", r.solver}, {"degree", r.degree}, {"unknowns", r.unknowns}, {"iterations", r.iterations},
                            {"seconds_per_iteration", r.seconds}, {"iterations_per_second", r.its}, {"bytes_per_product", r.bytes}, {"status", r.status}});
  }
  // Each file complete or absent; a failed write is an error naming it (atomic_file.hpp).
  io::write_file_atomically(dir + "/fem.json", j.dump(1) + "\n");
  io::AtomicOutputFile md_file(dir + "/fem.md");
  std::ostream& md = md_file.stream();
  md << "# Finite-element CG: iterations per second against the degree (Reguly and Giles, figures 17 and 18)\n\n"
     << device << ". -Laplace(u) = f, Q_p elements on a perturbed quadrilateral mesh (0.1 h), " << c.iterations
     << " CG iterations (tolerance 0) from x = 0, median of 3 solves; each operator's product checked against the assembled CSR first. "
     << "Bytes per product: the operator's arrays once, x read and y read and written once.\n\n"
     << "Operators: csr, ell, sell (assembled, through an SpMV plan); lma-* (the local matrix approach as the paper stores it: every K_e whole); "
     << "lma-sym-* (K_e's upper triangles); pa (matrix-free, sum-factorised: quadrature data only); *-atomics / *-colouring: the scatter; "
     << "cusparse-cg: cuSPARSE SpMV + cuBLAS CG on the CSR matrix. Each operator runs with CG (Rupp's BLAS-based CG, as the baseline) and with our "
     << "pipelined CG (fused vector operations, one synchronisation per iteration): a table each. LMA / assembled ratios compare operators under "
     << "the same solver.\n";
  std::vector<std::string> plots;
  for (const std::string precision : {"double", "single"}) {
    std::map<int, double> best_any, baseline;  // per degree: best hsparse of either solver, cuSPARSE CG
    for (const std::string solver : {"cg", "pipecg"}) {
      if (!write_fem_table(md, c, precision, solver, best_any, baseline)) continue;
      const std::string name = "fem_" + precision + (solver == "cg" ? "" : "_pipecg");
      std::vector<PlotSeries> series;
      std::set<std::string> ops;
      for (const auto& r : c.rows) if (r.precision == precision && (r.solver == solver || r.op == "cusparse-cg")) ops.insert(r.op);
      for (const auto& op : ops) {
        series.push_back({op, {}});
        for (const auto& r : c.rows) {
          if (r.precision == precision && r.op == op && (r.solver == solver || op == "cusparse-cg") && r.status == "ok") series.back().points.emplace_back(r.degree, r.its);
        }
      }
      write_line_plot(dir + "/plots", name,
                      "set title '" + std::string(solver == "cg" ? "CG" : "pipelined CG (cuSPARSE: CG)") + ", " + precision + ", " +
                          fmt("%.1f M", (c.rows.empty() ? 0 : c.rows.front().unknowns) * 1e-6) + " unknowns: " + device + "' noenhanced\n"
                          "set grid; set key outside right; set xlabel 'degree p of the Q_p elements'; set ylabel 'iterations / s'; set xtics 1; "
                          "set xrange [0.8:4.2]; set yrange [0:*]",
                      series);
      plots.push_back(name);
    }
    if (!baseline.empty()) {
      bool all = true;
      md << "\nBest hsparse (any operator, CG or pipelined CG) against cuSPARSE CG, " << precision << ":";
      for (const auto& [p, base] : baseline) {
        md << " Q" << p << " " << fmt("%.2fx", best_any[p] / base);
        all = all && best_any[p] >= 1.5 * base;
      }
      md << "; >= 1.5x at every degree: " << (all ? "yes" : "no") << ".\n";
    }
  }
  write_plots_section(md, dir + "/plots", plots);
  md_file.commit();
}

}  // namespace

int run_fem_benchmark(const FemBenchOptions& opt, const std::atomic<bool>& stop) {
  Context c;
  c.stop = &stop;
  c.gpu = tool::resolve_backend(opt.backend) == "cuda";
  c.ex = make_executor(c.gpu ? Backend::cuda : Backend::cpu);
  c.quick = opt.quick;
  c.iterations = opt.quick ? 10 : c.gpu ? 200 : 50;
  const std::string device = c.ex->description();
  std::printf("bench --fem on %s: CG iterations/s against the degree, %d iterations per solve\n", device.c_str(), c.iterations);
  for (int p = 1; p <= 4 && !stop; ++p) bench_degree<double>(c, p);
  for (int p = 1; p <= 4 && !stop; ++p) bench_degree<float>(c, p);
  write_fem_report(c, opt.out_dir, device);
  std::printf("report: %s/fem.md (data: fem.json; plots: plots/fem_*.png)\n", opt.out_dir.c_str());
  return stop ? 130 : c.status;
}

}  // namespace hsparse::bench
