// The LMA product, element by element (kernels/lma_spmv.hpp): the definition
// the other backends are checked against.
#include <string>
#include <vector>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/kernels/lma_spmv.hpp"

namespace hsparse {

const char* to_string(LmaScatter s) { return s == LmaScatter::atomics ? "atomics" : "colouring"; }

LmaScatter parse_lma_scatter(const std::string& name) {
  if (name == "atomics") return LmaScatter::atomics;
  if (name == "colouring") return LmaScatter::colouring;
  throw Error(ErrorCode::invalid_argument, "LMA scatter '" + name + "': valid are atomics and colouring");
}

template <class V, class I>
void check_lma_sizes(const fem::LocalMatrices<V, I>& a, std::size_t x, std::size_t y) {
  const auto n = static_cast<std::size_t>(a.rows);
  if (x != n || y != n) {
    throw Error(ErrorCode::invalid_argument, "LMA product: x has " + std::to_string(x) + " and y " + std::to_string(y) + " values for " +
                                                 std::to_string(n) + " unknowns");
  }
}

namespace reference {

template <class V, class I>
void lma_spmv(V alpha, const fem::LocalMatrices<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  check_lma_sizes(a, x.size(), y.size());
  for (auto& v : y) v = beta == V(0) ? V(0) : beta * v;
  const auto m = static_cast<std::size_t>(a.nodes_per_element), ne = static_cast<std::size_t>(a.elements);
  std::vector<V> local(m);
  for (std::size_t e = 0; e < ne; ++e) {
    for (std::size_t j = 0; j < m; ++j) {  // A x
      const I node = a.element_nodes[j * ne + e];
      local[j] = node < 0 ? V(0) : x[static_cast<std::size_t>(node)];
    }
    for (std::size_t i = 0; i < m; ++i) {  // K_e, then A^T
      const I node = a.element_nodes[i * ne + e];
      if (node < 0) continue;
      V sum(0);
      for (std::size_t j = 0; j < m; ++j) {
        const auto entry = static_cast<std::size_t>(fem::local_entry(static_cast<int>(i), static_cast<int>(j), a.nodes_per_element, a.symmetric));
        sum += a.values[entry * ne + e] * local[j];
      }
      y[static_cast<std::size_t>(node)] += alpha * sum;
    }
  }
}

}  // namespace reference

#define HSPARSE_INSTANTIATE(V, I)                                                                        \
  template void check_lma_sizes(const fem::LocalMatrices<V, I>&, std::size_t, std::size_t);             \
  template void reference::lma_spmv(V, const fem::LocalMatrices<V, I>&, std::span<const V>, V, std::span<V>);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
