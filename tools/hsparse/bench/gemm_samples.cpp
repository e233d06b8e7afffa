// The GEMM operands and sampled check (gemm_samples.hpp).
#include "gemm_samples.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hsparse::bench {

template <class T>
std::vector<T> generated_values(long long count, long long seed) {
  std::vector<T> v(static_cast<std::size_t>(count));
  for (long long i = 0; i < count; ++i) v[static_cast<std::size_t>(i)] = static_cast<T>(((i * 7919 + seed * 104729) % 1000) / 1000.0 - 0.5);
  return v;
}

template <class T>
GemmSampleCheck check_gemm_samples(Op ta, Op tb, long long m, long long n, long long k, double alpha, const std::vector<T>& a,
                                   const std::vector<T>& b, double beta, const std::vector<T>& c0, const std::vector<T>& result, int samples,
                                   bool tf32_inputs) {
  const bool at = ta == Op::transpose, bt = tb == Op::transpose;
  const long long ar = at ? k : m, br = bt ? n : k;
  const double eps = std::numeric_limits<T>::epsilon(), input_rounding = tf32_inputs ? 2 * std::ldexp(1.0, -11) : 0.0;
  GemmSampleCheck check;
  check.samples = static_cast<int>(std::min<long long>(samples, m * n));
  unsigned long long state = 12345;
  const auto next = [&](long long range) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<long long>((state >> 33) % static_cast<unsigned long long>(range));
  };
  for (int s = 0; s < check.samples; ++s) {
    const long long i = next(m), j = next(n);
    double dot = 0, mag = 0;
    for (long long p = 0; p < k; ++p) {
      const double x = at ? a[static_cast<std::size_t>(p + i * ar)] : a[static_cast<std::size_t>(i + p * ar)];
      const double y = bt ? b[static_cast<std::size_t>(j + p * br)] : b[static_cast<std::size_t>(p + j * br)];
      dot += x * y;
      mag += std::abs(x * y);
    }
    const double c = c0.empty() ? 0.0 : static_cast<double>(c0[static_cast<std::size_t>(i + j * m)]);
    const double expect = alpha * dot + beta * c;
    const double bound = (4 * (static_cast<double>(k) + 2) * eps + input_rounding) * (std::abs(alpha) * mag + std::abs(beta * c)) + 1e-300;
    const double err = std::abs(static_cast<double>(result[static_cast<std::size_t>(i + j * m)]) - expect);
    check.worst = std::max(check.worst, err / bound);
    check.failed += err > bound || !std::isfinite(err);
  }
  return check;
}

template <class T>
double gemm_algorithm_intensity(const std::string& algorithm, const cuda::GemmTile& tile, const GemmShape& shape) {
  if (algorithm == "blocked") {
    const auto b = openmp::gemm_blocks<T>();
    return gemm_intensity(shape, static_cast<double>(b.mc), static_cast<double>(b.nc));
  }
  if (algorithm == "untiled" || algorithm == "reference") return gemm_intensity(shape, 1, 1);  // a dot product per entry
  if (algorithm == "tiled") return gemm_intensity(shape, 16, 16);
  if (algorithm == "register" || algorithm == "tensor" || algorithm == "tf32") return gemm_intensity(shape, tile.bm, tile.bn);
  return 0;
}

#define HSPARSE_INSTANTIATE(T)                                                                                                              \
  template std::vector<T> generated_values<T>(long long, long long);                                                                       \
  template double gemm_algorithm_intensity<T>(const std::string&, const cuda::GemmTile&, const GemmShape&);                               \
  template GemmSampleCheck check_gemm_samples<T>(Op, Op, long long, long long, long long, double, const std::vector<T>&, const std::vector<T>&, \
                                                 double, const std::vector<T>&, const std::vector<T>&, int, bool);
HSPARSE_INSTANTIATE(float)
HSPARSE_INSTANTIATE(double)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::bench
