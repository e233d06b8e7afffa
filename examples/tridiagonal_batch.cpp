// A batch of independent tridiagonal systems (e.g. one per grid line of an
// ADI sweep): 10,000 systems of 256 unknowns, stored system after system
// (contiguous layout), solved by Thomas' algorithm on the CPU's threads.
// (On the GPU: hsparse::cuda::TridiagonalSolver with the same views and
// device pointers; `hsparse tridiag` runs both.)
#include <cstdio>
#include <vector>

#include <hsparse/hsparse.hpp>

int main() {
  const long long size = 256, count = 10000, n = size * count;
  // -x_{i-1} + 4 x_i - x_{i+1} = d_i: diagonally dominant, so no pivoting is needed.
  std::vector<double> a(n, -1.0), b(n, 4.0), c(n, -1.0), d(n), x(n);
  for (long long i = 0; i < n; ++i) d[i] = 1.0 + (i % 17);

  hsparse::TridiagonalSystems<double> systems;
  systems.size = size;
  systems.count = count;
  systems.layout = hsparse::TridiagonalLayout::contiguous;
  systems.a = a.data();  // a_0 of each system is ignored
  systems.b = b.data();
  systems.c = c.data();  // c_{size-1} of each system is ignored
  try {
    hsparse::check_tridiagonal_shape(systems);
    const hsparse::DiagonalDominance dominance = hsparse::check_diagonal_dominance(systems);
    hsparse::openmp::tridiagonal_solve(systems, std::span<const double>(d), std::span<double>(x));
    const double residual = hsparse::tridiagonal_relative_residual(systems, std::span<const double>(d), std::span<const double>(x));
    std::printf("%lld systems of %lld unknowns (%s, diagonally dominant: %s): ||Ax - d|| / ||d|| = %.2e\n", count, size,
                hsparse::to_string(systems.layout), dominance.dominant ? "yes" : "no", residual);
    return residual < 1e-12 ? 0 : 1;
  } catch (const hsparse::Error& e) {  // a zero pivot names its system and row
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
