// Serial Thomas' algorithm (solvers/tridiagonal.hpp): the definition the
// other backends are tested against.
#include <vector>

#include "../common/thomas.hpp"
#include "hsparse/kernels/tridiagonal.hpp"

namespace hsparse::reference {

template <class V>
void tridiagonal_solve(const TridiagonalSystems<V>& s, std::span<const V> d, std::span<V> x) {
  detail::check_tridiagonal_sizes(s, d.size(), x.size());
  std::vector<V> scratch(static_cast<std::size_t>(s.size));
  for (long long k = 0; k < s.count; ++k) {
    const long long bad = detail::thomas_one(s, k, d.data(), x.data(), scratch.data());
    if (bad >= 0) throw_zero_pivot(k, bad, "Thomas, serial");
  }
}

template void tridiagonal_solve(const TridiagonalSystems<float>&, std::span<const float>, std::span<float>);
template void tridiagonal_solve(const TridiagonalSystems<double>&, std::span<const double>, std::span<double>);

}  // namespace hsparse::reference
