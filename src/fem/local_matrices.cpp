// The LMA data's rules and its symmetric packing (fem/poisson.hpp).
#include <algorithm>
#include <cmath>
#include <string>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/fem/poisson.hpp"

namespace hsparse::fem {

template <class V, class I>
void LocalMatrices<V, I>::validate() const {
  const auto m = static_cast<std::size_t>(nodes_per_element), ne = static_cast<std::size_t>(elements);
  if (element_nodes.size() != m * ne) throw Error(ErrorCode::invalid_matrix, "LMA: element_nodes holds " + std::to_string(element_nodes.size()) + " entries, expected m x elements = " + std::to_string(m * ne));
  const auto per_element = static_cast<std::size_t>(local_entries(nodes_per_element, symmetric));
  if (values.size() != per_element * ne) {
    throw Error(ErrorCode::invalid_matrix, "LMA: values holds " + std::to_string(values.size()) + " entries, expected " + (symmetric ? "m (m + 1) / 2" : "m^2") +
                                               " x elements = " + std::to_string(per_element * ne));
  }
  if (colour_begin.size() != 5 || colour_begin.front() != 0 || colour_begin.back() != elements || !std::is_sorted(colour_begin.begin(), colour_begin.end())) {
    throw Error(ErrorCode::invalid_matrix, "LMA: colour_begin must be 5 ascending offsets from 0 to the element count");
  }
  for (std::size_t i = 0; i < element_nodes.size(); ++i) {
    if (element_nodes[i] < -1 || element_nodes[i] >= rows) {
      throw Error(ErrorCode::invalid_matrix, "LMA: node " + std::to_string(i / ne) + " of element " + std::to_string(i % ne) + " is " +
                                                 std::to_string(element_nodes[i]) + ", outside [-1, " + std::to_string(rows) + ")");
    }
  }
}

template <class V, class I>
LocalMatrices<V, I> upper_triangle(const LocalMatrices<V, I>& full) {
  full.validate();
  if (full.symmetric) throw Error(ErrorCode::invalid_argument, "LMA upper_triangle: the local matrices are packed already");
  const int m = full.nodes_per_element;
  const auto ne = static_cast<std::size_t>(full.elements);
  LocalMatrices<V, I> packed;
  packed.rows = full.rows;
  packed.elements = full.elements;
  packed.nodes_per_element = m;
  packed.symmetric = true;
  packed.element_nodes = full.element_nodes;
  packed.colour_begin = full.colour_begin;
  packed.values.assign(static_cast<std::size_t>(local_entries(m, true)) * ne, V(0));
  const auto at = [&](int i, int j, bool sym) { return static_cast<std::size_t>(local_entry(i, j, m, sym)) * ne; };
  for (std::size_t e = 0; e < ne; ++e) {
    double largest = 0;
    for (int q = 0; q < m * m; ++q) largest = std::max(largest, std::abs(static_cast<double>(full.values[static_cast<std::size_t>(q) * ne + e])));
    for (int i = 0; i < m; ++i) {
      for (int j = i; j < m; ++j) {
        const V upper = full.values[at(i, j, false) + e], lower = full.values[at(j, i, false) + e];
        if (std::abs(static_cast<double>(upper) - static_cast<double>(lower)) > 1e-12 * largest) {
          throw Error(ErrorCode::invalid_matrix, "LMA upper_triangle: K_e of element " + std::to_string(e) + " is not symmetric at (" + std::to_string(i) +
                                                     ", " + std::to_string(j) + "): " + std::to_string(static_cast<double>(upper)) + " vs " +
                                                     std::to_string(static_cast<double>(lower)));
        }
        packed.values[at(i, j, true) + e] = upper;
      }
    }
  }
  return packed;
}

#define HSPARSE_INSTANTIATE(V, I) \
  template struct LocalMatrices<V, I>; \
  template LocalMatrices<V, I> upper_triangle(const LocalMatrices<V, I>&);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::fem
