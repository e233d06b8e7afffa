// Reads a Matrix Market file (plain, .mtx.gz, or a SuiteSparse .tar.gz) and
// computes y = A x in the format the advisor picks for 1000 products, on the
// GPU if there is one, else on the CPU. Checks y against a serial product.
//
//   spmv_matrix_market MATRIX.mtx
#include <cmath>
#include <cstdio>
#include <vector>

#include <hsparse/hsparse.hpp>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s MATRIX.mtx\n", argv[0]);
    return 2;
  }
  try {
    const auto a = hsparse::io::read_matrix_market_csr<double, int>(argv[1]);
    const hsparse::ExecutorPtr ex = hsparse::make_executor("auto");  // the GPU if one is visible

    hsparse::HandleOptions options;  // format unset: the advisor's choice ...
    options.spmv_count = 1000;       // ... for this many products, conversion counted
    hsparse::SpmvHandle<double, int> spmv(ex, a, options);

    std::vector<double> x(a.cols);
    for (int j = 0; j < a.cols; ++j) x[j] = 1.0 + j % 7;
    hsparse::Array<double> x_on(ex, std::span<const double>(x));
    hsparse::Array<double> y_on(ex, static_cast<std::size_t>(a.rows));
    spmv.apply(1.0, x_on, 0.0, y_on);  // y = 1 * A x + 0 * y
    const std::vector<double> y = y_on.to_host();

    double err = 0, norm = 0;
    for (int r = 0; r < a.rows; ++r) {
      double s = 0;
      for (int k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) s += a.values[k] * x[a.col_idx[k]];
      err = std::fmax(err, std::fabs(s - y[r]));
      norm = std::fmax(norm, std::fabs(s));
    }
    std::printf("%s: %d x %d, %zu nonzeros\n", argv[1], a.rows, a.cols, a.nnz());
    std::printf("on %s: %s (%s), max |y - y_serial| / max |y| = %.1e\n", ex->description().c_str(),
                spmv.description().c_str(), spmv.origin().c_str(), norm > 0 ? err / norm : err);
    return norm > 0 && err / norm > 1e-12 ? 1 : 0;
  } catch (const hsparse::Error& e) {  // bad file (named with its line), no memory, ...
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
