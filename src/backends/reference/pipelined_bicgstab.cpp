// Pipelined BiCGStab's fused kernels, serial (kernels/pipelined_bicgstab.hpp):
// one loop each in index order, the definition the others are tested against.
#include "hsparse/kernels/pipelined_bicgstab.hpp"

#include "../common/pipelined_bicgstab_rows.hpp"

namespace hsparse::reference {

template <class V>
std::array<dot_t<V>, 2> pipelined_bicgstab_directions(bool first, V alpha, V beta, V omega, const PipelinedBicgstabVectors<V>& v) {
  std::array<dot_t<V>, 2> sums{};
  for (std::size_t i = 0; i < v.n; ++i) detail::pipelined_bicgstab_directions_at(i, first, alpha, beta, omega, v, sums);
  return sums;
}

template <class V>
std::array<dot_t<V>, 5> pipelined_bicgstab_residuals(V alpha, V omega, const PipelinedBicgstabVectors<V>& v) {
  std::array<dot_t<V>, 5> sums{};
  for (std::size_t i = 0; i < v.n; ++i) detail::pipelined_bicgstab_residuals_at(i, alpha, omega, v, sums);
  return sums;
}

#define HSPARSE_INSTANTIATE(V)                                                                                                    \
  template std::array<dot_t<V>, 2> pipelined_bicgstab_directions(bool, V, V, V, const PipelinedBicgstabVectors<V>&);         \
  template std::array<dot_t<V>, 5> pipelined_bicgstab_residuals(V, V, const PipelinedBicgstabVectors<V>&);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::reference
