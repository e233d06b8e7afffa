// Solves A x = b with CG and a Jacobi preconditioner, A symmetric positive
// definite: a Matrix Market file or a generator spec (default: the 7-point
// Laplacian on a 40^3 grid), b = A * ones, on the GPU if there is one.
//
//   cg_jacobi [MATRIX.mtx | stencil3d:n=40]
#include <cstdio>
#include <vector>

#include <hsparse/hsparse.hpp>

int main(int argc, char** argv) {
  const char* source = argc > 1 ? argv[1] : "stencil3d:n=40,points=7";
  try {
    const auto a = hsparse::io::load_matrix<double, int>(source);  // .mtx, .mtx.gz, .tar.gz, .hsp or a generator spec
    const hsparse::ExecutorPtr ex = hsparse::make_executor("auto");
    const hsparse::SpmvPlan<double, int> plan(ex, a, {.format = hsparse::Format::csr});

    // b = A * ones, so that the solution is known.
    const std::vector<double> ones(a.cols, 1.0);
    const hsparse::Array<double> ones_on(ex, std::span<const double>(ones));
    hsparse::Array<double> b_on(ex, static_cast<std::size_t>(a.rows));
    hsparse::Array<double> x_on(ex, static_cast<std::size_t>(a.cols));  // zeros: the initial guess
    plan.apply(1.0, ones_on, 0.0, b_on);
    const std::vector<double> b = b_on.to_host();

    hsparse::SolverOptions options;
    options.method = hsparse::KrylovMethod::cg;
    options.preconditioner = hsparse::Preconditioner::jacobi;
    options.tolerance = 1e-10;
    options.max_iterations = 5000;
    const hsparse::SolverResult result = hsparse::solve(a, plan, b_on, x_on, options);

    const std::vector<double> x = x_on.to_host();
    const double true_residual = hsparse::true_relative_residual(a, std::span<const double>(b), std::span<const double>(x));
    std::printf("%s: %d unknowns, %zu nonzeros, on %s\n", source, a.rows, a.nnz(), ex->description().c_str());
    std::printf("CG + Jacobi: %s after %d iterations (%.3f s), ||b - Ax|| / ||b|| = %.2e\n", hsparse::to_string(result.status),
                result.iterations, result.seconds, true_residual);
    return result.converged() && true_residual < 1e-8 ? 0 : 1;
  } catch (const hsparse::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
