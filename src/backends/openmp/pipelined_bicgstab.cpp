// Pipelined BiCGStab's fused kernels with OpenMP (kernels/pipelined_bicgstab.hpp):
// static blocks of entries, each thread's sums added in thread order (so a
// run gives the same sums as the next with the same threads).
#include "hsparse/kernels/pipelined_bicgstab.hpp"

#include <omp.h>

#include <vector>

#include "../common/pipelined_bicgstab_rows.hpp"

namespace hsparse::openmp {

namespace {

// Runs at(i, sums) over the entries in static blocks, one sums array per thread, added in order.
template <class Sums, class At>
Sums for_entries(std::size_t n, const At& at) {
  std::vector<Sums> partial(static_cast<std::size_t>(omp_get_max_threads()));
#pragma omp parallel
  {
    Sums mine{};
    const auto threads = static_cast<std::size_t>(omp_get_num_threads()), me = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t first = n * me / threads, last = n * (me + 1) / threads;
    for (std::size_t i = first; i < last; ++i) at(i, mine);
    partial[me] = mine;
  }
  Sums total{};
  for (const Sums& p : partial) {
    for (std::size_t k = 0; k < total.size(); ++k) total[k] += p[k];
  }
  return total;
}

}  // namespace

template <class V>
std::array<dot_t<V>, 2> pipelined_bicgstab_directions(bool first, V alpha, V beta, V omega, const PipelinedBicgstabVectors<V>& v) {
  return for_entries<std::array<dot_t<V>, 2>>(
      v.n, [&](std::size_t i, std::array<dot_t<V>, 2>& s) { detail::pipelined_bicgstab_directions_at(i, first, alpha, beta, omega, v, s); });
}

template <class V>
std::array<dot_t<V>, 5> pipelined_bicgstab_residuals(V alpha, V omega, const PipelinedBicgstabVectors<V>& v) {
  return for_entries<std::array<dot_t<V>, 5>>(v.n, [&](std::size_t i, std::array<dot_t<V>, 5>& s) { detail::pipelined_bicgstab_residuals_at(i, alpha, omega, v, s); });
}

#define HSPARSE_INSTANTIATE(V)                                                                                                    \
  template std::array<dot_t<V>, 2> pipelined_bicgstab_directions(bool, V, V, V, const PipelinedBicgstabVectors<V>&);         \
  template std::array<dot_t<V>, 5> pipelined_bicgstab_residuals(V, V, const PipelinedBicgstabVectors<V>&);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
