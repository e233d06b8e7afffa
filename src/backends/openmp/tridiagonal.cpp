// Thomas' algorithm with OpenMP over the systems (solvers/tridiagonal.hpp).
#include <vector>

#include "../common/thomas.hpp"
#include "hsparse/solvers/tridiagonal.hpp"

namespace hsparse {

namespace openmp {
template <class V>
void tridiagonal_solve(const TridiagonalSystems<V>& s, std::span<const V> d, std::span<V> x) {
  detail::check_tridiagonal_sizes(s, d.size(), x.size());
  long long bad_system = -1, bad_row = -1;
#pragma omp parallel
  {
    std::vector<V> scratch(static_cast<std::size_t>(s.size));
#pragma omp for schedule(static)
    for (long long k = 0; k < s.count; ++k) {
      const long long bad = detail::thomas_one(s, k, d.data(), x.data(), scratch.data());
      if (bad >= 0) {
#pragma omp critical
        if (bad_system < 0 || k < bad_system) {
          bad_system = k;
          bad_row = bad;
        }
      }
    }
  }
  if (bad_system >= 0) throw_zero_pivot(bad_system, bad_row, "Thomas, OpenMP");
}
}  // namespace openmp

template void openmp::tridiagonal_solve(const TridiagonalSystems<float>&, std::span<const float>, std::span<float>);
template void openmp::tridiagonal_solve(const TridiagonalSystems<double>&, std::span<const double>, std::span<double>);

}  // namespace hsparse
