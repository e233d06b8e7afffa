// The README's 15-line example, built and run in CI like the others (keep the
// two identical). y = A x in the advisor's format, on the GPU if there is one.
//   quick_start MATRIX.mtx
#include <hsparse/hsparse.hpp>
#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: %s MATRIX.mtx\n", argv[0]), 2;
  const auto a = hsparse::io::read_matrix_market_csr<double, int>(argv[1]);  // .mtx, .mtx.gz, SuiteSparse .tar.gz
  const auto ex = hsparse::make_executor("auto");             // the GPU if there is one, else the CPU
  hsparse::SpmvHandle<double, int> spmv(ex, a);               // the advisor's format, tuned over the products
  const std::vector<double> ones(a.cols, 1.0);
  const hsparse::Array<double> x(ex, std::span<const double>(ones));
  hsparse::Array<double> y(ex, a.rows);
  for (int i = 0; i < 100; ++i) spmv.apply(1.0, x, 0.0, y);  // y = A x
  std::printf("%s: y[0] = %g\n", spmv.description().c_str(), y.to_host()[0]);
}
