// Assembly of the Q_p Poisson problem (fem/poisson.hpp; Reguly and Giles,
// section 8.1, eqs. 10 and 11). Everything is computed in double and stored
// in V.
#include "hsparse/fem/poisson.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "hsparse/core/error.hpp"
#include "hsparse/core/host_system.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/generators/hash.hpp"
#include "colour_order.hpp"
#include "reference_element.hpp"

namespace hsparse::fem {

namespace {

constexpr std::uint64_t kPerturbationSeed = 17;

// Unknown of lattice node (a, b), or -1 on the boundary.
long long unknown_of(long long a, long long b, long long side) {  // side = pN
  if (a <= 0 || b <= 0 || a >= side || b >= side) return -1;
  return (b - 1) * (side - 1) + (a - 1);
}

}  // namespace

double poisson_exact(double x, double y) { return std::sin(std::numbers::pi * x) * std::sin(std::numbers::pi * y); }

template <class I>
void check_poisson_options(const PoissonOptions& o) {
  if (o.degree < 1 || o.degree > 4) throw Error(ErrorCode::invalid_argument, "degree must be 1, 2, 3 or 4, not " + std::to_string(o.degree));
  if (o.elements < 1 || o.elements > (1LL << 24)) {
    throw Error(ErrorCode::invalid_argument, "elements (per side) must be in [1, 16777216], not " + std::to_string(o.elements));
  }
  if (!(o.perturbation >= 0.0 && o.perturbation <= 0.3)) {
    throw Error(ErrorCode::invalid_argument, "perturbation must be in [0, 0.3] (a fraction of the element size), not " + std::to_string(o.perturbation));
  }
  const auto side = static_cast<std::uint64_t>(o.degree) * static_cast<std::uint64_t>(o.elements) + 1;
  const std::uint64_t row = static_cast<std::uint64_t>(2 * o.degree + 1) * static_cast<std::uint64_t>(2 * o.degree + 1);
  const std::uint64_t m = static_cast<std::uint64_t>(o.degree + 1) * static_cast<std::uint64_t>(o.degree + 1);
  const auto elements = static_cast<std::uint64_t>(o.elements) * static_cast<std::uint64_t>(o.elements);
  if (!fits_index<I>(side * side) || !fits_index<I>(side * side * row) || !fits_index<I>(elements * m * m)) {
    throw Error(ErrorCode::overflow, "Q" + std::to_string(o.degree) + " on " + std::to_string(o.elements) + " x " + std::to_string(o.elements) +
                                         " elements: the nodes or nonzeros do not fit " + std::to_string(8 * sizeof(I)) + "-bit indices");
  }
}

template <class V, class I>
PoissonProblem<V, I> assemble_poisson(const PoissonOptions& o) {
  check_poisson_options<I>(o);
  const int p = o.degree, q1 = p + 1, m = q1 * q1;
  const long long n = o.elements, side = p * n, unknowns = (side - 1) * (side - 1), elements = n * n;
  // Rows: (2p + 1)^2 entries at most. Checked before anything is allocated.
  const double row_max = static_cast<double>((2 * p + 1) * (2 * p + 1));
  require_host_memory(static_cast<std::size_t>(static_cast<double>(unknowns) * row_max * static_cast<double>(sizeof(V) + sizeof(I)) +
                                               static_cast<double>(elements) * m * (m * sizeof(V) + sizeof(I)) + 16.0 * static_cast<double>((n + 1) * (n + 1))),
                      "the Q" + std::to_string(p) + " Poisson problem on " + std::to_string(n) + " x " + std::to_string(n) + " elements");
  PoissonProblem<V, I> pr;
  pr.options = o;
  // Vertices, interior ones moved deterministically.
  const double h = 1.0 / static_cast<double>(n);
  pr.vertex_x.resize(static_cast<std::size_t>((n + 1) * (n + 1)));
  pr.vertex_y.resize(pr.vertex_x.size());
  for (long long j = 0; j <= n; ++j) {
    for (long long i = 0; i <= n; ++i) {
      const auto v = static_cast<std::size_t>(j * (n + 1) + i);
      double dx = 0, dy = 0;
      if (i > 0 && j > 0 && i < n && j < n && o.perturbation > 0) {
        dx = o.perturbation * h * (2 * generators::hash_uniform(kPerturbationSeed, static_cast<std::uint64_t>(v), 0) - 1);
        dy = o.perturbation * h * (2 * generators::hash_uniform(kPerturbationSeed, static_cast<std::uint64_t>(v), 1) - 1);
      }
      pr.vertex_x[v] = static_cast<double>(i) * h + dx;
      pr.vertex_y[v] = static_cast<double>(j) * h + dy;
    }
  }
  // CSR pattern: row (a, b) couples with the lattice rectangle of the elements holding the node.
  Csr<V, I>& k = pr.matrix;
  k.rows = k.cols = static_cast<I>(unknowns);
  k.row_ptr.assign(static_cast<std::size_t>(unknowns) + 1, 0);
  const auto element_range = [&](long long a, long long& lo, long long& hi) {  // elements along one axis holding lattice index a
    lo = std::max(0LL, (a + p - 1) / p - 1);
    hi = std::min(n - 1, a / p);
  };
  const auto columns_of = [&](long long a, long long b, auto&& f) {
    long long ex0, ex1, ey0, ey1;
    element_range(a, ex0, ex1);
    element_range(b, ey0, ey1);
    for (long long bb = std::max(1LL, p * ey0); bb <= std::min(side - 1, p * ey1 + p); ++bb) {
      for (long long aa = std::max(1LL, p * ex0); aa <= std::min(side - 1, p * ex1 + p); ++aa) f(unknown_of(aa, bb, side));
    }
  };
#pragma omp parallel for schedule(static)
  for (long long r = 0; r < unknowns; ++r) {
    I count = 0;
    columns_of(r % (side - 1) + 1, r / (side - 1) + 1, [&](long long) { ++count; });
    k.row_ptr[static_cast<std::size_t>(r) + 1] = count;
  }
  for (long long r = 0; r < unknowns; ++r) k.row_ptr[static_cast<std::size_t>(r) + 1] += k.row_ptr[static_cast<std::size_t>(r)];
  k.col_idx.resize(static_cast<std::size_t>(k.row_ptr.back()));
  k.values.assign(k.col_idx.size(), V(0));
#pragma omp parallel for schedule(static)
  for (long long r = 0; r < unknowns; ++r) {
    auto pos = static_cast<std::size_t>(k.row_ptr[static_cast<std::size_t>(r)]);
    columns_of(r % (side - 1) + 1, r / (side - 1) + 1, [&](long long c) { k.col_idx[pos++] = static_cast<I>(c); });
  }
  pr.load.assign(static_cast<std::size_t>(unknowns), V(0));
  // Local matrices and their scatter, colour by colour (no two elements of a colour share a node).
  const ReferenceElement ref(p, p + 2);
  LocalMatrices<V, I>& lma = pr.local;
  lma.rows = static_cast<I>(unknowns);
  lma.elements = static_cast<I>(elements);
  lma.nodes_per_element = m;
  lma.element_nodes.assign(static_cast<std::size_t>(elements * m), I(-1));
  lma.values.assign(static_cast<std::size_t>(elements * m * m), V(0));
  const ColourOrder order(n);
  lma.colour_begin.clear();
  for (long long b : order.begin) lma.colour_begin.push_back(static_cast<I>(b));
  for (int colour = 0; colour < 4; ++colour) {
    const long long ey_first = colour / 2, ex_first = colour % 2;
#pragma omp parallel for schedule(static)
    for (long long ey = ey_first; ey < n; ey += 2) {
      std::vector<double> ke(static_cast<std::size_t>(m * m)), le(static_cast<std::size_t>(m));
      for (long long ex = ex_first; ex < n; ex += 2) {
        std::array<double, 4> vx, vy;
        element_corners(pr.vertex_x, pr.vertex_y, n, ex, ey, vx, vy);
        ref.element_matrices(vx, vy, [](double x, double y) { return 2 * std::numbers::pi * std::numbers::pi * poisson_exact(x, y); }, ke, le);
        const long long e = order.index(ex, ey);
        std::array<long long, 25> node{};
        for (int j = 0; j < q1; ++j) {
          for (int i = 0; i < q1; ++i) node[static_cast<std::size_t>(j * q1 + i)] = unknown_of(p * ex + i, p * ey + j, side);
        }
        for (int a = 0; a < m; ++a) {
          const long long ra = node[static_cast<std::size_t>(a)];
          lma.element_nodes[static_cast<std::size_t>(a * elements + e)] = static_cast<I>(ra);
          for (int b = 0; b < m; ++b) lma.values[static_cast<std::size_t>((a * m + b) * elements + e)] = static_cast<V>(ke[static_cast<std::size_t>(a * m + b)]);
          if (ra < 0) continue;
          pr.load[static_cast<std::size_t>(ra)] += static_cast<V>(le[static_cast<std::size_t>(a)]);
          const auto begin = k.col_idx.begin() + k.row_ptr[static_cast<std::size_t>(ra)], end = k.col_idx.begin() + k.row_ptr[static_cast<std::size_t>(ra) + 1];
          for (int b = 0; b < m; ++b) {
            const long long cb = node[static_cast<std::size_t>(b)];
            if (cb < 0) continue;
            const auto it = std::lower_bound(begin, end, static_cast<I>(cb));
            k.values[static_cast<std::size_t>(it - k.col_idx.begin())] += static_cast<V>(ke[static_cast<std::size_t>(a * m + b)]);
          }
        }
      }
    }
  }
  return pr;
}

template <class V, class I>
double l2_error(const PoissonProblem<V, I>& pr, std::span<const V> u) {
  if (static_cast<long long>(u.size()) != pr.unknowns()) {
    throw Error(ErrorCode::invalid_argument, "l2_error: " + std::to_string(u.size()) + " values for " + std::to_string(pr.unknowns()) + " unknowns");
  }
  const int p = pr.options.degree, m = (p + 1) * (p + 1);
  const long long n = pr.options.elements, elements = n * n;
  const ReferenceElement ref(p, p + 3);
  const ColourOrder order(n);
  double sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (long long ey = 0; ey < n; ++ey) {
    std::vector<double> local(static_cast<std::size_t>(m));
    for (long long ex = 0; ex < n; ++ex) {
      const long long e = order.index(ex, ey);
      for (int a = 0; a < m; ++a) {
        const auto node = pr.local.element_nodes[static_cast<std::size_t>(a * elements + e)];
        local[static_cast<std::size_t>(a)] = node < 0 ? 0.0 : static_cast<double>(u[static_cast<std::size_t>(node)]);
      }
      std::array<double, 4> vx, vy;
      element_corners(pr.vertex_x, pr.vertex_y, n, ex, ey, vx, vy);
      sum += ref.squared_error(vx, vy, local, poisson_exact);
    }
  }
  return std::sqrt(sum);
}

template void check_poisson_options<std::int32_t>(const PoissonOptions&);
template void check_poisson_options<std::int64_t>(const PoissonOptions&);
#define HSPARSE_INSTANTIATE(V, I)                                                    \
  template PoissonProblem<V, I> assemble_poisson<V, I>(const PoissonOptions&);       \
  template double l2_error<V, I>(const PoissonProblem<V, I>&, std::span<const V>);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::fem
