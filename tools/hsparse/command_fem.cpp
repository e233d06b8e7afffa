// hsparse fem: the finite-element application of Reguly and Giles, section
// 8 (issue 17). Assembles -Laplace(u) = f on the unit square with Q_p
// elements (fem/poisson.hpp), solves it by CG with the chosen operator (an
// assembled format through an SpMV plan, or the local matrix approach), and
// reports the solve's iterations, the discretisation error against the
// manufactured solution u = sin(pi x) sin(pi y), and the rate: CG
// iterations per second over a fixed count, with the operator's bytes per
// product under the model. Exit status 0 when the solve converged, 1 when not.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <optional>

#include "commands.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/fem/element_operators.hpp"
#include "hsparse/fem/partial_assembly.hpp"
#include "hsparse/fem/poisson.hpp"
#include "hsparse/kernels/lma_spmv.hpp"
#include "hsparse/solvers/krylov.hpp"
#include "hsparse/tuning/advisor.hpp"
#include "default_vector.hpp"
#include "option_checks.hpp"
#include "terminal_progress.hpp"

namespace hsparse::tool {

namespace {

struct FemCliOptions {
  int degree = 2;
  long long elements = 64;
  double perturbation = 0.0;
  std::string op = "auto", precision = "double", backend = "auto", method = "cg", precond = "none", scatter = "auto";
  double tolerance = 0;  // 0: 1e-12 in double, 1e-6 in single (stated in the help and the output)
  int max_iterations = 100000;
  int rate_iterations = 200;  // 0: no rate run
};

// Bytes one product moves at least under the model: the format's arrays
// once, x read and y read and written once (the same count LMA's
// bytes_per_product uses).
template <class V, class I>
double plan_bytes(const SpmvPlan<V, I>& plan, long long rows) {
  return static_cast<double>(plan.matrix_bytes()) + 3.0 * static_cast<double>(rows) * sizeof(V);
}

template <class V, class I>
int run_fem(const FemCliOptions& c) {
  const fem::PoissonOptions po{c.degree, c.elements, c.perturbation};
  fem::check_poisson_options<I>(po);
  const ExecutorPtr ex = make_executor(c.backend);
  // LMA's scatter: auto = atomics on the GPU (Hopper's native double atomicAdd), colouring on the CPU (its only one).
  if (ex->backend() == Backend::cpu && c.scatter == "atomics") {
    throw Error(ErrorCode::invalid_argument, "--scatter atomics: the CPU LMA product colours the elements; atomics are the GPU's (use --scatter auto or colouring)");
  }
  const LmaScatter scatter = c.scatter == "auto" ? (ex->backend() == Backend::cpu ? LmaScatter::colouring : LmaScatter::atomics) : parse_lma_scatter(c.scatter);
  std::printf("Q%d Poisson problem on %lld x %lld elements (perturbation %.2f h), %s, %s\n", c.degree, c.elements, c.elements, c.perturbation,
              type_name<V>(), ex->description().c_str());
  std::fprintf(stderr, "assembling...\n");
  Stopwatch assembly;
  const auto pr = fem::assemble_poisson<V, I>(po);
  std::printf("  assembled in %.2f s: %lld unknowns, %zu nonzeros (rows up to %d), %d x %lld local matrices\n", assembly.seconds(), pr.unknowns(),
              pr.matrix.nnz(), (2 * c.degree + 1) * (2 * c.degree + 1), pr.local.nodes_per_element, static_cast<long long>(pr.local.elements));
  // The operator: csr/ell/sell through a plan, lma, lma-sym and pa directly.
  // auto on the GPU: the fewest model bytes per product among the advisor's
  // plan, lma-sym and pa, the element operators' gathers and scatters
  // counted (fem::element_product_bytes): it picks the plan at Q1, lma-sym
  // at Q2 and pa at Q3-Q4, the fastest of the three in bench --fem on the
  // H200 in double and single (docs/results/2026-11-23-fem-cg-h200). On the
  // CPU the advisor's plan (our CPU element kernels are not tuned: 0.4-0.7x
  // of CSR on the build machine, bench --fem --quick).
  std::optional<SpmvPlan<V, I>> plan;
  std::optional<fem::LmaOperator<V, I>> lma;
  std::optional<fem::PaOperator<V, I>> pa;
  std::string op = c.op;
  if (c.op == "auto" || (c.op != "lma" && c.op != "lma-sym" && c.op != "pa")) {
    SpmvOptions so;
    if (c.op == "auto") so.format.reset();  // the plan's own choice (resolve_spmv_options)
    else so.format = parse_format(c.op);
    so.spmv_count = std::max(1, std::min(c.max_iterations, 1000));
    plan.emplace(ex, pr.matrix, so);
  }
  std::optional<fem::LocalMatrices<V, I>> packed;
  std::optional<fem::QuadratureData<V, I>> quadrature;
  if (c.op == "lma-sym" || (c.op == "auto" && ex->backend() != Backend::cpu)) packed = fem::upper_triangle(pr.local);
  if (c.op == "pa" || (c.op == "auto" && ex->backend() != Backend::cpu)) quadrature = fem::partial_assembly(pr);
  if (c.op == "auto") {
    const double b_plan = plan_bytes(*plan, pr.unknowns());
    std::string why = "the CPU takes the advisor's plan";
    op = "plan";
    if (packed) {
      const double b_lma = fem::element_product_bytes<V>(*packed, true), b_pa = fem::element_product_bytes<V>(*quadrature, true);
      op = b_lma < b_plan && b_lma <= b_pa ? "lma-sym" : b_pa < b_plan ? "pa" : "plan";
      char text[160];
      std::snprintf(text, sizeof text, "model bytes per product, gathers and scatters counted: the advisor's plan %.3g, lma-sym %.3g, pa %.3g", b_plan, b_lma, b_pa);
      why = text;
    }
    std::printf("  auto: %s (%s)%s%s\n", op == "plan" ? plan->description().c_str() : op.c_str(), why.c_str(), plan->choice().empty() ? "" : "; ", plan->choice().c_str());
    if (op != "plan") plan.reset();
  }
  if (op == "lma") lma.emplace(ex, pr.local, scatter);
  if (op == "lma-sym") lma.emplace(ex, std::move(*packed), scatter);
  if (op == "pa") pa.emplace(ex, std::move(*quadrature), scatter);
  const std::optional<LinearOperator<V>> element_op = lma ? std::optional<LinearOperator<V>>(lma->op()) : pa ? std::optional<LinearOperator<V>>(pa->op()) : std::nullopt;
  const double bytes = plan ? plan_bytes(*plan, pr.unknowns()) : lma ? lma->bytes_per_product() : pa->bytes_per_product();  // the minimum, as CSR's
  const std::vector<V> dinv = !plan && c.precond == "jacobi" ? fem::lma_inverse_diagonal(pr.local) : std::vector<V>{};  // K's diagonal from the local matrices
  SolverOptions so;
  so.method = parse_krylov_method(c.method);
  if (so.method == KrylovMethod::gmres) throw Error(ErrorCode::invalid_argument, "--method must be cg or pipecg: the stiffness matrix is SPD");
  so.preconditioner = parse_preconditioner(c.precond);
  so.tolerance = c.tolerance > 0 ? c.tolerance : std::is_same_v<V, float> ? 1e-6 : 1e-12;
  so.max_iterations = c.max_iterations;
  so.record_history = false;
  so.progress = terminal_progress();
  const Array<V> b(ex, std::span<const V>(pr.load));
  Array<V> x(ex, pr.load.size());
  const SolverResult r = plan ? solve(pr.matrix, *plan, b, x, so) : solve(*element_op, dinv, b, x, so);
  if (so.progress) std::fprintf(stderr, "\r\033[K");
  const auto u = x.to_host();
  std::printf("  operator     %s\n", plan ? plan->description().c_str() : element_op->description().c_str());
  std::printf("  solve        %s %s, tolerance %.0e: %s after %d iterations, ||r||/||b|| %.3e, %.3f s (setup %.3f s)\n", to_string(so.method),
              to_string(so.preconditioner), so.tolerance, to_string(r.status), r.iterations, r.relative_residual, r.seconds, r.setup_seconds);
  std::printf("  true residual ||b - Ax||/||b|| = %.3e (CSR, double, host)\n", true_relative_residual(pr.matrix, std::span<const V>(pr.load), std::span<const V>(u)));
  std::printf("  L2 error     ||u_h - u|| = %.4e (u = sin(pi x) sin(pi y); expected O(h^%d))\n", fem::l2_error(pr, std::span<const V>(u)), c.degree + 1);
  // The rate (the paper's figures 17 and 18): the manufactured load is
  // nearly the lowest eigenvector, so the solve above converges in a few
  // iterations; the rate is timed on b = the tool's default vector (every
  // mode present) for a fixed number of iterations (tolerance 0).
  if (c.rate_iterations > 0) {
    SolverOptions ro = so;
    ro.tolerance = 0;
    ro.max_iterations = c.rate_iterations;
    ro.progress = {};
    const Array<V> b2(ex, std::span<const V>(default_x<V>(pr.load.size())));
    Array<V> x2(ex, pr.load.size());
    const SolverResult rr = plan ? solve(pr.matrix, *plan, b2, x2, ro) : solve(*element_op, dinv, b2, x2, ro);
    const double its = rr.iterations > 0 && rr.seconds > 0 ? rr.iterations / rr.seconds : 0;
    std::printf("  rate         %d iterations on b = the default vector: %.1f iterations/s (%.2f us each)\n", rr.iterations, its,
                its > 0 ? 1e6 / its : 0.0);
    std::printf("  bytes        %.3g per product under the model: %.1f GB/s of operator traffic at that rate\n", bytes, bytes * its * 1e-9);
  }
  return r.converged() ? 0 : 1;
}

}  // namespace

Action add_fem_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("fem", "Finite-element Poisson problem (Q1-Q4): assemble, solve by CG with a chosen operator, report rate and error");
  auto o = std::make_shared<FemCliOptions>();
  cmd->add_option("--degree", o->degree, "Polynomial degree p of the Q_p elements (rows of 9, 25, 49, 81 entries)")->check(integer_in(1, 4))->capture_default_str();
  cmd->add_option("--elements", o->elements, "Elements per side (N x N quadrilaterals; (pN - 1)^2 unknowns)")->check(integer_in(1, 1LL << 24))->capture_default_str();
  cmd->add_option("--perturbation", o->perturbation, "Interior vertices moved by up to this fraction of h (not a stencil), in [0, 0.3]")
      ->check(real_in(0.0, 0.3))
      ->capture_default_str();
  // The assembled operators are every registered format (formats/format.hpp), through an SpMV plan.
  std::vector<std::string> operators = format_name_list();
  for (const char* element : {"lma", "lma-sym", "pa", "auto"}) operators.push_back(element);
  cmd->add_option("--operator", o->op,
                  "a format (" + format_names() + ": assembled, through an SpMV plan), lma (local matrices, as the paper), lma-sym (their upper "
                  "triangles), pa (matrix-free, sum-factorised), or auto (GPU: the fewest model bytes of the advisor's plan, lma-sym and pa; CPU: the advisor's plan)")
      ->check(CLI::IsMember(operators))
      ->capture_default_str();
  cmd->add_option("--scatter", o->scatter, "lma's and pa's scatter: auto (GPU atomics, CPU colouring), atomics (GPU), colouring")
      ->check(CLI::IsMember({"auto", "atomics", "colouring"}))
      ->capture_default_str();
  cmd->add_option("--precision", o->precision, "single or double")->check(CLI::IsMember({"single", "double"}))->capture_default_str();
  add_backend_option(cmd, o->backend);
  cmd->add_option("--method", o->method, "cg or pipecg")->check(CLI::IsMember({"cg", "pipecg"}))->capture_default_str();
  cmd->add_option("--precond", o->precond, "none or jacobi")->check(CLI::IsMember({"none", "jacobi"}))->capture_default_str();
  cmd->add_option("--tolerance", o->tolerance, "Stop at ||r||/||b|| below this (default 1e-12 in double, 1e-6 in single)")->check(real_above_zero(false));
  cmd->add_option("--max-iterations", o->max_iterations, "Iteration limit of the solve")->check(integer_in(1, 100000000))->capture_default_str();
  cmd->add_option("--rate-iterations", o->rate_iterations, "CG iterations timed for the rate, on a right-hand side with every mode (0: none)")
      ->check(integer_in(0, 100000000))
      ->capture_default_str();
  return [o]() {
    const fem::PoissonOptions po{o->degree, o->elements, o->perturbation};
    bool narrow = true;  // 32-bit indices unless the problem needs more
    try {
      fem::check_poisson_options<std::int32_t>(po);
    } catch (const Error& e) {
      if (e.code() != ErrorCode::overflow) throw;
      narrow = false;
    }
    if (o->precision == "single") return narrow ? run_fem<float, std::int32_t>(*o) : run_fem<float, std::int64_t>(*o);
    return narrow ? run_fem<double, std::int32_t>(*o) : run_fem<double, std::int64_t>(*o);
  };
}

}  // namespace hsparse::tool
