// A GPU SpMV handle tuned over repeated products: the advisor picks the
// format for 1000 products, then the handle tries the kernel's parameters
// on the first products (each product correct) and keeps the fastest, also
// in the tuning cache on disk for the next run. Without a CUDA device (or a
// build without CUDA) it says so and exits 0.
//
//   gpu_tuned_plan [MATRIX | generator spec]    (default: a 3-D 27-point stencil)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <hsparse/hsparse.hpp>

int main(int argc, char** argv) {
  if (!hsparse::cuda::device_available()) {
    std::printf("skipped: no CUDA device (%s)\n",
                hsparse::built_with_cuda() ? hsparse::cuda::device_description().c_str() : "hsparse built without CUDA");
    return 0;
  }
  const char* source = argc > 1 ? argv[1] : "stencil3d:n=64,points=27";
  try {
    const auto a = hsparse::io::load_matrix<double, int>(source);
    const hsparse::ExecutorPtr gpu = hsparse::make_executor("cuda");

    hsparse::HandleOptions options;
    options.spmv_count = 1000;      // what the advisor weighs the conversion against
    options.max_tuning_calls = 40;  // stop trying parameters after this many products
    hsparse::SpmvHandle<double, int> spmv(gpu, a, options);

    const std::vector<double> ones(a.cols, 1.0);
    const hsparse::Array<double> x(gpu, std::span<const double>(ones));
    hsparse::Array<double> y(gpu, static_cast<std::size_t>(a.rows));
    const hsparse::Stopwatch timer;
    for (int i = 0; i < 200; ++i) spmv.apply(1.0, x, 0.0, y);  // launched on the executor's stream
    gpu->synchronize();
    const double seconds = timer.seconds();

    // Row sums of A, the expected y for x = ones.
    const std::vector<double> y_host = y.to_host();
    double worst = 0;
    for (int r = 0; r < a.rows; ++r) {
      double s = 0;
      for (int k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) s += a.values[k];
      worst = std::max(worst, std::abs(s - y_host[r]) / std::max(1.0, std::abs(s)));
    }
    std::printf("%s on %s\n", source, gpu->description().c_str());
    std::printf("kernel %s (%s) after %d products, %s; 200 products in %.2f ms; max relative error %.1e\n",
                spmv.description().c_str(), spmv.origin().c_str(), spmv.calls(), spmv.tuning() ? "still tuning" : "tuned",
                1e3 * seconds, worst);
    return worst > 1e-12 ? 1 : 0;
  } catch (const hsparse::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
